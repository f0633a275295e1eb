#include "tag/overlay_blit.h"

#include "tag/blit_state.h"

namespace pictor::tag {

bool OverlayBlitter::setup(const GlBlitFns& fns, int gl_major) noexcept {
  if (ready()) return true;
  if (gl_major < 3 || !usable(fns)) return false;
  unsigned int texture = 0, fbo = 0;
  if (!blit::create_target(fns, kPanelWidth, kPanelHeight, texture, fbo)) return false;
  f_ = fns;
  texture_ = texture;
  fbo_ = fbo;
  return true;
}

bool OverlayBlitter::upload(const PanelImage& image) noexcept {
  if (!ready() || image.width <= 0 || image.height <= 0 || image.width > kPanelWidth ||
      image.height > kPanelHeight || image.width % 2 != 0)
    return false;
  blit::upload(f_, texture_, image.width, image.height, image.rgba);
  width_ = image.width;
  height_ = image.height;
  return true;
}

bool OverlayBlitter::blit(int x, int y) noexcept {
  if (!ready() || width_ == 0) return false;
  blit::blit_to_default(f_, fbo_, width_, height_, x, y, width_, height_);
  return true;
}

}  // namespace pictor::tag
