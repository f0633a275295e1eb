// Stutter placement (window, factor, first frame) and the two conventions of low FPS.
#include "analysis/frame_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/stats.h"

namespace pictor::analysis {
namespace {

TEST(Stutter, FrameAboveTwoAndAHalfTimesTheMedianIsAStutter) {
  std::vector<double> ms(40, 10.0);
  ms[20] = 26.0;  // > 25: stutter
  ms[30] = 25.0;  // == 2.5 x median: not (strictly longer is required)
  const Stutters s = find_stutters(ms);
  ASSERT_EQ(s.frames, (std::vector<std::size_t>{20}));
  EXPECT_DOUBLE_EQ(s.time_ms, 26.0);
}

TEST(Stutter, FirstFrameIsNeverAStutterAndEarlyFramesUseWhatPrecedes) {
  // Frame 0 has no predecessor; frame 1 compares with [100]; frame 2 with [100, 10] whose
  // nearest-rank median is the lower middle, 10; frame 3 (30 ms) against [100, 10, 10] -> 10.
  const std::vector<double> ms = {100.0, 10.0, 10.0, 30.0, 10.0};
  const Stutters s = find_stutters(ms);
  EXPECT_EQ(s.frames, (std::vector<std::size_t>{3}));
}

TEST(Stutter, OnlyThePrecedingThirtyFramesCount) {
  // 50 frames of 100 ms, 15 of 10 ms, then 26 ms. The 30 frames before the last are 15 x 100 and
  // 15 x 10: median (rank 15) 10, so 26 ms is a stutter. With 31 frames (16 x 100) the median
  // would be 100 and it would not be.
  std::vector<double> ms(50, 100.0);
  ms.insert(ms.end(), 15, 10.0);
  ms.push_back(26.0);
  EXPECT_EQ(find_stutters(ms).frames, (std::vector<std::size_t>{65}));
  EXPECT_TRUE(find_stutters(ms, 31).frames.empty());
  EXPECT_EQ(kStutterWindow, 30u);
  EXPECT_EQ(kStutterFactor, 2.5);
}

TEST(Stutter, SteadyOrShortSeriesHaveNone) {
  EXPECT_TRUE(find_stutters(std::vector<double>(100, 16.7)).frames.empty());
  EXPECT_TRUE(find_stutters(std::vector<double>{50.0}).frames.empty());
  EXPECT_TRUE(find_stutters(std::vector<double>{}).frames.empty());
}

TEST(LowFps, BothConventionsOnAKnownDistribution) {
  // 196 frames of 10 ms and four slow ones.
  std::vector<double> ms(196, 10.0);
  ms.insert(ms.end(), {40.0, 50.0, 60.0, 100.0});
  const std::vector<double> sorted = stats::sorted(ms);
  // p99: rank ceil(0.99 * 200) = 198 -> 50 ms -> 20 FPS.
  EXPECT_DOUBLE_EQ(low_fps_at_percentile(sorted, 99), 20.0);
  // p99.9: rank ceil(199.8) = 200 -> 100 ms -> 10 FPS.
  EXPECT_DOUBLE_EQ(low_fps_at_percentile(sorted, 99.9), 10.0);
  // Slowest 1 %: ceil(2) = 2 frames, 60 + 100 ms -> 2 / 0.16 s = 12.5 FPS.
  EXPECT_DOUBLE_EQ(low_fps_average(sorted, 0.01), 12.5);
  // Slowest 0.1 %: ceil(0.2) = 1 frame of 100 ms -> 10 FPS.
  EXPECT_DOUBLE_EQ(low_fps_average(sorted, 0.001), 10.0);
}

TEST(LowFps, UnknownWhenNothingToMeasure) {
  EXPECT_TRUE(std::isnan(low_fps_at_percentile(std::vector<double>{}, 99)));
  EXPECT_TRUE(std::isnan(low_fps_average(std::vector<double>{}, 0.01)));
  EXPECT_TRUE(std::isnan(low_fps_at_percentile(std::vector<double>{0.0}, 99)));
}

}  // namespace
}  // namespace pictor::analysis
