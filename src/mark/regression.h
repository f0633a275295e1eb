// MotionMark 1.3.1's two-segment piecewise regression of frame length on complexity (MARK.md §3):
// segment 1 fixed at y = L*, segment 2 a free least-squares line; the crossing is the change point.
#pragma once
#include <optional>
#include <span>
#include <vector>

namespace pictor::mark {

// One (complexity, frame length in ms) point.
struct RegressionPoint {
  double complexity = 0;
  double frame_length = 0;
};

struct Regression {
  double change_point = 0;  // the score's estimator: x' or the split point (MARK.md §3.6)
  double s1 = 0, t1 = 0;    // segment 1: y = s1 + t1·x
  double s2 = 0, t2 = 0;    // segment 2: y = s2 + t2·x
  // Absent for a single point, where the original leaves them undefined.
  std::optional<double> stdev1, stdev2, error;
  std::optional<long> n1, n2;

  // Frame length the fit predicts at `complexity` (segment 2 when n1 == 1 or past the change point).
  double value_at(double complexity) const;
};

// Fits the "slope" profile with segment 1 fixed at desired_frame_length. The points are stably
// sorted by complexity first (ties keep their order, which changes the running sums). Replicates the
// original arithmetic order, including its known formula errors, so results match to the last bit
// under the same libm. Throws pictor::UsageError when there are no points.
Regression fit_regression(std::span<const RegressionPoint> points, double desired_frame_length);

}  // namespace pictor::mark
