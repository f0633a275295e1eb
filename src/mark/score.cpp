#include "mark/score.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"
#include "mark/prng.h"
#include "mark/stats.h"

namespace pictor::mark {
namespace {

void sort_by_complexity(std::vector<Sample>& rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Sample& a, const Sample& b) { return a.complexity < b.complexity; });
}

struct Trimmed {
  double min_complexity = 0, max_complexity = 0;
  std::vector<Sample> animation;  // animation rows between the trim bounds, in sorted order
  Regression regression;
};

// MARK.md §4.1 on rows already sorted by complexity: drop 2.5 % at each end (unless the range is
// tiny), keep the animation rows, fit. JS rounding of the indices.
Trimmed trim_and_fit(const std::vector<Sample>& series, double desired_frame_length) {
  const double n = static_cast<double>(series.size());
  auto min_index = static_cast<std::size_t>(js_round(.025 * n));
  auto max_index = static_cast<std::size_t>(js_round(.975 * (n - 1)));
  Trimmed out;
  out.min_complexity = series[min_index].complexity;
  out.max_complexity = series[max_index].complexity;
  if (std::fabs(out.max_complexity - out.min_complexity) < 20 && max_index - min_index < 20) {
    min_index = 0;
    max_index = series.size() - 1;
    out.min_complexity = series[min_index].complexity;
    out.max_complexity = series[max_index].complexity;
  }
  std::vector<RegressionPoint> points;
  for (std::size_t i = min_index; i <= max_index; ++i) {
    if (series[i].type != FrameType::Animation) continue;
    out.animation.push_back(series[i]);
    points.push_back({series[i].complexity, series[i].frame_length});
  }
  out.regression = fit_regression(points, desired_frame_length);
  return out;
}

}  // namespace

TestScore score_samples(std::vector<Sample> samples, double fps, const BootstrapOptions& options) {
  if (samples.empty()) throw UsageError("no samples to score");
  if (!(fps > 0)) throw UsageError("the target frame rate must be positive");
  if (options.iterations < 1) throw UsageError("bootstrap needs at least one iteration");
  const double desired = 1000 / fps;
  sort_by_complexity(samples);

  TestScore result;
  result.samples = static_cast<long>(samples.size());
  Trimmed full = trim_and_fit(samples, desired);
  result.regression = full.regression;
  result.min_complexity = full.min_complexity;
  result.max_complexity = full.max_complexity;
  result.animation_samples = static_cast<long>(full.animation.size());

  // Bootstrap (MARK.md §4.2): the generator restarts at the fixed seed on every call, so the
  // same samples always give the same bounds.
  const std::vector<Sample>& rows = full.animation;
  const std::size_t count = rows.size();
  const double count_d = static_cast<double>(count);
  Prng prng;
  std::vector<double> estimates(static_cast<std::size_t>(options.iterations));
  std::vector<Sample> resample(count);
  long negative = 0;
  for (auto& estimate : estimates) {
    for (auto& row : resample) row = rows[static_cast<std::size_t>(std::floor(prng.next() * count_d))];
    std::vector<Sample> sorted = resample;
    sort_by_complexity(sorted);
    const Trimmed fit = trim_and_fit(sorted, desired);
    if (fit.regression.t2 < 0) {
      estimate = fit.max_complexity;
      ++negative;
    } else {
      estimate = fit.regression.change_point;
    }
  }
  std::stable_sort(estimates.begin(), estimates.end());
  const double it = options.iterations;
  const auto at = [&](double index) {
    return estimates[std::min(static_cast<std::size_t>(js_round(index)), estimates.size() - 1)];
  };
  result.lower = at((it - 1) * (1 - options.confidence) / 2);
  result.upper = at((it - 1) * (1 + options.confidence) / 2);
  result.score = at(it / 2);
  result.negative_slope_share = static_cast<double>(negative) / it;
  return result;
}

bool capped_by_stage(const TestScore& score, double stage_max, double fps) {
  return score.regression.value_at(stage_max) < 1000 / (fps - 2);
}

SuiteScore suite_score(std::span<const TestScore> tests) {
  std::vector<double> scores, lowers, uppers;
  for (const auto& t : tests) {
    scores.push_back(t.score);
    lowers.push_back(t.lower);
    uppers.push_back(t.upper);
  }
  SuiteScore s;
  s.score = geometric_mean(scores);
  s.lower = geometric_mean(lowers);
  s.upper = geometric_mean(uppers);
  s.spread = largest_deviation(s.lower, s.score, s.upper);
  return s;
}

std::string format_suite_score(const SuiteScore& suite, double fps) {
  return fmt::format("{:.2f} @ {:g}fps ±{:.2f} %", suite.score, fps, suite.spread * 100);
}

}  // namespace pictor::mark
