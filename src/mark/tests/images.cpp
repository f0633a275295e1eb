// Images (MotionMark: canvas getImageData/putImageData): every element reads a tile of the
// rendered stage back (glReadPixels), modifies its pixels on the CPU and uploads them
// (glTexSubImage2D) — one synchronous readback per element, like the original's per-element calls.
#include <GL/gl.h>
#include <GL/glext.h>

#include <cmath>
#include <cstdint>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

constexpr int kTile = 32;          // px per element
constexpr int kAtlasTiles = 64;    // atlas is 64 × 64 tiles (2048 px): the stage's maximum

struct ImageTile {
  int x = 0, y = 0;        // where it reads from (top-left, stage pixels)
  double dx = 0, dy = 0;   // drift per ms
  double px = 0, py = 0;   // where it is drawn
  int effect = 0;          // 0 invert, 1 greyscale, 2 channel swap
};

// A colourful generated picture (stripes and rings) so the read-back tiles differ.
std::vector<uint8_t> background(int w, int h) {
  std::vector<uint8_t> px(static_cast<std::size_t>(w * h * 4));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double d = std::hypot(x - w / 2.0, y - h / 2.0);
      uint8_t* p = &px[static_cast<std::size_t>((y * w + x) * 4)];
      p[0] = static_cast<uint8_t>(128 + 127 * std::sin(d / 9));
      p[1] = static_cast<uint8_t>(128 + 127 * std::sin(x / 23.0));
      p[2] = static_cast<uint8_t>(128 + 127 * std::cos(y / 17.0));
      p[3] = 255;
    }
  return px;
}

class Images final : public SceneStage<ImageTile> {
 public:
  explicit Images(SpriteRenderer& r) : SceneStage(r) {
    const int w = static_cast<int>(width_), h = static_cast<int>(height_);
    background_ = make_texture(w, h, background(w, h));
    atlas_ = make_texture(kTile * kAtlasTiles, kTile * kAtlasTiles,
                          std::vector<uint8_t>(static_cast<std::size_t>(kTile * kAtlasTiles) * kTile * kAtlasTiles * 4, 0));
    pixels_.resize(kTile * kTile * 4);
  }
  ~Images() override {
    delete_texture(background_);
    delete_texture(atlas_);
  }
  int64_t max_complexity() const override { return kAtlasTiles * kAtlasTiles; }

 private:
  ImageTile make_element() override {
    ImageTile t;
    t.x = prng_.integer(0, static_cast<int>(width_) - kTile);
    t.y = prng_.integer(0, static_cast<int>(height_) - kTile);
    t.px = prng_.range(0, width_ - kTile);
    t.py = prng_.range(0, height_ - kTile);
    t.dx = prng_.range(-0.05, 0.05);
    t.dy = prng_.range(-0.05, 0.05);
    t.effect = prng_.integer(0, 2);
    return t;
  }

  void modify(int effect, long frame) {
    const auto shift = static_cast<uint8_t>(frame & 0x3f);
    for (std::size_t i = 0; i < pixels_.size(); i += 4) {
      uint8_t* p = &pixels_[i];
      if (effect == 0) {
        p[0] = static_cast<uint8_t>(255 - p[0] + shift), p[1] = static_cast<uint8_t>(255 - p[1]), p[2] = static_cast<uint8_t>(255 - p[2]);
      } else if (effect == 1) {
        const auto grey = static_cast<uint8_t>((p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8);
        p[0] = p[1] = p[2] = static_cast<uint8_t>(grey + shift);
      } else {
        const uint8_t r = p[0];
        p[0] = p[2], p[2] = p[1], p[1] = static_cast<uint8_t>(r ^ shift);
      }
      p[3] = 255;
    }
  }

  void draw(double delta_ms) override {
    const double dt = std::max(delta_ms, 1.0);
    // The background picture, slowly sliding so that the read-back pixels change.
    Sprite bg;
    bg.cx = static_cast<float>(width_ / 2 + 20 * std::sin(time_ms_ / 1500 + frame_ * 0.01));
    bg.cy = static_cast<float>(height_ / 2);
    bg.hx = static_cast<float>(width_ / 2 + 24), bg.hy = static_cast<float>(height_ / 2);
    bg.q0 = 0, bg.q1 = 0, bg.q2 = 1, bg.q3 = 1;
    renderer_.clear(0, 0, 0);
    renderer_.draw(Shape::Textured, {bg}, background_);

    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glBindTexture(GL_TEXTURE_2D, atlas_);
    sprites_.clear();
    const int h = static_cast<int>(height_);
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      auto& t = elements_[i];
      glReadPixels(t.x, h - t.y - kTile, kTile, kTile, GL_RGBA, GL_UNSIGNED_BYTE, pixels_.data());
      modify(t.effect, static_cast<long>(frame_));
      const int slot_x = static_cast<int>(i % kAtlasTiles) * kTile, slot_y = static_cast<int>(i / kAtlasTiles) * kTile;
      glTexSubImage2D(GL_TEXTURE_2D, 0, slot_x, slot_y, kTile, kTile, GL_RGBA, GL_UNSIGNED_BYTE, pixels_.data());
      t.px += t.dx * dt, t.py += t.dy * dt;
      if (t.px < 0 || t.px > width_ - kTile) t.dx = -t.dx;
      if (t.py < 0 || t.py > height_ - kTile) t.dy = -t.dy;
      Sprite s;
      s.cx = static_cast<float>(t.px + kTile / 2.0);
      s.cy = static_cast<float>(t.py + kTile / 2.0);
      s.hx = s.hy = kTile / 2.0f;
      const float atlas = kTile * kAtlasTiles;
      // Rows read by glReadPixels are bottom-up: flip v.
      s.q0 = static_cast<float>(slot_x) / atlas, s.q2 = static_cast<float>(slot_x + kTile) / atlas;
      s.q1 = static_cast<float>(slot_y + kTile) / atlas, s.q3 = static_cast<float>(slot_y) / atlas;
      sprites_.push_back(s);
    }
    renderer_.draw(Shape::Textured, sprites_, atlas_);
  }

  unsigned background_ = 0, atlas_ = 0;
  std::vector<uint8_t> pixels_;
};

}  // namespace

std::unique_ptr<Stage> make_images(SpriteRenderer& renderer) { return std::make_unique<Images>(renderer); }

}  // namespace pictor::mark::stages
