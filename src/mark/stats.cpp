#include "mark/stats.h"

#include <algorithm>
#include <cmath>

namespace pictor::mark {

double js_round(double x) {
  if (!std::isfinite(x)) return x;
  double r = std::floor(x);
  // x − floor(x) is exact here, so this is the exact "half rounds up" rule of Math.round
  // (floor(x + 0.5) would round 0.49999999999999994 up).
  if (x - r >= 0.5) r += 1;
  return r;
}

std::vector<double> filter_outliers(std::vector<double> values) {
  if (values.empty()) return values;
  std::stable_sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  const auto at = [&](double index) {
    return values[std::min(static_cast<std::size_t>(js_round(index)), values.size() - 1)];
  };
  const double q1 = at(n * 1 / 4);
  const double q3 = at(n * 3 / 4);
  const double iqr = q3 - q1;
  const double minimum = q1 - iqr * 1.5;
  const double maximum = q3 + iqr * 1.5;
  std::vector<double> kept;
  kept.reserve(values.size());
  for (double v : values)
    if (v >= minimum && v <= maximum) kept.push_back(v);
  return kept;
}

double filtered_mean(std::vector<double> values) {
  const auto kept = filter_outliers(std::move(values));
  if (kept.empty()) return 0;
  double sum = 0;
  for (double v : kept) sum += v;
  return sum / static_cast<double>(kept.size());
}

double RunningStats::mean() const {
  if (count_ < 1) return 0;
  return sum_ / static_cast<double>(count_);
}

double RunningStats::stdev() const {
  if (count_ < 2) return 0;
  const double n = static_cast<double>(count_);
  return std::sqrt((square_sum_ - sum_ * sum_ / n) / (n - 1));
}

double RunningStats::cdf(double value) const { return normal_cdf(value, mean(), stdev()); }

KalmanEstimator::KalmanEstimator(double process_error, double measurement_error)
    : gain_(gain_for(process_error, measurement_error)) {}

double KalmanEstimator::gain_for(double q, double r) {
  const double error = .5 * (std::sqrt(q * q + 4 * q * r) - q);
  return error / (error + r);
}

void KalmanEstimator::sample(double measurement) {
  if (!initialized_) {
    initialized_ = true;
    estimate_ = measurement;
    return;
  }
  estimate_ = estimate_ + gain_ * (measurement - estimate_);
}

double erf_as(double x) {
  const double sign = (x >= 0) ? 1 : -1;  // NaN takes −1, as in the original
  x = std::fabs(x);
  const double a1 = 0.254829592, a2 = -0.284496736, a3 = 1.421413741, a4 = -1.453152027,
               a5 = 1.061405429, p = 0.3275911;
  const double t = 1.0 / (1.0 + p * x);
  const double y = 1.0 - (((((a5 * t + a4) * t) + a3) * t + a2) * t + a1) * t * std::exp(-x * x);
  return sign * y;
}

double normal_cdf(double value, double mean, double stdev) {
  return 0.5 * (1 + erf_as((value - mean) / (std::sqrt(2 * stdev * stdev))));
}

double geometric_mean(std::span<const double> values) {
  if (values.empty()) return 0;
  const double exponent = 1 / static_cast<double>(values.size());
  double product = std::pow(values[0], exponent);
  for (std::size_t i = 1; i < values.size(); ++i) product = product * std::pow(values[i], exponent);
  return product;
}

double largest_deviation(double low, double mean, double high) {
  const double a = std::fabs(low / mean - 1), b = high / mean - 1;
  if (std::isnan(a) || std::isnan(b)) return std::nan("");  // Math.max propagates NaN
  return std::max(a, b);
}

}  // namespace pictor::mark
