#include "ic/distribution_distance.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/stats.h"

namespace pictor::ic {

namespace {

// Walks the merged order of both sorted samples, calling f(gap, x_next - x) with the CDF gap
// that holds on [x, x_next).
template <class F>
void walk_cdfs(std::span<const double> a_in, std::span<const double> b_in, F f) {
  const std::vector<double> a = analysis::stats::sorted(analysis::stats::known(a_in));
  const std::vector<double> b = analysis::stats::sorted(analysis::stats::known(b_in));
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const double x = j >= b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    const double gap = std::abs(static_cast<double>(i) / na - static_cast<double>(j) / nb);
    double next = x;
    if (i < a.size() || j < b.size())
      next = j >= b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    f(gap, next - x);
  }
}

bool has_known(std::span<const double> v) {
  return std::any_of(v.begin(), v.end(), [](double x) { return !std::isnan(x); });
}

}  // namespace

double ks_statistic(std::span<const double> a, std::span<const double> b) {
  if (!has_known(a) || !has_known(b)) return NAN;
  double d = 0;
  walk_cdfs(a, b, [&d](double gap, double) { d = std::max(d, gap); });
  return d;
}

double wasserstein_1d(std::span<const double> a, std::span<const double> b) {
  if (!has_known(a) || !has_known(b)) return NAN;
  double w = 0;
  walk_cdfs(a, b, [&w](double gap, double width) { w += gap * width; });
  return w;
}

}  // namespace pictor::ic
