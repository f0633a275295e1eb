#include "mark/score.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

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
  std::size_t first = 0, last = 0;  // the rows kept: series[first..last], both frame types
  double min_complexity = 0, max_complexity = 0;  // complexities at first and last
  long animation = 0;                              // animation rows among them
  std::optional<Regression> regression;            // their fit; none without animation rows
};

// MARK.md §4.1 on rows already sorted by complexity: drop 2.5 % at each end (unless the range is
// tiny), fit the animation rows of what is left. JS rounding of the indices.
Trimmed trim_and_fit(const std::vector<Sample>& series, double desired_frame_length) {
  const double n = static_cast<double>(series.size());
  Trimmed out;
  out.first = static_cast<std::size_t>(js_round(.025 * n));
  out.last = static_cast<std::size_t>(js_round(.975 * (n - 1)));
  if (std::fabs(series[out.last].complexity - series[out.first].complexity) < 20 && out.last - out.first < 20) {
    out.first = 0;
    out.last = series.size() - 1;
  }
  out.min_complexity = series[out.first].complexity;
  out.max_complexity = series[out.last].complexity;
  std::vector<RegressionPoint> points;
  for (std::size_t i = out.first; i <= out.last; ++i)
    if (series[i].type == FrameType::Animation) points.push_back({series[i].complexity, series[i].frame_length});
  out.animation = static_cast<long>(points.size());
  if (!points.empty()) out.regression = fit_regression(points, desired_frame_length);
  return out;
}

}  // namespace

TestScore score_samples(std::vector<Sample> samples, double fps, const BootstrapOptions& options) {
  if (samples.empty()) throw UsageError("no samples to score");
  if (!(fps > 0)) throw UsageError("the target frame rate must be positive");
  if (options.iterations < 1) throw UsageError("bootstrap needs at least one iteration");
  const double desired = 1000 / fps;
  sort_by_complexity(samples);

  const Trimmed full = trim_and_fit(samples, desired);
  if (!full.regression)
    throw UsageError(fmt::format("no animation rows to fit: all {} rows kept after trimming (rows {} to {} of {}, "
                                 "by complexity) are mutation frames",
                                 full.last - full.first + 1, full.first, full.last, samples.size()));
  TestScore result;
  result.samples = static_cast<long>(samples.size());
  result.regression = *full.regression;
  result.min_complexity = full.min_complexity;
  result.max_complexity = full.max_complexity;
  result.animation_samples = full.animation;

  // Bootstrap (MARK.md §4.2). The population is every trimmed row, mutation rows included, as
  // MotionMark 1.3.1 resamples them; each resample is sorted, trimmed and filtered again. The
  // generator restarts at the fixed seed on every call, so the same samples give the same bounds.
  const auto population = std::span(samples).subspan(full.first, full.last - full.first + 1);
  const std::size_t count = population.size();
  const double count_d = static_cast<double>(count);
  result.bootstrap_rows = static_cast<long>(count);
  Prng prng;
  std::vector<double> estimates(static_cast<std::size_t>(options.iterations));
  std::vector<Sample> resample(count);
  long negative = 0;
  for (std::size_t k = 0; k < estimates.size(); ++k) {
    for (auto& row : resample) row = population[static_cast<std::size_t>(std::floor(prng.next() * count_d))];
    sort_by_complexity(resample);
    const Trimmed fit = trim_and_fit(resample, desired);
    // MotionMark's regression fails on an empty set (it reads the first of no rows): no score.
    if (!fit.regression)
      throw UsageError(fmt::format(
          "bootstrap resample {} of {} drew no animation row between its trim bounds ({} of the {} rows "
          "resampled are mutation frames): MotionMark 1.3.1 cannot score these samples",
          k + 1, estimates.size(), count - static_cast<std::size_t>(full.animation), count));
    if (fit.regression->t2 < 0) {
      estimates[k] = fit.max_complexity;
      ++negative;
    } else {
      estimates[k] = fit.regression->change_point;
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
