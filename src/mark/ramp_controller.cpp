#include "mark/ramp_controller.h"

#include <algorithm>
#include <cmath>

namespace pictor::mark {

RampController::RampController(const ControllerOptions& options) : Controller(options) {
  const double fps = options.fps;
  desired_ = 1000 / fps;
  // Frames a little slower than the target still count as "at the target rate".
  desired_threshold_ = 1000 / (fps - 2);
  // Tiers grow until the scene runs at half the target rate.
  tier_threshold_ = 1000 / (fps * 0.5);
  // Each ramp should get at least this slow, so that it crosses the change point.
  ramp_lower_threshold_ = 1000 / (fps * 0.75);
  // The fit at a ramp's top complexity must not be slower than this.
  ramp_upper_threshold_ = 1000 / (fps / 3);
  test_length_ = options.test_interval_ms;
  const double iterations = std::max(1.0, std::floor(end_timestamp_ / kMinimumRampLength));
  // A little room is left because ramps do not end exactly on time.
  ramp_length_ = std::floor((end_timestamp_ - iterations * interval_sampling_length_) / iterations);
}

void RampController::start(double timestamp, Stage& stage) {
  Controller::start(timestamp, stage);
  ramp_start_timestamp_ = 0;
  interval_sampling_length_ = 100;
  frame_time_history_.clear();
}

bool RampController::should_stop(double timestamp) const {
  if (!Controller::should_stop(timestamp)) return false;
  const bool only_ramp_running = finished_tier_sampling_ && ramps_.empty() && skipped_ramps_ == 0;
  return !(only_ramp_running && timestamp <= end_timestamp_ + kSingleRampGrace);
}

bool RampController::interval_has_concluded(double timestamp) const {
  if (!Controller::interval_has_concluded(timestamp)) return false;
  return finished_tier_sampling_ || filter_outliers(frame_time_history_).size() > kFramesRequiredInInterval;
}

void RampController::did_finish_interval(double timestamp, Stage& stage, double /*average*/) {
  frame_time_history_.clear();
  if (!finished_tier_sampling_) {
    if (tier_start_timestamp_ > 0 && timestamp < tier_start_timestamp_ + kTierFastTestLength) return;
    const double complexity = static_cast<double>(stage.complexity());
    const double frame_length = frame_length_estimator_.estimate();
    if (frame_length < tier_threshold_) {
      const bool at_target_rate = frame_length < desired_threshold_;
      const bool slow_tier_done = timestamp > tier_start_timestamp_ + kTierSlowTestLength;
      if (!at_target_rate && !slow_tier_done) return;
      last_tier_complexity_ = complexity;
      last_tier_frame_length_ = frame_length;
      if (complexity <= 50)
        tier_ += 1.0 / 2;
      else if (complexity <= 10000)
        tier_ += 1.0 / 4;
      else
        tier_ += 1.0 / 8;
      end_timestamp_ = timestamp + test_length_;
      const double next = std::max(js_round(std::pow(10, tier_)), complexity + 1);
      stage.tune(to_tune_delta(next - complexity));
      // A stage that cannot grow any more ends the tier phase here.
      if (static_cast<double>(stage.complexity()) - complexity > 0 || next == 1) {
        tier_start_timestamp_ = timestamp;
        return;
      }
    } else if (timestamp < tier_start_timestamp_ + kTierSlowTestLength) {
      return;
    }
    finish_tier_sampling(timestamp, stage, complexity, frame_length);
    return;
  }

  if ((timestamp - ramp_start_timestamp_) < kRampWarmupLength) return;
  if (ramp_did_warmup_) return;
  ramp_did_warmup_ = true;
  current_ramp_length_ = ramp_start_timestamp_ + ramp_length_ - timestamp;
  ramp_start_timestamp_ = timestamp;
  ramp_start_index_ = samples_.size();
}

void RampController::finish_tier_sampling(double timestamp, Stage& stage, double complexity,
                                          double frame_length) {
  finished_tier_sampling_ = true;
  estimator_enabled_ = false;
  interval_sampling_length_ = 120;
  // The whole test length is made of ramps.
  end_timestamp_ = timestamp + test_length_;
  mark_sampling_start(timestamp);

  minimum_complexity_ = 1;
  possible_minimum_complexity_ = minimum_complexity_;
  minimum_complexity_estimator_.sample(minimum_complexity_);
  // The last tier may be far past the threshold; interpolate a top complexity near it instead.
  if (last_tier_complexity_ && *last_tier_complexity_ != 0 && *last_tier_complexity_ != complexity)
    maximum_complexity_ = std::floor(
        lerp(progress(tier_threshold_, last_tier_frame_length_, frame_length), *last_tier_complexity_, complexity));
  else
    maximum_complexity_ = complexity;
  possible_maximum_complexity_ = maximum_complexity_;
  // Kept as a boundary to raise the top of a ramp that never gets slow enough.
  last_tier_complexity_ = complexity;
  last_tier_frame_length_ = frame_length;

  stage.tune(to_tune_delta(maximum_complexity_ - complexity));
  ramp_did_warmup_ = false;
  ramp_start_timestamp_ = timestamp;
}

void RampController::tune(double timestamp, Stage& stage, double frame_length, bool finished_interval) {
  if (!ramp_did_warmup_) return;
  interval_frame_length_estimator_.sample(frame_length);
  if (!finished_interval) return;

  const double complexity = static_cast<double>(stage.complexity());
  const double mean = interval_frame_length_estimator_.mean();
  const double stdev = interval_frame_length_estimator_.stdev();
  if (mean < desired_threshold_ && interval_frame_length_estimator_.cdf(desired_threshold_) > .9) {
    possible_minimum_complexity_ = std::max(possible_minimum_complexity_, complexity);
  } else if (stdev > 2) {
    // A blip after an interval that may have been at the target rate: resample this area.
    possible_minimum_complexity_ = 1;
  }
  if (mean - stdev > ramp_lower_threshold_)
    possible_maximum_complexity_ = std::min(possible_maximum_complexity_, complexity);
  interval_frame_length_estimator_.reset();

  const double p = (timestamp - ramp_start_timestamp_) / current_ramp_length_;
  if (p < 1) {
    // Reframed so that the ramp's last interval samples the minimum complexity.
    const double q = (timestamp - ramp_start_timestamp_) / (current_ramp_length_ - interval_sampling_length_);
    const double target = std::max(minimum_complexity_, std::floor(lerp(q, maximum_complexity_, minimum_complexity_)));
    stage.tune(to_tune_delta(target - complexity));
    return;
  }
  end_ramp(timestamp, stage);
}

void RampController::end_ramp(double timestamp, Stage& stage) {
  const std::size_t count = samples_.size();
  std::vector<RegressionPoint> points;
  for (std::size_t i = ramp_start_index_; i < count; ++i) {
    if (samples_[i].type == FrameType::Mutation) continue;
    points.push_back({samples_[i].complexity, samples_[i].time - samples_[i - 1].time});
  }
  if (points.empty()) {
    // Every frame of the ramp changed complexity (frames slower than an interval): nothing to fit.
    ++skipped_ramps_;
  } else {
    RampRecord ramp;
    ramp.start_index = std::min(count - 1, ramp_start_index_);
    ramp.end_index = std::max(count - 1, ramp_start_index_);
    ramp.regression = fit_regression(points, desired_);
    ramps_.push_back(ramp);
    const Regression& r = ramp.regression;

    const double at_max = r.value_at(maximum_complexity_);
    if (at_max < ramp_lower_threshold_)
      possible_maximum_complexity_ = std::floor(lerp(progress(ramp_lower_threshold_, at_max, last_tier_frame_length_),
                                                     maximum_complexity_, *last_tier_complexity_));
    // If the fit's first segment covers almost none of the ramp, keep the lower bound at 1.
    // (n1 counts sorted points but indexes time-ordered samples: the original's quirk.)
    if (r.n1 && static_cast<std::size_t>(*r.n1) <= count &&
        (timestamp - samples_[count - static_cast<std::size_t>(*r.n1)].time) / current_ramp_length_ < .25)
      possible_minimum_complexity_ = 1;

    minimum_complexity_estimator_.sample(possible_minimum_complexity_);
    minimum_complexity_ = js_round(minimum_complexity_estimator_.mean());

    if (at_max < ramp_upper_threshold_) {
      change_point_estimator_.sample(r.change_point);
      // Aim the change point at the middle of the ramp, with a range of at least 5 elements,
      // and allow the top to grow when noise capped it too low.
      maximum_complexity_ = js_round(
          minimum_complexity_ + std::max({5.0, possible_maximum_complexity_ - minimum_complexity_,
                                          (change_point_estimator_.mean() - minimum_complexity_) * 2}));
    } else {
      // The slowest samples weighed the fit too heavily.
      maximum_complexity_ = std::max(js_round(.8 * maximum_complexity_), minimum_complexity_ + 5);
    }
  }

  stage.tune(to_tune_delta(maximum_complexity_ - static_cast<double>(stage.complexity())));
  ramp_did_warmup_ = false;
  ramp_start_timestamp_ = timestamp;
  possible_minimum_complexity_ = 1;
  possible_maximum_complexity_ = maximum_complexity_;
}

std::vector<Sample> RampController::scored_samples() const {
  const auto all = processed_samples();
  std::vector<Sample> rows;
  for (const auto& ramp : ramps_)
    for (std::size_t j = ramp.start_index; j <= ramp.end_index && j < all.size(); ++j) rows.push_back(all[j]);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Sample& a, const Sample& b) { return a.complexity < b.complexity; });
  return rows;
}

}  // namespace pictor::mark
