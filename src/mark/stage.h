// The Stage interface every mark test implements (MotionMark's Stage): a scene of N similar
// elements. Controllers see only complexity() and tune(); the harness calls animate() once a frame.
#pragma once
#include <cstdint>
#include <limits>

namespace pictor::mark {

class Stage {
 public:
  static constexpr int64_t kUnbounded = std::numeric_limits<int32_t>::max();

  virtual ~Stage() = default;
  // Number of elements on stage.
  virtual int64_t complexity() const = 0;
  // Adds (delta > 0) or removes elements; the result is clamped to [0, max_complexity()].
  virtual void tune(int64_t delta) = 0;
  // Advances the scene by delta_ms (0 during warm-up) and draws one frame.
  virtual void animate(double delta_ms) = 0;
  // The most elements this stage can show (some scenes have a fixed number of slots).
  virtual int64_t max_complexity() const { return kUnbounded; }
};

}  // namespace pictor::mark
