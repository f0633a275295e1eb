// Multiply (MotionMark: CSS border radius, transforms, opacity): a grid of rounded tiles shown in
// spiral order from the centre; each rotates at its own rate, its colour and opacity depend on
// time and its distance from the centre. MotionMark's grid is fixed, so its complexity has a
// maximum (the whole grid) that a fast renderer reaches before it slows down; here complexity
// beyond the grid adds layers: the grid again, shifted by a fraction of a tile, drawn over the
// layers below (a departure from MotionMark, docs/mark.md).
#include <cmath>
#include <numbers>

#include "mark/stats.h"
#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Tile {
  float x = 0, y = 0;  // centre
  double rotate = 0;   // degrees
  double step = 0;     // degrees per frame: outer tiles turn faster
  double distance = 0; // from the centre, in tiles
  float radius = 0;    // corner radius, one of seven styles
};

// MotionMark sizes the tiles from the stage height (71 rows).
constexpr double kRows = 71;

class Multiply final : public SceneStage<Tile> {
 public:
  explicit Multiply(SpriteRenderer& r) : SceneStage(r) {
    tile_ = std::max(4.0, js_round(height_ / kRows));
    const int cols = static_cast<int>(width_ / tile_), rows = static_cast<int>(height_ / tile_);
    const double cx = width_ / 2, cy = height_ / 2;
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < cols; ++i) {
        Tile t;
        t.x = static_cast<float>((i + 0.5) * tile_ + (width_ - cols * tile_) / 2);
        t.y = static_cast<float>((j + 0.5) * tile_ + (height_ - rows * tile_) / 2);
        t.distance = std::hypot(t.x - cx, t.y - cy) / tile_;
        t.rotate = prng_.integer(0, 359);
        t.step = std::max(3.0, t.distance / 1.5);
        t.radius = static_cast<float>(tile_ * (0.08 + 0.06 * prng_.integer(0, 6)));
        grid_.push_back(t);
      }
    // Spiral order: by ring (Chebyshev distance), then by angle around the centre.
    std::stable_sort(grid_.begin(), grid_.end(), [&](const Tile& a, const Tile& b) {
      const double ra = std::max(std::fabs(a.x - cx), std::fabs(a.y - cy));
      const double rb = std::max(std::fabs(b.x - cx), std::fabs(b.y - cy));
      if (std::fabs(ra - rb) > tile_ / 2) return ra < rb;
      return std::atan2(a.y - cy, a.x - cx) < std::atan2(b.y - cy, b.x - cx);
    });
  }

 private:
  // Element k is tile k mod N of layer k / N; layer 0 is MotionMark's grid, each further layer
  // the same tiles shifted by a different fraction of a tile (the golden ratio's, so no two
  // layers coincide), each tile with a fresh angle.
  Tile make_element() override {
    const std::size_t k = elements_.size(), layer = k / grid_.size();
    Tile t = grid_[k % grid_.size()];
    if (layer > 0) {
      const double shift = std::fmod(static_cast<double>(layer) * 0.6180339887, 1.0) * tile_;
      t.x = static_cast<float>(t.x + shift);
      t.y = static_cast<float>(t.y + shift);
      t.rotate = prng_.integer(0, 359);
    }
    return t;
  }

  void draw(double) override {
    const double progress = std::fmod(time_ms_, 10000) / 10000;
    const double bounce = std::sin(2 * std::fabs(0.5 - progress));
    const double lightness = lerp(bounce, 20, 50);
    const double hue = lerp(progress, 0, 360);
    const double n = static_cast<double>(elements_.size());
    const double distance_factor = 1.5 / std::sqrt(std::max(1.0, n));
    sprites_.clear();
    const float half = static_cast<float>(tile_ / 2);
    for (auto& t : elements_) {
      t.rotate += t.step;
      const double influence = std::max(.01, 1 - t.distance * distance_factor);
      Sprite s;
      s.cx = t.x;
      s.cy = t.y;
      s.hx = s.hy = half;
      s.rotation = static_cast<float>(std::fmod(t.rotate, 360.0) * std::numbers::pi / 180);
      s.p0 = t.radius;
      hsl_to_rgb(hue, 1.0, std::min(1.0, lightness * std::tan(influence / 1.25) / 100), s.r, s.g, s.b);
      s.a = static_cast<float>(influence);
      sprites_.push_back(s);
    }
    renderer_.clear(0.95f, 0.95f, 0.95f);
    renderer_.draw(Shape::RoundedRect, sprites_);
  }

  double tile_ = 10;
  std::vector<Tile> grid_;
};

}  // namespace

std::unique_ptr<Stage> make_multiply(SpriteRenderer& renderer) { return std::make_unique<Multiply>(renderer); }

}  // namespace pictor::mark::stages
