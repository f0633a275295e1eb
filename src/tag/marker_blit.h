// Draws the tag marker with one blit instead of a clear per rectangle: the 8 x 4 cells are
// uploaded as 8 x 4 texels into a small texture of the interposer's own, attached to a
// framebuffer object of its own, and glBlitFramebuffer scales them by 8 (GL_NEAREST) into the
// default framebuffer. On llvmpipe every scissored clear is a quad draw with Mesa's whole state
// save/restore around it (~51 000 instructions each, ~10 per marker); the blit is one.
// Needs GL >= 3.0 or GLES >= 3.0 and a single-sampled default framebuffer; otherwise setup()
// refuses and the interposer keeps draw_marker()'s clears. Saves and restores every piece of GL
// state it touches, raises no GL error on a context where setup() succeeded.
#pragma once
#include <cstdint>

#include "tag/marker_layout.h"

namespace pictor::tag {

// The GL entry points the blit path calls (GL's own types on every Linux ABI, as GlClearFns).
struct GlBlitFns {
  void (*get_integerv)(unsigned int pname, int* data) = nullptr;
  unsigned char (*is_enabled)(unsigned int cap) = nullptr;
  void (*enable)(unsigned int cap) = nullptr;
  void (*disable)(unsigned int cap) = nullptr;
  void (*gen_textures)(int n, unsigned int* textures) = nullptr;
  void (*delete_textures)(int n, const unsigned int* textures) = nullptr;
  void (*bind_texture)(unsigned int target, unsigned int texture) = nullptr;
  void (*tex_image_2d)(unsigned int target, int level, int internal_format, int width, int height,
                       int border, unsigned int format, unsigned int type, const void* pixels) = nullptr;
  void (*tex_sub_image_2d)(unsigned int target, int level, int x, int y, int width, int height,
                           unsigned int format, unsigned int type, const void* pixels) = nullptr;
  void (*pixel_storei)(unsigned int pname, int param) = nullptr;
  void (*bind_buffer)(unsigned int target, unsigned int buffer) = nullptr;
  void (*gen_framebuffers)(int n, unsigned int* framebuffers) = nullptr;
  void (*delete_framebuffers)(int n, const unsigned int* framebuffers) = nullptr;
  void (*bind_framebuffer)(unsigned int target, unsigned int framebuffer) = nullptr;
  void (*framebuffer_texture_2d)(unsigned int target, unsigned int attachment, unsigned int textarget,
                                 unsigned int texture, int level) = nullptr;
  unsigned int (*check_framebuffer_status)(unsigned int target) = nullptr;
  void (*blit_framebuffer)(int src_x0, int src_y0, int src_x1, int src_y1, int dst_x0, int dst_y0,
                           int dst_x1, int dst_y1, unsigned int mask, unsigned int filter) = nullptr;
};

// True when every entry point is set.
bool usable(const GlBlitFns& fns);

// The 8 x 4 RGBA texels of a cell word, bottom row first (GL's texture origin): texel (column c,
// GL row y) is cell c * 4 + (3 - y), pure white when its bit is set, pure black otherwise.
void marker_texels(std::uint32_t word, std::uint8_t out[kCells * 4]);

// One context's blit resources. Not thread-safe; use with the context current.
class MarkerBlitter {
 public:
  // Creates the texture and framebuffer object; `gl_major` is the context's (GL or GLES) major
  // version. False (and nothing left created or changed) when the context cannot blit the
  // marker: GL < 3, a missing entry point, a multisampled default framebuffer, an incomplete
  // framebuffer object.
  bool setup(const GlBlitFns& fns, int gl_major) noexcept;
  bool ready() const noexcept { return fbo_ != 0; }

  // Blits the marker with its bottom-left corner at (x, y) in GL window coordinates into the
  // default framebuffer, then restores the draw and read framebuffer bindings, scissor test,
  // the active unit's 2D texture binding, the pixel-unpack buffer and unpack row length / skips.
  // False (no GL call) when not ready().
  bool draw(std::uint32_t word, int x, int y) noexcept;

 private:
  GlBlitFns f_;
  unsigned int texture_ = 0;
  unsigned int fbo_ = 0;
};

// The marker's bottom-left corner (GL window coordinates) in a layout: its first rectangle is
// the whole marker. False for an empty layout (the window is smaller than the marker).
bool marker_position(const MarkerLayout& marker, int& x, int& y);

}  // namespace pictor::tag
