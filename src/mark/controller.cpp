#include "mark/controller.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "mark/ramp_controller.h"

namespace pictor::mark {

Controller::Controller(const ControllerOptions& options)
    : options_(options),
      frame_length_estimator_(options.kalman_process_error, options.kalman_measurement_error),
      end_timestamp_(options.test_interval_ms) {}

void Controller::start(double timestamp, Stage& stage) {
  started_ = true;
  start_timestamp_ = timestamp;
  end_timestamp_ += timestamp;
  previous_timestamp_ = timestamp;
  measure_and_reset_interval(timestamp);
  record(FrameType::Mutation, timestamp, static_cast<double>(stage.complexity()), -1);
  mark_sampling_start(timestamp);
}

void Controller::record(FrameType type, double timestamp, double complexity, double estimate) {
  samples_.push_back({type, timestamp, complexity, estimate});
}

void Controller::mark_sampling_start(double timestamp) {
  sampling_start_ = timestamp;
  sampling_start_index_ = samples_.size();
}

double Controller::measure_and_reset_interval(double timestamp) {
  double average = 0;
  const std::size_t count = samples_.size();
  if (interval_end_) {
    // The current frame is not recorded yet: it belongs to the next interval.
    std::vector<double> durations;
    for (std::size_t i = std::max<std::size_t>(interval_start_index_, 1); i < count; ++i)
      durations.push_back(samples_[i].time - samples_[i - 1].time);
    average = filtered_mean(std::move(durations));
  }
  interval_start_index_ = count;
  interval_end_ = timestamp + interval_sampling_length_;
  return average;
}

void Controller::update(double timestamp, Stage& stage) {
  const double complexity = static_cast<double>(stage.complexity());
  const double previous_complexity = samples_.empty() ? 0 : samples_.back().complexity;
  const FrameType type = previous_complexity != complexity ? FrameType::Mutation : FrameType::Animation;
  const double frame_length = timestamp - previous_timestamp_;
  previous_timestamp_ = timestamp;

  double estimate = -1;
  bool finished_interval = false;
  if (interval_sampling_length_ == 0) {
    if (estimator_enabled_) {
      frame_length_estimator_.sample(frame_length);
      estimate = frame_length_estimator_.estimate();
    }
    record(type, timestamp, complexity, estimate);
  } else {
    register_frame_time(frame_length);
    if (interval_has_concluded(timestamp)) {
      const double average = measure_and_reset_interval(timestamp);
      if (estimator_enabled_) {
        frame_length_estimator_.sample(average);
        estimate = frame_length_estimator_.estimate();
      }
      record(type, timestamp, complexity, estimate);
      finished_interval = true;
      did_finish_interval(timestamp, stage, average);
      frame_length_estimator_.reset();
    } else {
      record(type, timestamp, complexity, estimate);
    }
  }
  tune(timestamp, stage, frame_length, finished_interval);
}

std::vector<Sample> Controller::processed_samples() const {
  std::vector<Sample> out;
  out.reserve(samples_.size());
  const double start_offset = sampling_start_ - start_timestamp_;
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    Sample s;
    s.type = samples_[i].type;
    s.time = (samples_[i].time - start_timestamp_) - start_offset;
    s.complexity = samples_[i].complexity;
    s.frame_length = i == 0 ? 1000 / options_.fps : samples_[i].time - samples_[i - 1].time;
    out.push_back(s);
  }
  return out;
}

std::vector<Sample> Controller::scored_samples() const {
  auto rows = processed_samples();
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Sample& a, const Sample& b) { return a.complexity < b.complexity; });
  return rows;
}

FixedController::FixedController(const ControllerOptions& options, double complexity)
    : Controller(options), complexity_(complexity) {
  interval_sampling_length_ = 0;
}

int64_t to_tune_delta(double delta) {
  if (std::isnan(delta)) return 0;
  const double limit = static_cast<double>(Stage::kUnbounded);
  return static_cast<int64_t>(std::clamp(delta, -limit, limit));
}

bool reached_stage_maximum(const Controller& controller, const Stage& stage) {
  const double max = static_cast<double>(stage.max_complexity());
  for (const auto& s : controller.samples())
    if (s.complexity >= max) return true;
  return false;
}

std::unique_ptr<Controller> make_controller(const std::string& name, const ControllerOptions& options,
                                            double fixed_complexity) {
  if (name == "ramp") return std::make_unique<RampController>(options);
  if (name == "fixed") return std::make_unique<FixedController>(options, fixed_complexity);
  throw UsageError("unknown controller '" + name + "' (use ramp or fixed)");
}

}  // namespace pictor::mark
