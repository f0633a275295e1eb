// The small statistics MotionMark's method is built from: JS rounding, the IQR outlier filter,
// running mean/stdev, the Kalman smoother, the A&S erf, geometric mean. Pure functions, no GL.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace pictor::mark {

// JavaScript's Math.round: the nearest integer, halves rounded up (towards +∞).
double js_round(double x);

// `lerp(p; a, b) = a + (b − a)·p` and `progress(v; a, b) = (v − a)/(b − a)` as MotionMark writes them.
inline double lerp(double p, double a, double b) { return a + (b - a) * p; }
inline double progress(double v, double a, double b) { return (v - a) / (b - a); }

// Sorts `values` and keeps those inside [q1 − 1.5·IQR, q3 + 1.5·IQR], q1 = a[min(round(n/4), n−1)],
// q3 = a[min(round(3n/4), n−1)] (MARK.md §1). The result stays sorted.
std::vector<double> filter_outliers(std::vector<double> values);

// Mean of the values that survive filter_outliers, summed in sorted order; 0 when none (as the
// controller's interval statistic defines it).
double filtered_mean(std::vector<double> values);

// Running count, sum and sum of squares (MotionMark's Experiment): O(1) mean and unbiased stdev.
class RunningStats {
 public:
  void sample(double value) {
    sum_ += value;
    square_sum_ += value * value;
    ++count_;
  }
  void reset() { *this = RunningStats{}; }
  std::size_t count() const { return count_; }
  double mean() const;       // 0 when empty (the original's convention)
  double stdev() const;      // unbiased; 0 with fewer than two samples
  double cdf(double value) const;  // Φ((value − mean)/stdev), IEEE behaviour for stdev 0

 private:
  double sum_ = 0;
  double square_sum_ = 0;
  std::size_t count_ = 0;
};

// One-dimensional Kalman smoother with constant gain g = e/(e+R), e = ½(√(Q² + 4QR) − Q).
class KalmanEstimator {
 public:
  KalmanEstimator(double process_error, double measurement_error);
  static double gain_for(double process_error, double measurement_error);
  double gain() const { return gain_; }
  // The first sample after construction or reset() sets the estimate; later ones blend in.
  void sample(double measurement);
  void reset() {
    initialized_ = false;
    estimate_ = 0;
  }
  double estimate() const { return estimate_; }

 private:
  double gain_;
  double estimate_ = 0;
  bool initialized_ = false;
};

// Abramowitz & Stegun 7.1.26 approximation of erf (|error| ≤ 1.5e-7), as MotionMark uses it.
double erf_as(double x);
// Normal CDF built on erf_as: ½(1 + erf((v − mean)/√(2·stdev²))).
double normal_cdf(double value, double mean, double stdev);

// Product of v_i^(1/n), multiplied left to right; 0 for no values.
double geometric_mean(std::span<const double> values);

// max(|low/mean − 1|, high/mean − 1): the score's relative spread, shown as ±%.
double largest_deviation(double low, double mean, double high);

}  // namespace pictor::mark
