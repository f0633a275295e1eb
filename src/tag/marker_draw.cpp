#include "tag/marker_draw.h"

namespace pictor::tag {

bool usable(const GlClearFns& f) {
  return f.scissor && f.clear_color && f.clear && f.enable && f.disable && f.get_integerv &&
         f.get_floatv && f.is_enabled && f.color_mask;
}

bool draw_marker(const GlClearFns& f, const MarkerLayout& marker) noexcept {
  if (marker.count <= 0 || !usable(f)) return false;

  // Saved state. Pure black and pure white are fixed points of sRGB encoding and of dithering,
  // so GL_FRAMEBUFFER_SRGB needs no handling; dither is still switched off so no implementation
  // can perturb the cells.
  int box[4] = {0, 0, 0, 0};
  float clear_value[4] = {0.f, 0.f, 0.f, 0.f};
  int mask[4] = {1, 1, 1, 1};
  int framebuffer = 0;
  f.get_integerv(gl::kScissorBox, box);
  f.get_floatv(gl::kColorClearValue, clear_value);
  f.get_integerv(gl::kColorWritemask, mask);
  const bool scissor_on = f.is_enabled(gl::kScissorTest) != 0;
  const bool dither_on = f.is_enabled(gl::kDither) != 0;
  if (f.bind_framebuffer) f.get_integerv(gl::kDrawFramebufferBinding, &framebuffer);

  if (framebuffer != 0) f.bind_framebuffer(gl::kDrawFramebuffer, 0);
  if (!scissor_on) f.enable(gl::kScissorTest);
  if (dither_on) f.disable(gl::kDither);
  f.color_mask(1, 1, 1, 1);

  bool have_colour = false;
  bool colour_white = false;
  for (int i = 0; i < marker.count; ++i) {
    const MarkerRect& r = marker.rects[i];
    if (!have_colour || colour_white != r.white) {
      const float v = r.white ? 1.f : 0.f;
      f.clear_color(v, v, v, 1.f);
      have_colour = true;
      colour_white = r.white;
    }
    f.scissor(r.x, r.y, r.w, r.h);
    f.clear(gl::kColorBufferBit);
  }

  f.color_mask(static_cast<unsigned char>(mask[0] != 0), static_cast<unsigned char>(mask[1] != 0),
               static_cast<unsigned char>(mask[2] != 0), static_cast<unsigned char>(mask[3] != 0));
  f.clear_color(clear_value[0], clear_value[1], clear_value[2], clear_value[3]);
  f.scissor(box[0], box[1], box[2], box[3]);
  if (dither_on) f.enable(gl::kDither);
  if (!scissor_on) f.disable(gl::kScissorTest);
  if (framebuffer != 0) f.bind_framebuffer(gl::kDrawFramebuffer, static_cast<unsigned int>(framebuffer));
  return true;
}

}  // namespace pictor::tag
