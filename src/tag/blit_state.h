// The GL state the interposer's blits (marker_blit.h, overlay_blit.h) touch, saved and restored
// the same way by both. Internal to src/tag.
#pragma once
#include "tag/marker_blit.h"

namespace pictor::tag::blit {

// Creates an RGBA8 texture of w x h texels attached to a read framebuffer object of its own;
// false (nothing left created, every binding as it was) when the default framebuffer is
// multisampled or the framebuffer object is incomplete.
bool create_target(const GlBlitFns& f, int w, int h, unsigned int& texture, unsigned int& fbo) noexcept;
// Uploads w x h tightly packed RGBA texels to the texture's origin, upload state restored.
void upload(const GlBlitFns& f, unsigned int texture, int w, int h, const void* texels) noexcept;
// Blits the fbo's (0, 0, src_w, src_h) to (x, y, x + dst_w, y + dst_h) of the default framebuffer
// (GL_NEAREST), scissor test and framebuffer bindings restored.
void blit_to_default(const GlBlitFns& f, unsigned int fbo, int src_w, int src_h, int x, int y, int dst_w,
                     int dst_h) noexcept;

}  // namespace pictor::tag::blit
