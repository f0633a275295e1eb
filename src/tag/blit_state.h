// The GL state the interposer's blits (marker_blit.h, overlay_blit.h) touch, saved and restored
// the same way by both. Internal to src/tag.
#pragma once
#include "tag/marker_blit.h"

namespace pictor::tag::blit {

// The texel layouts an upload may give: RGBA (every GL and GLES), or BGRA (desktop GL, core since
// 1.2), which makes Mesa store an RGBA8 texture as B8G8R8A8 — the layout of an X window's back
// buffer, so that a blit of the same size is a copy (marker_blit.h).
inline constexpr unsigned int kRgbaTexels = 0x1908;  // GL_RGBA
inline constexpr unsigned int kBgraTexels = 0x80E1;  // GL_BGRA

// Creates an RGBA8 texture of w x h texels, laid out for uploads of `texels` (kRgbaTexels or
// kBgraTexels), attached to a read framebuffer object of its own; false (nothing left created,
// every binding as it was) when the default framebuffer is multisampled or the framebuffer
// object is incomplete.
bool create_target(const GlBlitFns& f, int w, int h, unsigned int& texture, unsigned int& fbo,
                   unsigned int texels = kRgbaTexels) noexcept;
// Uploads w x h tightly packed 4-byte texels in the `texels` order (as the texture was created
// for) to the texture's origin, upload state restored.
void upload(const GlBlitFns& f, unsigned int texture, int w, int h, const void* texels,
            unsigned int order = kRgbaTexels) noexcept;
// Blits the fbo's (0, 0, src_w, src_h) to (x, y, x + dst_w, y + dst_h) of the default framebuffer
// (GL_NEAREST), scissor test and framebuffer bindings restored.
void blit_to_default(const GlBlitFns& f, unsigned int fbo, int src_w, int src_h, int x, int y, int dst_w,
                     int dst_h) noexcept;

}  // namespace pictor::tag::blit
