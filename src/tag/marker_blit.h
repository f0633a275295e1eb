// Draws the tag marker with one blit instead of a clear per rectangle, from a texture of the
// interposer's own attached to a framebuffer object of its own. On llvmpipe every scissored
// clear is a quad draw with Mesa's whole state save/restore around it (~51 000 instructions each,
// ~10 per marker); the blit is one. Two forms:
//   copy (the default): the marker's 64 x 32 pixels are uploaded whole and blitted at the same
//     size; on desktop GL the texels are given as BGRA, so Mesa stores the texture as B8G8R8A8,
//     an X window's back-buffer layout, and a same-size, same-layout blit with no scissor is a
//     copy of rows (llvmpipe: util_try_blit_via_copy_region) instead of a textured quad;
//   scaled: 8 x 4 texels, one per cell, scaled by 8 (GL_NEAREST) by the blit: a quad through
//     Mesa's blitter on llvmpipe (PICTOR_MARKER_BLIT=scaled, for comparisons).
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

// The marker's pixels at full size, bottom row first: each texel of marker_texels() repeated
// over its kCellPx x kCellPx block.
void marker_pixels(std::uint32_t word, std::uint8_t out[kMarkerWidth * kMarkerHeight * 4]);

enum class MarkerBlitMode { copy, scaled };

// One context's blit resources. Not thread-safe; use with the context current.
class MarkerBlitter {
 public:
  // Creates the texture and framebuffer object; `gl_major` is the context's (GL or GLES) major
  // version, `gles` whether it is GLES (whose RGBA8 textures take RGBA texels only). False (and
  // nothing left created or changed) when the context cannot blit the marker: GL < 3, a missing
  // entry point, a multisampled default framebuffer, an incomplete framebuffer object.
  bool setup(const GlBlitFns& fns, int gl_major, bool gles = false,
             MarkerBlitMode mode = MarkerBlitMode::copy) noexcept;
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
  MarkerBlitMode mode_ = MarkerBlitMode::copy;
  unsigned int order_ = 0;      // the texel order uploads use (blit_state.h)
  std::uint32_t drawn_ = 0;     // the word the texture holds (copy mode), valid when uploaded_
  bool uploaded_ = false;
};

// The marker's bottom-left corner (GL window coordinates) in a layout: its first rectangle is
// the whole marker. False for an empty layout (the window is smaller than the marker).
bool marker_position(const MarkerLayout& marker, int& x, int& y);

}  // namespace pictor::tag
