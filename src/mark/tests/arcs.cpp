// Arcs & Fills (MotionMark: canvas path fills and arcs): arcs stroked with varying widths and
// filled wedges, placed on a staggered grid, each turning at its own speed.
#include <cmath>
#include <numbers>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Arc {
  float x = 0, y = 0, radius = 0;
  double start = 0, sweep = 0, speed = 0;  // radians, radians, radians per ms
  float stroke = 0;                        // 0 = filled wedge
  float r = 0, g = 0, b = 0, a = 1;
};

constexpr double kCell = 40;  // grid pitch in px; odd rows are shifted by half a cell

class Arcs final : public SceneStage<Arc> {
 public:
  explicit Arcs(SpriteRenderer& r) : SceneStage(r) {
    cols_ = std::max(1, static_cast<int>(width_ / kCell));
    rows_ = std::max(1, static_cast<int>(height_ / kCell));
  }

 private:
  Arc make_element() override {
    Arc a;
    const int cell = static_cast<int>(elements_.size()) % (cols_ * rows_);
    const int row = cell / cols_, col = cell % cols_;
    a.x = static_cast<float>((col + 0.5 + (row % 2 ? 0.5 : 0)) * kCell + prng_.range(-6, 6));
    a.y = static_cast<float>((row + 0.5) * kCell + prng_.range(-6, 6));
    a.radius = static_cast<float>(prng_.range(8, 26));
    a.start = prng_.angle();
    a.sweep = prng_.range(0.5, 2 * std::numbers::pi);
    a.speed = prng_.range(-0.004, 0.004);
    a.stroke = prng_.next() < 0.5 ? 0.0f : static_cast<float>(prng_.range(1.5, 7));
    a.r = static_cast<float>(prng_.integer(32, 224) / 255.0);
    a.g = static_cast<float>(prng_.integer(32, 224) / 255.0);
    a.b = static_cast<float>(prng_.integer(32, 224) / 255.0);
    a.a = static_cast<float>(prng_.range(0.6, 1));
    return a;
  }

  void draw(double delta_ms) override {
    sprites_.clear();
    for (auto& e : elements_) {
      // Turn even at delta 0 (warm-up) so that every frame differs.
      e.start = std::fmod(e.start + e.speed * std::max(delta_ms, 1.0), 2 * std::numbers::pi);
      Sprite s;
      s.cx = e.x;
      s.cy = e.y;
      s.hx = s.hy = e.radius + 1;
      s.p0 = static_cast<float>(e.start < 0 ? e.start + 2 * std::numbers::pi : e.start);
      s.p1 = static_cast<float>(e.sweep);
      s.p2 = e.stroke;
      s.r = e.r, s.g = e.g, s.b = e.b, s.a = e.a;
      sprites_.push_back(s);
    }
    renderer_.clear(1, 1, 1);
    renderer_.draw(Shape::Arc, sprites_);
  }

  int cols_ = 1, rows_ = 1;
};

}  // namespace

std::unique_ptr<Stage> make_arcs(SpriteRenderer& renderer) { return std::make_unique<Arcs>(renderer); }

}  // namespace pictor::mark::stages
