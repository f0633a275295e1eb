#include "tag/marker_blit.h"

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

bool MarkerBlitter::setup(const GlBlitFns& fns, int gl_major) noexcept {
  if (ready()) return true;
  if (gl_major < 3 || !usable(fns)) return false;
  unsigned int texture = 0, fbo = 0;
  if (!create_target(fns, kColumns, kRows, texture, fbo)) return false;
  f_ = fns;
  texture_ = texture;
  fbo_ = fbo;
  return true;
}

bool MarkerBlitter::draw(std::uint32_t word, int x, int y) noexcept {
  if (!ready()) return false;
  std::uint8_t texels[kCells * 4];
  marker_texels(word, texels);
  // Rows are 8 texels x 4 bytes = 32 bytes. The blit honours the scissor test (lifted); the
  // colour write mask and dither do not apply to it, and pure black and white are fixed points
  // of sRGB encoding.
  upload(f_, texture_, kColumns, kRows, texels);
  blit_to_default(f_, fbo_, kColumns, kRows, x, y, kMarkerWidth, kMarkerHeight);
  return true;
}

bool marker_position(const MarkerLayout& marker, int& x, int& y) {
  if (marker.count <= 0) return false;
  x = marker.rects[0].x;
  y = marker.rects[0].y;
  return true;
}

}  // namespace pictor::tag
