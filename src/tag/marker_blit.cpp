#include "tag/marker_blit.h"

#include <cstring>

#include "tag/blit_state.h"

namespace pictor::tag {
using namespace blit;

bool usable(const GlBlitFns& f) {
  return f.get_integerv && f.is_enabled && f.enable && f.disable && f.gen_textures && f.delete_textures &&
         f.bind_texture && f.tex_image_2d && f.tex_sub_image_2d && f.pixel_storei && f.bind_buffer &&
         f.gen_framebuffers && f.delete_framebuffers && f.bind_framebuffer && f.framebuffer_texture_2d &&
         f.check_framebuffer_status && f.blit_framebuffer;
}

void marker_texels(std::uint32_t word, std::uint8_t out[kCells * 4]) {
  for (int gl_row = 0; gl_row < kRows; ++gl_row) {
    for (int column = 0; column < kColumns; ++column) {
      const int cell = column * kRows + (kRows - 1 - gl_row);
      const auto v = static_cast<std::uint8_t>(((word >> (31 - cell)) & 1u) ? 255 : 0);
      std::uint8_t* t = out + (gl_row * kColumns + column) * 4;
      t[0] = t[1] = t[2] = v;
      t[3] = 255;
    }
  }
}

void marker_pixels(std::uint32_t word, std::uint8_t out[kMarkerWidth * kMarkerHeight * 4]) {
  std::uint8_t texels[kCells * 4];
  marker_texels(word, texels);
  constexpr int kRowBytes = kMarkerWidth * 4;
  for (int gl_row = 0; gl_row < kRows; ++gl_row) {
    // One pixel row of this cell row, then the same row kCellPx - 1 times more.
    std::uint8_t* first = out + gl_row * kCellPx * kRowBytes;
    for (int x = 0; x < kMarkerWidth; ++x) std::memcpy(first + x * 4, texels + (gl_row * kColumns + x / kCellPx) * 4, 4);
    for (int r = 1; r < kCellPx; ++r) std::memcpy(first + r * kRowBytes, first, kRowBytes);
  }
}

bool MarkerBlitter::setup(const GlBlitFns& fns, int gl_major, bool gles, MarkerBlitMode mode) noexcept {
  if (ready()) return true;
  if (gl_major < 3 || !usable(fns)) return false;
  // Grey texels (black or white, opaque) read the same in either order; BGRA only where an
  // RGBA8 texture accepts it (desktop GL).
  const unsigned int order = gles ? kRgbaTexels : kBgraTexels;
  const bool copy = mode == MarkerBlitMode::copy;
  unsigned int texture = 0, fbo = 0;
  if (!create_target(fns, copy ? kMarkerWidth : kColumns, copy ? kMarkerHeight : kRows, texture, fbo, order))
    return false;
  f_ = fns;
  texture_ = texture;
  fbo_ = fbo;
  mode_ = mode;
  order_ = order;
  uploaded_ = false;
  return true;
}

bool MarkerBlitter::draw(std::uint32_t word, int x, int y) noexcept {
  if (!ready()) return false;
  // The blit honours the scissor test (lifted); the colour write mask and dither do not apply to
  // it, and pure black and white are fixed points of sRGB encoding.
  if (mode_ == MarkerBlitMode::scaled) {
    std::uint8_t texels[kCells * 4];
    marker_texels(word, texels);
    upload(f_, texture_, kColumns, kRows, texels, order_);
    blit_to_default(f_, fbo_, kColumns, kRows, x, y, kMarkerWidth, kMarkerHeight);
    return true;
  }
  // The texture keeps the last word drawn: a frame that repeats it uploads nothing.
  if (!uploaded_ || word != drawn_) {
    std::uint8_t pixels[kMarkerWidth * kMarkerHeight * 4];
    marker_pixels(word, pixels);
    upload(f_, texture_, kMarkerWidth, kMarkerHeight, pixels, order_);
    drawn_ = word;
    uploaded_ = true;
  }
  blit_to_default(f_, fbo_, kMarkerWidth, kMarkerHeight, x, y, kMarkerWidth, kMarkerHeight);
  return true;
}

bool marker_position(const MarkerLayout& marker, int& x, int& y) {
  if (marker.count <= 0) return false;
  x = marker.rects[0].x;
  y = marker.rects[0].y;
  return true;
}

}  // namespace pictor::tag
