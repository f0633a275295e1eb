// Nearest-rank percentiles at the edge ranks, counts of fractions, means.
#include "analysis/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace pictor::analysis::stats {
namespace {

std::vector<double> one_to(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

TEST(Stats, NearestRankIsCeilingOfShareOfN) {
  EXPECT_EQ(nearest_rank(50, 100), 50u);
  EXPECT_EQ(nearest_rank(99, 100), 99u);
  EXPECT_EQ(nearest_rank(100, 100), 100u);
  EXPECT_EQ(nearest_rank(1, 100), 1u);
  EXPECT_EQ(nearest_rank(1.5, 100), 2u);
  EXPECT_EQ(nearest_rank(90, 10), 9u);
  EXPECT_EQ(nearest_rank(95, 10), 10u);  // 9.5 rounds up
  EXPECT_EQ(nearest_rank(50, 3), 2u);
  EXPECT_EQ(nearest_rank(50, 4), 2u);  // lower middle
}

TEST(Stats, NearestRankEdges) {
  EXPECT_EQ(nearest_rank(0, 100), 1u);     // p0 is the minimum
  EXPECT_EQ(nearest_rank(99.9, 1000), 999u);  // not 1000 from binary rounding
  EXPECT_EQ(nearest_rank(99.9, 1001), 1000u);
  EXPECT_EQ(nearest_rank(99.9, 999), 999u);
  EXPECT_EQ(nearest_rank(99, 1), 1u);
  EXPECT_EQ(nearest_rank(50, 0), 0u);
  EXPECT_EQ(nearest_rank(150, 10), 10u);  // clamped
}

TEST(Stats, PercentileOfSortedAndUnsorted) {
  const std::vector<double> v = one_to(100);
  EXPECT_EQ(percentile_sorted(v, 99), 99.0);
  EXPECT_EQ(percentile_sorted(v, 50), 50.0);
  EXPECT_EQ(percentile_sorted(v, 100), 100.0);
  EXPECT_EQ(percentile_sorted(v, 0), 1.0);
  const std::vector<double> thousand = one_to(1000);
  EXPECT_EQ(percentile_sorted(thousand, 99.9), 999.0);
  const std::vector<double> shuffled = {5, 1, 4, 2, 3};
  EXPECT_EQ(percentile(shuffled, 50), 3.0);
  EXPECT_EQ(percentile(shuffled, 80), 4.0);
  EXPECT_EQ(percentile(shuffled, 81), 5.0);
  EXPECT_TRUE(std::isnan(percentile(std::vector<double>{}, 50)));
}

TEST(Stats, CountOfFraction) {
  EXPECT_EQ(count_of_fraction(0.01, 100), 1u);
  EXPECT_EQ(count_of_fraction(0.01, 101), 2u);
  EXPECT_EQ(count_of_fraction(0.01, 5), 1u);  // at least one
  EXPECT_EQ(count_of_fraction(0.001, 1000), 1u);
  EXPECT_EQ(count_of_fraction(0.001, 1001), 2u);
  EXPECT_EQ(count_of_fraction(0.01, 300), 3u);
  EXPECT_EQ(count_of_fraction(0.01, 0), 0u);
}

TEST(Stats, MeanSumKnown) {
  const std::vector<double> v = {1.0, 2.0, 6.0};
  EXPECT_DOUBLE_EQ(mean(v), 3.0);
  EXPECT_DOUBLE_EQ(sum(v), 9.0);
  EXPECT_TRUE(std::isnan(mean(std::vector<double>{})));
  const std::vector<double> with_nan = {1.0, std::nan(""), 3.0};
  EXPECT_EQ(known(with_nan), (std::vector<double>{1.0, 3.0}));
}

TEST(Stats, StudentTQuantiles) {
  EXPECT_DOUBLE_EQ(stats::student_t_975(1), 12.706);
  EXPECT_DOUBLE_EQ(stats::student_t_975(4), 2.776);
  EXPECT_DOUBLE_EQ(stats::student_t_975(30), 2.042);
  EXPECT_DOUBLE_EQ(stats::student_t_975(31), 1.960);
  EXPECT_TRUE(std::isnan(stats::student_t_975(0)));
}

TEST(Stats, MeanTIntervalIsTheRunToRunInterval) {
  const std::vector<double> v = {1286.2, 1286.3, 1414.7};  // three suite scores of issue 22
  const stats::MeanInterval m = stats::mean_t_interval(v);
  EXPECT_EQ(m.n, 3u);
  EXPECT_NEAR(m.mean, 1329.0667, 1e-3);
  EXPECT_NEAR(m.sd, 74.16, 0.01);  // unbiased: sqrt(sum of squares / (n - 1))
  EXPECT_NEAR(m.hi - m.mean, 4.303 * m.sd / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(m.mean - m.lo, m.hi - m.mean, 1e-9);
  const stats::MeanInterval one = stats::mean_t_interval(std::vector<double>{5});
  EXPECT_EQ(one.mean, 5);
  EXPECT_TRUE(std::isnan(one.sd) && std::isnan(one.lo) && std::isnan(one.hi));
  EXPECT_TRUE(std::isnan(stats::mean_t_interval(std::vector<double>{}).mean));
}

}  // namespace
}  // namespace pictor::analysis::stats
