// MotionMark 1.3.1's ramp controller (MARK.md §2): exponential tiers to find an upper bound, then
// ramps from high to low complexity across the change point, converging the bounds.
#pragma once
#include <optional>
#include <vector>

#include "mark/controller.h"

namespace pictor::mark {

class RampController final : public Controller {
 public:
  // Named constants of the method (milliseconds unless said otherwise).
  static constexpr double kTierFastTestLength = 250;  // a tier at the target rate moves on quickly
  static constexpr double kTierSlowTestLength = 750;  // a slow tier runs longer to settle
  static constexpr std::size_t kFramesRequiredInInterval = 9;  // non-outlier frames per tier interval
  static constexpr double kRampWarmupLength = 200;
  static constexpr double kMinimumRampLength = 3000;

  explicit RampController(const ControllerOptions& options);
  std::string name() const override { return "ramp"; }
  double initial_complexity() const override { return 1; }

  void start(double timestamp, Stage& stage) override;
  // As MotionMark, except that a test whose only ramp is still running gets up to
  // kSingleRampGrace more: ramps end on 120 ms interval boundaries but the test ends 100 ms after
  // the nominal ramp end, so a short run (one ramp, under 6 s) would otherwise lose its only ramp
  // about half of the time. Runs with several ramps (MotionMark's 30 s: ten) are unchanged.
  bool should_stop(double timestamp) const override;
  static constexpr double kSingleRampGrace = 1000;

  const std::vector<RampRecord>& ramps() const { return ramps_; }
  bool finished_tier_sampling() const { return finished_tier_sampling_; }
  // The rows of all completed ramps (first frame after each ramp's warm-up to its end), stably
  // sorted by complexity: the input of score_samples().
  std::vector<Sample> scored_samples() const override;
  // Ramps whose frames held no animation row (MotionMark would throw there); skipped, counted.
  int skipped_ramps() const { return skipped_ramps_; }

  // Thresholds derived from the target rate (at 60 fps: 16.667, 17.241, 33.33, 22.22, 50 ms).
  double frame_length_desired() const { return desired_; }
  double frame_length_desired_threshold() const { return desired_threshold_; }
  double frame_length_tier_threshold() const { return tier_threshold_; }
  double frame_length_ramp_lower_threshold() const { return ramp_lower_threshold_; }
  double frame_length_ramp_upper_threshold() const { return ramp_upper_threshold_; }
  double ramp_length() const { return ramp_length_; }

 private:
  void register_frame_time(double frame_length) override { frame_time_history_.push_back(frame_length); }
  bool interval_has_concluded(double timestamp) const override;
  void did_finish_interval(double timestamp, Stage& stage, double average) override;
  void tune(double timestamp, Stage& stage, double frame_length, bool finished_interval) override;
  void finish_tier_sampling(double timestamp, Stage& stage, double complexity, double frame_length);
  void end_ramp(double timestamp, Stage& stage);

  double desired_, desired_threshold_, tier_threshold_, ramp_lower_threshold_, ramp_upper_threshold_;
  double test_length_;
  double ramp_length_;

  double tier_ = -.5;
  double tier_start_timestamp_ = 0;
  std::optional<double> last_tier_complexity_;
  double last_tier_frame_length_ = 0;
  bool finished_tier_sampling_ = false;
  std::vector<double> frame_time_history_;

  double minimum_complexity_ = 1;
  double maximum_complexity_ = 1;
  double possible_minimum_complexity_ = 1;
  double possible_maximum_complexity_ = 1;
  RunningStats change_point_estimator_;
  RunningStats minimum_complexity_estimator_;
  RunningStats interval_frame_length_estimator_;

  bool ramp_did_warmup_ = false;
  double ramp_start_timestamp_ = 0;
  double current_ramp_length_ = 0;
  std::size_t ramp_start_index_ = 0;
  std::vector<RampRecord> ramps_;
  int skipped_ramps_ = 0;
};

}  // namespace pictor::mark
