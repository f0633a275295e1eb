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

double student_t_975(std::size_t df) {
  static constexpr double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return std::numeric_limits<double>::quiet_NaN();
  return df <= std::size(kT) ? kT[df - 1] : 1.960;
}

MeanInterval mean_t_interval(std::span<const double> values) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  MeanInterval m;
  m.n = values.size();
  m.mean = mean(values);
  m.sd = m.lo = m.hi = nan;
  if (m.n < 2) return m;
  double squares = 0;
  for (const double v : values) squares += (v - m.mean) * (v - m.mean);
  m.sd = std::sqrt(squares / static_cast<double>(m.n - 1));
  const double half = student_t_975(m.n - 1) * m.sd / std::sqrt(static_cast<double>(m.n));
  m.lo = m.mean - half;
  m.hi = m.mean + half;
  return m;
}

}  // namespace pictor::analysis::stats
