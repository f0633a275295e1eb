// Leaves (MotionMark: CSS-transformed images): textured leaf sprites that fall, sway and turn,
// fading in at the top and out at the bottom. The leaf images are generated at start-up.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

constexpr int kLeafSize = 64;   // px per leaf image
constexpr int kLeafKinds = 4;   // images side by side in one texture

// A leaf: an almond shape with a darker midrib, in one of four autumn colours.
std::vector<uint8_t> leaf_atlas() {
  const int w = kLeafSize * kLeafKinds, h = kLeafSize;
  std::vector<uint8_t> px(static_cast<std::size_t>(w * h * 4), 0);
  const uint8_t colours[kLeafKinds][3] = {{196, 72, 28}, {222, 160, 40}, {120, 150, 40}, {170, 40, 40}};
  for (int k = 0; k < kLeafKinds; ++k)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < kLeafSize; ++x) {
        const double u = (x + 0.5) / kLeafSize * 2 - 1, v = (y + 0.5) / h * 2 - 1;
        const double width = 0.55 * (1 - v * v) * (1 + 0.15 * k / 3.0);  // almond outline
        const double edge = width - std::fabs(u);
        if (edge <= 0 || std::fabs(v) > 0.98) continue;
        const double alpha = std::min(1.0, edge * kLeafSize / 2);
        const double shade = std::fabs(u) < 0.04 ? 0.6 : 1.0 - 0.25 * std::fabs(u) / 0.55;
        uint8_t* p = &px[static_cast<std::size_t>((y * w + k * kLeafSize + x) * 4)];
        for (int c = 0; c < 3; ++c) p[c] = static_cast<uint8_t>(colours[k][c] * shade);
        p[3] = static_cast<uint8_t>(alpha * 255);
      }
  return px;
}

struct Leaf {
  double x = 0, y = 0, size = 0, angle = 0, spin = 0, fall = 0, sway = 0, phase = 0;
  int kind = 0;
};

class Leaves final : public SceneStage<Leaf> {
 public:
  explicit Leaves(SpriteRenderer& r) : SceneStage(r) {
    texture_ = make_texture(kLeafSize * kLeafKinds, kLeafSize, leaf_atlas());
  }
  ~Leaves() override { delete_texture(texture_); }

 private:
  Leaf make_element() override {
    Leaf l;
    l.size = prng_.range(20, 40);
    l.x = prng_.range(0, width_);
    l.y = prng_.range(-l.size, height_);
    l.angle = prng_.angle();
    l.spin = prng_.range(-0.003, 0.003);
    l.fall = prng_.range(0.03, 0.12);
    l.sway = prng_.range(5, 25);
    l.phase = prng_.angle();
    l.kind = prng_.integer(0, kLeafKinds - 1);
    return l;
  }

  void draw(double delta_ms) override {
    const double dt = std::max(delta_ms, 1.0);  // keep moving during the warm-up
    sprites_.clear();
    for (auto& l : elements_) {
      l.y += l.fall * dt;
      l.angle += l.spin * dt;
      if (l.y > height_ + l.size) l.y = -l.size;
      const double x = l.x + l.sway * std::sin(l.phase + time_ms_ / 900 + frame_ * 0.01);
      // Fade in over the top fifth of the stage, out over the bottom fifth.
      const double fade = std::clamp(std::min(l.y + l.size, height_ - l.y) / (height_ / 5), 0.0, 1.0);
      Sprite s;
      s.cx = static_cast<float>(x);
      s.cy = static_cast<float>(l.y);
      s.hx = s.hy = static_cast<float>(l.size / 2);
      s.rotation = static_cast<float>(l.angle);
      s.a = static_cast<float>(fade);
      s.q0 = static_cast<float>(l.kind) / kLeafKinds;
      s.q1 = 0;
      s.q2 = static_cast<float>(l.kind + 1) / kLeafKinds;
      s.q3 = 1;
      sprites_.push_back(s);
    }
    renderer_.clear(0.9f, 0.92f, 0.95f);
    renderer_.draw(Shape::Textured, sprites_, texture_);
  }

  unsigned texture_ = 0;
};

}  // namespace

std::unique_ptr<Stage> make_leaves(SpriteRenderer& renderer) { return std::make_unique<Leaves>(renderer); }

}  // namespace pictor::mark::stages
