// Lines (MotionMark: canvas line segments): short thick segments radiating from a few circles,
// over a gradient; each segment turns and changes length every frame.
#include <cmath>
#include <numbers>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Line {
  int circle = 0;
  double angle = 0, speed = 0, inner = 0, length = 0, width = 0, hue = 0;
};

constexpr int kCircles = 6;

class Lines final : public SceneStage<Line> {
 public:
  explicit Lines(SpriteRenderer& r) : SceneStage(r) {
    for (int i = 0; i < kCircles; ++i)
      centres_[i] = {width_ * (i + 0.5) / kCircles, height_ * (i % 2 ? 0.35 : 0.65)};
  }

 private:
  struct Centre {
    double x = 0, y = 0;
  };

  Line make_element() override {
    Line l;
    l.circle = prng_.integer(0, kCircles - 1);
    l.angle = prng_.angle();
    l.speed = prng_.range(-0.002, 0.002);
    l.inner = prng_.range(10, 40);
    l.length = prng_.range(10, 40);
    l.width = prng_.range(2, 6);
    l.hue = prng_.range(180, 300);
    return l;
  }

  void draw(double delta_ms) override {
    const double dt = std::max(delta_ms, 1.0);
    sprites_.clear();
    for (auto& l : elements_) {
      l.angle += l.speed * dt;
      const Centre& c = centres_[l.circle];
      const double length = l.length * (0.75 + 0.25 * std::sin(l.angle * 3 + time_ms_ / 500));
      const double mid = l.inner + length / 2;
      Sprite s;
      s.cx = static_cast<float>(c.x + std::cos(l.angle) * mid);
      s.cy = static_cast<float>(c.y + std::sin(l.angle) * mid);
      s.hy = static_cast<float>(l.width / 2);
      s.hx = static_cast<float>(length / 2 + l.width / 2);
      s.rotation = static_cast<float>(l.angle);
      hsl_to_rgb(l.hue, 0.8, 0.5, s.r, s.g, s.b);
      s.a = 0.9f;
      sprites_.push_back(s);
    }
    const float top[3] = {0.08f, 0.1f, 0.2f}, bottom[3] = {0.35f, 0.15f, 0.3f};
    renderer_.gradient_background(top, bottom);
    renderer_.draw(Shape::Capsule, sprites_);
  }

  Centre centres_[kCircles];
};

}  // namespace

std::unique_ptr<Stage> make_lines(SpriteRenderer& renderer) { return std::make_unique<Lines>(renderer); }

}  // namespace pictor::mark::stages
