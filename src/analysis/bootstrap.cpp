// Resampling helpers shared by the RTT confidence intervals, compare and repeated runs.
#include "analysis/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/stats.h"

namespace pictor::analysis {

std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = rng.max() - rng.max() % n;
  std::uint64_t x = 0;
  do {
    x = rng();
  } while (x >= limit);
  return x % n;
}

void resample_indices(std::mt19937_64& rng, std::size_t n, std::vector<std::size_t>& out) {
  out.resize(n);
  for (std::size_t& i : out) i = static_cast<std::size_t>(draw_below(rng, n));
}

void resample_blocks(std::mt19937_64& rng, std::size_t n, std::size_t block, std::vector<std::size_t>& out) {
  out.clear();
  if (n == 0) return;
  block = std::clamp<std::size_t>(block, 1, n);
  out.reserve(n);
  while (out.size() < n) {
    const auto start = static_cast<std::size_t>(draw_below(rng, n));
    for (std::size_t k = 0; k < block && out.size() < n; ++k) out.push_back((start + k) % n);
  }
}

Interval percentile_interval(std::vector<double>& values, double level) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return {nan, nan};
  std::sort(values.begin(), values.end());
  const double tail = (1.0 - level) / 2.0 * 100.0;
  return {stats::percentile_sorted(values, tail), stats::percentile_sorted(values, 100.0 - tail)};
}

}  // namespace pictor::analysis
