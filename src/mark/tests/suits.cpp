// Suits (MotionMark: SVG clip paths, gradients and transforms): rectangles with their own
// two-colour gradient, clipped to one of the four card suits, emitted from the bottom and pulled
// back down by gravity.
#include <cmath>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Particle {
  double x = 0, y = 0, vx = 0, vy = 0, size = 0, angle = 0, spin = 0, gradient = 0;
  int suit = 0;
  float c1[3] = {}, c2[3] = {};
};

constexpr double kGravity = 0.0004;  // px / ms²

class Suits final : public SceneStage<Particle> {
 public:
  explicit Suits(SpriteRenderer& r) : SceneStage(r) {}

 private:
  void emit(Particle& p) {
    p.x = width_ / 2 + prng_.range(-width_ / 8, width_ / 8);
    p.y = height_ + p.size;
    p.vx = prng_.range(-0.2, 0.2);
    p.vy = -prng_.range(0.45, 0.75) * std::sqrt(height_ / 600);
  }

  Particle make_element() override {
    Particle p;
    p.size = prng_.range(20, 40);
    emit(p);
    // Spread the first flight over the stage so a new element is visible at once.
    p.y = prng_.range(height_ * 0.2, height_);
    p.angle = prng_.angle();
    p.spin = prng_.range(-0.003, 0.003);
    p.gradient = prng_.angle();
    p.suit = prng_.integer(0, 3);
    hsl_to_rgb(prng_.range(0, 360), 0.8, 0.5, p.c1[0], p.c1[1], p.c1[2]);
    hsl_to_rgb(prng_.range(0, 360), 0.8, 0.3, p.c2[0], p.c2[1], p.c2[2]);
    return p;
  }

  void draw(double delta_ms) override {
    const double dt = std::max(delta_ms, 1.0);
    sprites_.clear();
    for (auto& p : elements_) {
      p.vy += kGravity * dt;
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      p.angle += p.spin * dt;
      p.gradient += 0.002 * dt;
      if (p.y > height_ + p.size && p.vy > 0) emit(p);
      Sprite s;
      s.cx = static_cast<float>(p.x);
      s.cy = static_cast<float>(p.y);
      s.hx = s.hy = static_cast<float>(p.size / 2);
      s.rotation = static_cast<float>(p.angle);
      s.p0 = static_cast<float>(p.suit);
      s.p1 = static_cast<float>(p.gradient);
      s.r = p.c1[0], s.g = p.c1[1], s.b = p.c1[2], s.a = 1;
      s.q0 = p.c2[0], s.q1 = p.c2[1], s.q2 = p.c2[2];
      sprites_.push_back(s);
    }
    renderer_.clear(0.97f, 0.97f, 0.97f);
    renderer_.draw(Shape::Suit, sprites_);
  }
};

}  // namespace

std::unique_ptr<Stage> make_suits(SpriteRenderer& renderer) { return std::make_unique<Suits>(renderer); }

}  // namespace pictor::mark::stages
