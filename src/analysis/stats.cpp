// Order statistics and averages shared by every analysis (see stats.h for the definitions).
#include "analysis/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pictor::analysis::stats {

namespace {

// ceil(x) that ignores the last few ulps of binary rounding above an integer (99.9% of 1000 is
// 999.0000000000001 in doubles on some paths; the intended rank is 999).
std::size_t tolerant_ceil(double x) {
  const double slack = 1e-9 * std::max(1.0, std::fabs(x));
  const double c = std::ceil(x - slack);
  return c <= 0.0 ? 0 : static_cast<std::size_t>(c);
}

}  // namespace

std::size_t nearest_rank(double p, std::size_t n) {
  if (n == 0) return 0;
  const std::size_t r = tolerant_ceil(p / 100.0 * static_cast<double>(n));
  return std::clamp<std::size_t>(r, 1, n);
}

std::size_t count_of_fraction(double f, std::size_t n) {
  if (n == 0) return 0;
  const std::size_t k = tolerant_ceil(f * static_cast<double>(n));
  return std::clamp<std::size_t>(k, 1, n);
}

double percentile_sorted(std::span<const double> sorted_values, double p) {
  if (sorted_values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return sorted_values[nearest_rank(p, sorted_values.size()) - 1];
}

double percentile(std::span<const double> values, double p) {
  const std::vector<double> s = sorted(values);
  return percentile_sorted(s, p);
}

double sum(std::span<const double> values) {
  double total = 0.0;
  for (const double v : values) total += v;
  return total;
}

double mean(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return sum(values) / static_cast<double>(values.size());
}

std::vector<double> sorted(std::span<const double> values) {
  std::vector<double> s(values.begin(), values.end());
  std::sort(s.begin(), s.end());
  return s;
}

std::vector<double> known(std::span<const double> values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (const double v : values) {
    if (!std::isnan(v)) out.push_back(v);
  }
  return out;
}

}  // namespace pictor::analysis::stats
