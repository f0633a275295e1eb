// The one home of Pictor's resampling: index draws that come out the same with every standard
// library, i.i.d. and circular-block resamples, and percentile intervals (docs/reports.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace pictor::analysis {

struct Interval {
  double lo, hi;
};

// Uniform 0..n-1 by rejection (n > 0), so a seed gives the same draws with libstdc++ and libc++.
std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t n);

// Fills `out` with n indices 0..n-1 drawn with replacement.
void resample_indices(std::mt19937_64& rng, std::size_t n, std::vector<std::size_t>& out);

// Circular block bootstrap: n indices made of runs of `block` consecutive indices (wrapping from
// n-1 to 0), each run starting at a uniformly drawn index; the last run is cut to fill n. Keeps
// the correlation of neighbouring samples (frame times) inside each run. block is clamped to 1..n.
void resample_blocks(std::mt19937_64& rng, std::size_t n, std::size_t block, std::vector<std::size_t>& out);

// The percentile interval at `level` (0.95: the 2.5th and 97.5th nearest-rank percentiles) of
// bootstrap statistics; NaN statistics are left out. {NaN, NaN} when none is finite. Sorts `stats`.
Interval percentile_interval(std::vector<double>& stats, double level);

}  // namespace pictor::analysis
