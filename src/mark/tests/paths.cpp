// Paths (MotionMark: canvas line, quadratic and Bézier paths): one random-walk path whose
// segments are lines, quadratic or cubic curves, stroked with changing widths and colours. Curves
// are flattened into short pieces, each drawn as a round-capped stroke.
#include <array>
#include <cmath>

#include "mark/tests/catalog.h"
#include "mark/tests/scene_stage.h"

namespace pictor::mark::stages {
namespace {

struct Point {
  double x = 0, y = 0;
};

struct Segment {
  int kind = 0;                    // 0 line, 1 quadratic, 2 cubic
  std::array<Point, 3> controls;   // control points and end point (kind + 1 of them used)
  double width = 0, hue = 0, wobble = 0;
};

constexpr double kStep = 60;  // how far one segment may walk, px

class Paths final : public SceneStage<Segment> {
 public:
  explicit Paths(SpriteRenderer& r) : SceneStage(r) { end_ = {width_ / 2, height_ / 2}; }

 private:
  Point walk(Point from) {
    Point p{from.x + prng_.range(-kStep, kStep), from.y + prng_.range(-kStep, kStep)};
    p.x = std::clamp(p.x, 0.0, width_);
    p.y = std::clamp(p.y, 0.0, height_);
    return p;
  }

  Segment make_element() override {
    Segment s;
    s.kind = prng_.integer(0, 2);
    Point p = elements_.empty() ? end_ : elements_.back().controls[static_cast<std::size_t>(elements_.back().kind)];
    for (int i = 0; i <= s.kind; ++i) s.controls[static_cast<std::size_t>(i)] = p = walk(p);
    s.width = prng_.range(1, 6);
    s.hue = prng_.range(0, 360);
    s.wobble = prng_.angle();
    return s;
  }

  void piece(Point a, Point b, double width, float r, float g, float bl) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double length = std::hypot(dx, dy);
    Sprite s;
    s.cx = static_cast<float>((a.x + b.x) / 2);
    s.cy = static_cast<float>((a.y + b.y) / 2);
    s.hy = static_cast<float>(width / 2);
    s.hx = static_cast<float>(length / 2 + width / 2);
    s.rotation = static_cast<float>(std::atan2(dy, dx));
    s.r = r, s.g = g, s.b = bl;
    sprites_.push_back(s);
  }

  void draw(double) override {
    sprites_.clear();
    Point start = {width_ / 2, height_ / 2};
    const double t = time_ms_ / 1000 + frame_ * 0.002;
    for (auto& seg : elements_) {
      // Widths and colours change every frame.
      const double width = seg.width * (1 + 0.5 * std::sin(seg.wobble + t * 3));
      float r, g, b;
      hsl_to_rgb(seg.hue + t * 40, 0.7, 0.45, r, g, b);
      const auto& c = seg.controls;
      if (seg.kind == 0) {
        piece(start, c[0], width, r, g, b);
      } else {
        const int pieces = seg.kind == 1 ? 4 : 6;
        Point previous = start;
        for (int i = 1; i <= pieces; ++i) {
          const double u = static_cast<double>(i) / pieces, v = 1 - u;
          Point p;
          if (seg.kind == 1) {
            p = {v * v * start.x + 2 * v * u * c[0].x + u * u * c[1].x,
                 v * v * start.y + 2 * v * u * c[0].y + u * u * c[1].y};
          } else {
            p = {v * v * v * start.x + 3 * v * v * u * c[0].x + 3 * v * u * u * c[1].x + u * u * u * c[2].x,
                 v * v * v * start.y + 3 * v * v * u * c[0].y + 3 * v * u * u * c[1].y + u * u * u * c[2].y};
          }
          piece(previous, p, width, r, g, b);
          previous = p;
        }
      }
      start = c[static_cast<std::size_t>(seg.kind)];
    }
    renderer_.clear(1, 1, 1);
    renderer_.draw(Shape::Capsule, sprites_);
  }

  Point end_;
};

}  // namespace

std::unique_ptr<Stage> make_paths(SpriteRenderer& renderer) { return std::make_unique<Paths>(renderer); }

}  // namespace pictor::mark::stages
