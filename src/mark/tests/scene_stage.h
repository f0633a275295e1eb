// Common base of the mark scenes: a Stage holding N elements of one kind, drawn through the
// shared SpriteRenderer, generated from the seeded PRNG so every run shows the same scene.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mark/prng.h"
#include "mark/stage.h"
#include "mark/tests/sprites.h"

namespace pictor::mark::stages {

template <typename Element>
class SceneStage : public Stage {
 public:
  int64_t complexity() const override { return static_cast<int64_t>(elements_.size()); }
  // No scene animates millions of elements at an interactive rate; the cap only keeps a degenerate
  // tuning request (the controller's arithmetic can produce ±∞ on pathological data) from
  // exhausting memory.
  static constexpr int64_t kElementLimit = 4'000'000;

  void tune(int64_t delta) override {
    const int64_t target = std::clamp<int64_t>(complexity() + delta, 0, std::min(max_complexity(), kElementLimit));
    while (complexity() < target) elements_.push_back(make_element());
    if (complexity() > target) elements_.resize(static_cast<std::size_t>(target));
  }
  void animate(double delta_ms) override {
    time_ms_ += delta_ms;
    ++frame_;
    draw(delta_ms);
  }

 protected:
  explicit SceneStage(SpriteRenderer& renderer)
      : renderer_(renderer), width_(renderer.size().width), height_(renderer.size().height) {}
  // A new element, every one slightly different (size, colour, angle, speed).
  virtual Element make_element() = 0;
  // Advances the elements by delta_ms and draws the frame (the scene changes every frame, even
  // during warm-up when delta_ms is 0, so no layer of the stack can skip a static frame).
  virtual void draw(double delta_ms) = 0;

  SpriteRenderer& renderer_;
  double width_, height_;
  Prng prng_;
  std::vector<Element> elements_;
  std::vector<Sprite> sprites_;
  double time_ms_ = 0;
  double frame_ = 0;  // frames drawn, as a double for the animation formulas
};

}  // namespace pictor::mark::stages
