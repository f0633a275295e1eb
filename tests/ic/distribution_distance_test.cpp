// KS statistic and 1-D Wasserstein distance on samples whose answers are known by hand.
#include "ic/distribution_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace pictor::ic {
namespace {

TEST(Distance, IdenticalSamplesAreZero) {
  const std::vector<double> a{3, 1, 2, 2, 5};
  EXPECT_DOUBLE_EQ(ks_statistic(a, a), 0.0);
  EXPECT_DOUBLE_EQ(wasserstein_1d(a, a), 0.0);
}

TEST(Distance, DisjointSamplesHaveKsOne) {
  EXPECT_DOUBLE_EQ(ks_statistic(std::vector<double>{1, 2}, std::vector<double>{10, 11, 12}), 1.0);
}

TEST(Distance, KnownSmallCases) {
  // F_a jumps at 1,2,3,4; F_b at 3,4,5,6: on [2,3) F_a = 0.5, F_b = 0 → KS 0.5.
  EXPECT_DOUBLE_EQ(ks_statistic(std::vector<double>{1, 2, 3, 4}, std::vector<double>{3, 4, 5, 6}), 0.5);
  // {0,1} vs {0,3}: the CDFs differ by 0.5 on [1,3) → W1 = 1.
  EXPECT_DOUBLE_EQ(wasserstein_1d(std::vector<double>{0, 1}, std::vector<double>{0, 3}), 1.0);
  // Unequal sizes: {0} vs {0, 2}: gap 0.5 on [0, 2) → W1 = 1, KS = 0.5.
  EXPECT_DOUBLE_EQ(wasserstein_1d(std::vector<double>{0}, std::vector<double>{0, 2}), 1.0);
  EXPECT_DOUBLE_EQ(ks_statistic(std::vector<double>{0}, std::vector<double>{0, 2}), 0.5);
}

TEST(Distance, ShiftGivesWassersteinEqualToShift) {
  std::mt19937_64 rng(7);
  std::vector<double> a, b;
  for (int i = 0; i < 500; ++i) {
    const double x = 20 + 10 * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
    a.push_back(x);
    b.push_back(x + 4.0);
  }
  EXPECT_NEAR(wasserstein_1d(a, b), 4.0, 1e-9);
  EXPECT_GT(ks_statistic(a, b), 0.3);
  EXPECT_LT(ks_statistic(a, b), 0.5);  // uniform width 10 shifted by 4: 0.4 in the limit
}

TEST(Distance, IgnoresNanAndEmptyIsNan) {
  EXPECT_DOUBLE_EQ(ks_statistic(std::vector<double>{1, NAN}, std::vector<double>{1}), 0.0);
  EXPECT_TRUE(std::isnan(ks_statistic(std::vector<double>{}, std::vector<double>{1})));
  EXPECT_TRUE(std::isnan(wasserstein_1d(std::vector<double>{NAN}, std::vector<double>{1})));
}

}  // namespace
}  // namespace pictor::ic
