// The small statistics under MotionMark's method: rounding, IQR filter, Kalman, erf/Φ, means.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "mark/stats.h"

namespace pictor::mark {
namespace {

TEST(JsRound, HalvesRoundTowardsPlusInfinity) {
  EXPECT_EQ(js_round(0.5), 1);
  EXPECT_EQ(js_round(2.5), 3);
  EXPECT_EQ(js_round(-0.5), 0);
  EXPECT_EQ(js_round(-2.5), -2);
  EXPECT_EQ(js_round(1.4999999), 1);
  // floor(x + 0.5) would give 1 here; Math.round gives 0.
  EXPECT_EQ(js_round(0.49999999999999994), 0);
  EXPECT_EQ(js_round(62.475), 62);
}

TEST(FilterOutliers, KeepsTheInterquartileFence) {
  // n = 10: q1 = a[round(2.5)] = a[3] = 4, q3 = a[round(7.5)] = a[8] = 9 → fence [-3.5, 16.5].
  std::vector<double> v{10, 1, 2, 3, 4, 5, 6, 7, 8, 100};
  const auto kept = filter_outliers(v);
  EXPECT_EQ(kept, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 10}));
  EXPECT_TRUE(filter_outliers({}).empty());
  EXPECT_EQ(filter_outliers({7}), std::vector<double>{7});
}

TEST(FilterOutliers, MeanOfSurvivorsAndZeroWhenEmpty) {
  EXPECT_DOUBLE_EQ(filtered_mean({16, 17, 16, 17, 16, 17, 16, 17, 16, 200}), (16 * 5 + 17 * 4) / 9.0);
  EXPECT_EQ(filtered_mean({}), 0);
}

TEST(Kalman, GainForMotionMarkDefaults) {
  EXPECT_DOUBLE_EQ(KalmanEstimator::gain_for(1, 4), 0.2807764064044151);
}

TEST(Kalman, FirstSampleSetsTheEstimateThenBlends) {
  KalmanEstimator k(1, 4);
  k.sample(20);
  EXPECT_EQ(k.estimate(), 20);
  k.sample(30);
  EXPECT_DOUBLE_EQ(k.estimate(), 20 + 0.2807764064044151 * 10);
  k.reset();
  EXPECT_EQ(k.estimate(), 0);
  k.sample(5);
  EXPECT_EQ(k.estimate(), 5);
}

TEST(Erf, AbramowitzStegunAccuracyAndSymmetry) {
  for (double x : {0.0, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0}) {
    EXPECT_NEAR(erf_as(x), std::erf(x), 1.5e-7) << x;
    if (x > 0) {  // -0.0 >= 0 takes the + branch
      EXPECT_EQ(erf_as(-x), -erf_as(x)) << x;
    }
  }
  EXPECT_EQ(erf_as(std::numeric_limits<double>::infinity()), 1);
  EXPECT_TRUE(std::isnan(erf_as(std::nan(""))));
}

TEST(NormalCdf, CentreTailsAndZeroDeviation) {
  EXPECT_NEAR(normal_cdf(0, 0, 1), 0.5, 1e-8);
  EXPECT_NEAR(normal_cdf(1.2815515655, 0, 1), 0.9, 2e-7);
  // stdev 0: ±∞ argument gives 0 or 1, equality gives NaN (0/0), exactly as in IEEE doubles.
  EXPECT_EQ(normal_cdf(18, 17, 0), 1);
  EXPECT_EQ(normal_cdf(16, 17, 0), 0);
  EXPECT_TRUE(std::isnan(normal_cdf(17, 17, 0)));
}

TEST(RunningStats, MeanUnbiasedStdevAndCdf) {
  RunningStats s;
  EXPECT_EQ(s.mean(), 0);
  EXPECT_EQ(s.stdev(), 0);
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.sample(v);
  EXPECT_DOUBLE_EQ(s.mean(), 5);
  EXPECT_DOUBLE_EQ(s.stdev(), std::sqrt(32.0 / 7));
  EXPECT_NEAR(s.cdf(5), 0.5, 1e-8);
  s.reset();
  EXPECT_EQ(s.count(), 0u);
}

TEST(GeometricMean, RollUpOfScores) {
  const std::vector<double> v{100, 400};
  EXPECT_DOUBLE_EQ(geometric_mean(v), 200);
  const std::vector<double> w{2, 8, 4};
  EXPECT_NEAR(geometric_mean(w), 4, 1e-12);
  EXPECT_EQ(geometric_mean(std::vector<double>{}), 0);
  EXPECT_DOUBLE_EQ(largest_deviation(90, 100, 105), 0.1);
  EXPECT_NEAR(largest_deviation(98, 100, 110), 0.1, 1e-15);
}

}  // namespace
}  // namespace pictor::mark
