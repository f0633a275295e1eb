// Distances between two samples' distributions, for comparing a driver's RTTs with the
// reference's (paper table 3): Kolmogorov–Smirnov statistic and 1-D Wasserstein distance.
#pragma once
#include <span>

namespace pictor::ic {

// Two-sample Kolmogorov–Smirnov statistic: the largest vertical gap between the two empirical
// CDFs, sup_x |F_a(x) − F_b(x)|, in 0..1 (0: same sample distribution, 1: no overlap).
// NaN values are ignored; NaN when either sample is empty.
double ks_statistic(std::span<const double> a, std::span<const double> b);

// 1-D Wasserstein (earth mover's) distance W1 = ∫ |F_a(x) − F_b(x)| dx, in the samples' unit
// (ms for RTTs): how far, on average, probability mass has to move to turn one distribution
// into the other. Equals |mean_a − mean_b| when one is a shifted copy of the other.
// NaN values are ignored; NaN when either sample is empty.
double wasserstein_1d(std::span<const double> a, std::span<const double> b);

}  // namespace pictor::ic
