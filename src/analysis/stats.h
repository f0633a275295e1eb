// The one place Pictor computes order statistics and averages (nearest-rank percentiles, means,
// "slowest k %" counts), so frame, RTT and mark figures cannot drift apart in their definitions.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace pictor::analysis::stats {

// 1-based nearest rank of percentile p (0..100) among n values: ceil(p/100 * n), clamped to 1..n.
// A relative tolerance of 1e-9 absorbs binary rounding, so p = 99.9 of n = 1000 is rank 999,
// not 1000. Returns 0 when n == 0.
std::size_t nearest_rank(double p, std::size_t n);

// Number of values that make up the fraction f (0..1] of n: ceil(f * n), at least 1 when n > 0,
// with the same rounding tolerance as nearest_rank.
std::size_t count_of_fraction(double f, std::size_t n);

// Nearest-rank percentile of values already sorted ascending; NaN when empty.
double percentile_sorted(std::span<const double> sorted, double p);

// Nearest-rank percentile of unsorted values (sorts a copy); NaN when empty.
double percentile(std::span<const double> values, double p);

// Arithmetic mean; NaN when empty. Summed in order with a double accumulator.
double mean(std::span<const double> values);

// Sum in order with a double accumulator.
double sum(std::span<const double> values);

// Values sorted ascending (a copy).
std::vector<double> sorted(std::span<const double> values);

// The values that are not NaN, in order.
std::vector<double> known(std::span<const double> values);

// Two-sided 95 % quantile of Student's t with `df` degrees of freedom (tabulated for 1..30, the
// normal's 1.960 beyond); NaN for df = 0.
double student_t_975(std::size_t df);

// The mean of n independent runs' values and its Student-t 95 % interval, mean ± t·sd/√n, with
// the unbiased sd: the run-to-run interval. lo, hi and sd are NaN with fewer than two values.
struct MeanInterval {
  std::size_t n = 0;
  double mean = 0, sd = 0, lo = 0, hi = 0;
};
MeanInterval mean_t_interval(std::span<const double> values);

}  // namespace pictor::analysis::stats
