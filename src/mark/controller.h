// Controllers of MotionMark 1.3.1 (MARK.md §1–2): they receive frame timestamps, record samples
// and tune the stage's complexity. Pure logic — no clock, no GL — so they run against models too.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mark/regression.h"
#include "mark/score.h"
#include "mark/stage.h"
#include "mark/stats.h"

namespace pictor::mark {

struct ControllerOptions {
  double fps = 60;                 // target frame rate
  double test_interval_ms = 30000; // MotionMark's test length
  double kalman_process_error = 1;
  double kalman_measurement_error = 4;
};

// One recorded frame: type, absolute timestamp (ms), complexity during the frame, smoothed frame
// length (−1 where none was computed).
struct ControllerSample {
  FrameType type = FrameType::Animation;
  double time = 0;
  double complexity = 0;
  double smoothed_frame_length = -1;
};

// One completed ramp: its sample range (inclusive, indices into samples()) and regression.
struct RampRecord {
  std::size_t start_index = 0;
  std::size_t end_index = 0;
  Regression regression;
};

class Controller {
 public:
  explicit Controller(const ControllerOptions& options);
  virtual ~Controller() = default;

  virtual std::string name() const = 0;
  virtual double initial_complexity() const = 0;

  // Called at the first frame after warm-up.
  virtual void start(double timestamp, Stage& stage);
  // Called at every later frame, before the stage animates.
  void update(double timestamp, Stage& stage);
  // MotionMark also compares before start() (against the bare interval, as its clock starts near
  // 0); here a test never ends during warm-up, so intervals shorter than the warm-up still work.
  virtual bool should_stop(double timestamp) const { return started_ && timestamp > end_timestamp_; }

  double target_fps() const { return options_.fps; }
  const std::vector<ControllerSample>& samples() const { return samples_; }
  double start_timestamp() const { return start_timestamp_; }
  // Where sampling began (the end of the tier phase for the ramp controller), absolute ms.
  double sampling_start() const { return sampling_start_; }
  std::size_t sampling_start_index() const { return sampling_start_index_; }

  // Samples as MotionMark reports them: time relative to sampling_start(), frame length
  // t_i − t_{i−1} (1000/fps for the first). These are the rows that score() uses.
  std::vector<Sample> processed_samples() const;
  // The rows the score is computed from (all of them for fixed; the ramps' rows for ramp),
  // stably sorted by complexity.
  virtual std::vector<Sample> scored_samples() const;

 protected:
  void record(FrameType type, double timestamp, double complexity, double estimate);
  void mark_sampling_start(double timestamp);
  double measure_and_reset_interval(double timestamp);

  virtual void register_frame_time(double /*frame_length*/) {}
  virtual bool interval_has_concluded(double timestamp) const { return timestamp >= interval_end_; }
  virtual void did_finish_interval(double /*timestamp*/, Stage& /*stage*/, double /*average*/) {}
  virtual void tune(double /*timestamp*/, Stage& /*stage*/, double /*frame_length*/,
                    bool /*finished_interval*/) {}

  ControllerOptions options_;
  std::vector<ControllerSample> samples_;
  KalmanEstimator frame_length_estimator_;
  bool estimator_enabled_ = true;
  double interval_sampling_length_ = 100;  // ms; 0 means every frame is its own interval
  bool started_ = false;
  double start_timestamp_ = 0;
  double end_timestamp_;
  double previous_timestamp_ = 0;
  double sampling_start_ = 0;
  std::size_t sampling_start_index_ = 0;
  std::size_t interval_start_index_ = 0;
  std::optional<double> interval_end_;
};

// Holds the complexity fixed; score = mean complexity (a debugging aid, as in MotionMark).
class FixedController final : public Controller {
 public:
  FixedController(const ControllerOptions& options, double complexity);
  std::string name() const override { return "fixed"; }
  double initial_complexity() const override { return complexity_; }

 private:
  double complexity_;
};

// Tuning deltas are whole numbers; ±∞ (which the original also produces on degenerate data) is
// clamped so the stage clamps it to its range, and NaN becomes 0 (no change).
int64_t to_tune_delta(double delta);

// True when the stage sat at its maximum complexity at some sample: its score is then a lower
// bound set by the stage, not the machine's capacity (MARK.md §7).
bool reached_stage_maximum(const Controller& controller, const Stage& stage);

std::unique_ptr<Controller> make_controller(const std::string& name, const ControllerOptions& options,
                                            double fixed_complexity);

}  // namespace pictor::mark
