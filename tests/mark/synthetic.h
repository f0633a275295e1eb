// Test helpers: a stage with no GL and a simulated display whose frame time is a model of the
// complexity, so controllers can be run in closed loop in milliseconds of real time.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "mark/controller.h"
#include "mark/prng.h"
#include "mark/stage.h"
#include "mark/test_loop.h"

namespace pictor::mark::testing {

class SyntheticStage final : public Stage {
 public:
  explicit SyntheticStage(int64_t max = kUnbounded) : max_(max) {}
  int64_t complexity() const override { return complexity_; }
  void tune(int64_t delta) override { complexity_ = std::clamp<int64_t>(complexity_ + delta, 0, max_); }
  void animate(double delta_ms) override { deltas.push_back(delta_ms); }
  int64_t max_complexity() const override { return max_; }
  std::vector<double> deltas;

 private:
  int64_t complexity_ = 0;
  int64_t max_;
};

struct DisplayModel {
  double fps = 60;
  // Cost of rendering one frame at a complexity, in ms.
  std::function<double(double)> cost;
  double noise_ms = 0.25;  // uniform ± noise on every frame's cost
  // true: frames wait for the next tick (vsync-like, lengths are multiples of 1/fps);
  // false: a frame is shown as soon as it is done but never faster than 1/fps.
  bool quantised = false;
};

// Runs the loop until the test ends; returns the number of frames.
inline long simulate(Stage& stage, Controller& controller, const DisplayModel& display,
                     const WarmupOptions& warmup = {}) {
  TestLoop loop(stage, controller, warmup);
  Prng noise(4242);
  const double period = 1000 / display.fps;
  double t = 1000;
  long frames = 0;
  while (loop.frame(t)) {
    ++frames;
    const double cost = std::max(0.0, display.cost(double(stage.complexity())) + (noise.next() - 0.5) * 2 * display.noise_ms);
    if (display.quantised)
      t += std::max(1.0, std::ceil(cost / period - 1e-9)) * period;
    else
      t += std::max(period, cost);
    if (frames > 10'000'000) break;  // a runaway loop fails the test instead of hanging it
  }
  return frames;
}

}  // namespace pictor::mark::testing
