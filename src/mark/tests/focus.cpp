// Focus (MotionMark: CSS blur filter, opacity): semi-transparent circles whose blur radius
// breathes in and out of focus while they drift.
#include <cmath>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Blob {
  double x = 0, y = 0, radius = 0, dx = 0, dy = 0, phase = 0, alpha = 0;
  float r = 0, g = 0, b = 0;
};

class Focus final : public SceneStage<Blob> {
 public:
  explicit Focus(SpriteRenderer& r) : SceneStage(r) {}

 private:
  Blob make_element() override {
    Blob b;
    b.radius = prng_.range(15, 45);
    b.x = prng_.range(0, width_);
    b.y = prng_.range(0, height_);
    b.dx = prng_.range(-0.03, 0.03);
    b.dy = prng_.range(-0.03, 0.03);
    b.phase = prng_.angle();
    b.alpha = prng_.range(0.3, 0.7);
    hsl_to_rgb(prng_.range(0, 360), 0.6, 0.55, b.r, b.g, b.b);
    return b;
  }

  void draw(double delta_ms) override {
    const double dt = std::max(delta_ms, 1.0);
    sprites_.clear();
    for (auto& b : elements_) {
      b.x = std::fmod(b.x + b.dx * dt + width_, width_);
      b.y = std::fmod(b.y + b.dy * dt + height_, height_);
      const double blur = 2 + 10 * (0.5 + 0.5 * std::sin(b.phase + time_ms_ / 700 + frame_ * 0.02));
      Sprite s;
      s.cx = static_cast<float>(b.x);
      s.cy = static_cast<float>(b.y);
      s.hx = s.hy = static_cast<float>(b.radius + blur);
      s.p0 = static_cast<float>(blur);
      s.r = b.r, s.g = b.g, s.b = b.b, s.a = static_cast<float>(b.alpha);
      sprites_.push_back(s);
    }
    renderer_.clear(0.1f, 0.1f, 0.12f);
    renderer_.draw(Shape::SoftDisk, sprites_);
  }
};

}  // namespace

std::unique_ptr<Stage> make_focus(SpriteRenderer& renderer) { return std::make_unique<Focus>(renderer); }

}  // namespace pictor::mark::stages
