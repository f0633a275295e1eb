#include "mark/regression.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/error.h"

namespace pictor::mark {
namespace {

// `value || Number.MAX_VALUE`: 0 and NaN count as "no fit".
double or_max(double value) { return (value == 0 || std::isnan(value)) ? DBL_MAX : value; }

// Sum of squared errors of y = s + t·x over a segment with sums a = n, b = Σx, c = Σx², d = Σy,
// h = Σxy, k = Σy², in the original's evaluation order.
double segment_error(double a, double b, double c, double d, double h, double k, double s, double t) {
  return k + a * s * s + c * t * t - 2 * d * s - 2 * h * t + 2 * b * s * t;
}

}  // namespace

double Regression::value_at(double complexity) const {
  if ((n1 && *n1 == 1) || complexity > change_point) return s2 + t2 * complexity;
  return s1 + t1 * complexity;
}

Regression fit_regression(std::span<const RegressionPoint> points, double desired_frame_length) {
  if (points.empty()) throw UsageError("no animation samples to fit a regression to");
  Regression best;
  if (points.size() == 1) {
    const double x = points[0].complexity;
    best.change_point = x;
    best.s1 = x;
    best.s2 = x;
    return best;
  }
  std::vector<RegressionPoint> sorted(points.begin(), points.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const RegressionPoint& l, const RegressionPoint& r) {
    return l.complexity < r.complexity;
  });
  const double low = sorted.front().complexity;
  const double high = sorted.back().complexity;
  const long n = static_cast<long>(sorted.size());

  // Segment 1 is fixed (the "slope" profile): s1 = L*, t1 = 0. Segment 2 is free.
  const double fixed_s1 = desired_frame_length;
  const double fixed_t1 = 0;

  double a1 = 0, b1 = 0, c1 = 0, d1 = 0, h1 = 0, k1 = 0;
  double a2 = 0, b2 = 0, c2 = 0, d2 = 0, h2 = 0, k2 = 0;
  for (const auto& p : sorted) {
    const double x = p.complexity, y = p.frame_length;
    a2 += 1;
    b2 += x;
    c2 += x * x;
    d2 += y;
    h2 += y * x;
    k2 += y * y;
  }

  double best_error1 = 0, best_error2 = 0;
  long best_split = 0;
  const auto take = [&](double s1, double t1, double e1, double s2, double t2, double e2, long split,
                        double x_prime, double x) {
    best.s1 = s1;
    best.t1 = t1;
    best.s2 = s2;
    best.t2 = t2;
    best_error1 = e1;
    best_error2 = e2;
    best_split = split;
    // NaN and ±∞ fail the range test and fall back to the split point (a discontinuous fit).
    best.change_point = (x_prime >= low && x_prime <= high) ? x_prime : x;
  };

  for (long i = 0; i < n - 1; ++i) {
    const double x = sorted[i].complexity;
    const double y = sorted[i].frame_length;
    const double xx = x * x, yx = y * x, yy = y * y;
    // Move point i from segment 2's running sums to segment 1's (by subtraction, as the original).
    a1 += 1;
    b1 += x;
    c1 += xx;
    d1 += y;
    h1 += yx;
    k1 += yy;
    a2 -= 1;
    b2 -= x;
    c2 -= xx;
    d2 -= y;
    h2 -= yx;
    k2 -= yy;

    const double A = c1 * d1 - b1 * h1;
    const double B = a1 * h1 - b1 * d1;
    const double C = a1 * c1 - b1 * b1;
    const double D = c2 * d2 - b2 * h2;
    const double E = a2 * h2 - b2 * d2;
    const double F = a2 * c2 - b2 * b2;
    const double s1 = fixed_s1;
    const double t1 = fixed_t1;
    double s2 = D / F;
    double t2 = E / F;
    double x_prime = (s1 - s2) / (t2 - t1);
    double error1 = or_max(segment_error(a1, b1, c1, d1, h1, k1, s1, t1));
    double error2 = or_max(segment_error(a2, b2, c2, d2, h2, k2, s2, t2));

    if (i == 0) {
      take(s1, t1, error1, s2, t2, error2, i, x_prime, x);
      continue;
    }
    if (C == 0 || F == 0) continue;

    const double next_x = sorted[i + 1].complexity;
    if (x_prime > next_x || x_prime < x) {
      // The crossing is not between this point and the next: split point i's weight between the
      // two lines by λ (the original's formulas, errors included — see MARK.md §3.5).
      const double I = c1 - 2 * b1 * x + a1 * xx;
      const double H = C - I;
      const double G = A + B * x - C * y;
      const double J = D + E * x - F * y;
      const double K = c2 - 2 * b2 * x + a2 * xx;
      const double lambda = (G * F + G * K - H * J) / (I * J + G * K);
      if (lambda > 0 && lambda < 1) {
        const double mu = 1 - lambda;
        s2 = (D + mu * (-h2 * x + d2 * xx + c2 * y - b2 * yx)) / (F + mu * K);
        t2 = (E + mu * (h2 - d2 * x - b2 * y + a2 * yx)) / (F + mu * K);
        x_prime = (s1 - s2) / (t2 - t1);
        const double r1 = y - (s1 + t1 * x);
        const double r2 = y - (s2 + t2 * x);
        error1 = or_max(segment_error(a1, b1, c1, d1, h1, k1, s1, t1) - mu * (r1 * r1));
        error2 = or_max(segment_error(a2, b2, c2, d2, h2, k2, s2, t2) + mu * (r2 * r2));
      } else if (t1 != t2) {
        continue;
      }
    }
    if (error1 + error2 < best_error1 + best_error2)
      take(s1, t1, error1, s2, t2, error2, i, x_prime, x);
  }

  const long n1 = best_split + 1;
  const long n2 = n - best_split - 1;
  best.n1 = n1;
  best.n2 = n2;
  best.stdev1 = std::sqrt(best_error1 / static_cast<double>(n1));
  best.stdev2 = std::sqrt(best_error2 / static_cast<double>(n2));
  best.error = best_error1 + best_error2;
  return best;
}

}  // namespace pictor::mark
