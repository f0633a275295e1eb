// Unit tests of the frame-time graph's geometry: width, height, colour, placement and rows.
#include "report/frametime_geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/error.h"

namespace pictor::report {
namespace {

constexpr double kFps120 = 1000.0 / 120;
constexpr double kFps60 = 1000.0 / 60;
constexpr double kFps30 = 1000.0 / 30;
constexpr double kFps15 = 1000.0 / 15;
// sRGB encoding of linear 0.5: the midpoint of two stops in linear light.
constexpr double kHalfLinear = 0.7353569830524495;

const FrameGraphOptions kDefaults{};

TEST(FrameWidth, IsDurationInFastFrames) {
  EXPECT_DOUBLE_EQ(frame_width_px(kFps120, kDefaults), 1.0);
  EXPECT_DOUBLE_EQ(frame_width_px(kFps60, kDefaults), 2.0);
  EXPECT_DOUBLE_EQ(frame_width_px(kFps15, kDefaults), 8.0);
  EXPECT_DOUBLE_EQ(frame_width_px(1000.0, kDefaults), 120.0);
  FrameGraphOptions o;
  o.fast_ms = 4.0;
  EXPECT_DOUBLE_EQ(frame_width_px(10.0, o), 2.5);
}

TEST(FrameHeight, FractionAtThresholdsAndMilestones) {
  EXPECT_DOUBLE_EQ(frame_height_fraction(kFps120, kDefaults), 0.0);
  EXPECT_DOUBLE_EQ(frame_height_fraction(kFps60, kDefaults), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(frame_height_fraction(kFps30, kDefaults), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(frame_height_fraction(kFps15, kDefaults), 1.0);
  // Half an octave above 120 FPS is a sixth of the three-octave range.
  EXPECT_NEAR(frame_height_fraction(kFps120 * std::sqrt(2.0), kDefaults), 1.0 / 6.0, 1e-12);
}

TEST(FrameHeight, ClampsOutsideThresholds) {
  EXPECT_EQ(frame_height_fraction(1000.0 / 240, kDefaults), 0.0);
  EXPECT_EQ(frame_height_fraction(0.0, kDefaults), 0.0);
  EXPECT_EQ(frame_height_fraction(100.0, kDefaults), 1.0);
  EXPECT_EQ(frame_height_fraction(5000.0, kDefaults), 1.0);
}

TEST(FrameHeight, PixelsSpanMinToMax) {
  EXPECT_DOUBLE_EQ(frame_height_px(kFps120, kDefaults), 2.0);
  EXPECT_NEAR(frame_height_px(kFps60, kDefaults), 2.0 + 62.0 / 3.0, 1e-12);
  EXPECT_NEAR(frame_height_px(kFps30, kDefaults), 2.0 + 124.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(frame_height_px(kFps15, kDefaults), 64.0);
  FrameGraphOptions o;
  o.min_height_px = 10;
  o.max_height_px = 40;
  o.fast_ms = 10.0;
  o.slow_ms = 40.0;
  EXPECT_DOUBLE_EQ(frame_height_px(20.0, o), 25.0);  // one octave of two: halfway
}

void expect_rgb(const Rgb& c, double r, double g, double b) {
  EXPECT_NEAR(c.r, r, 1e-9);
  EXPECT_NEAR(c.g, g, 1e-9);
  EXPECT_NEAR(c.b, b, 1e-9);
}

TEST(FrameColour, StopsAtTheMilestones) {
  expect_rgb(frame_colour(kFps120, kDefaults), 0.2, 0.4, 1);
  expect_rgb(frame_colour(kFps60, kDefaults), 0, 1, 0);
  expect_rgb(frame_colour(kFps30, kDefaults), 1, 1, 0);
  expect_rgb(frame_colour(kFps15, kDefaults), 1, 0, 0);
  expect_rgb(frame_colour(1000.0 / 500, kDefaults), 0.2, 0.4, 1);
  expect_rgb(frame_colour(2000.0, kDefaults), 1, 0, 0);
}

TEST(FrameColour, InterpolatesInLinearLight) {
  // Halfway between blue #3366ff and green (log-midpoint of 120 and 60 FPS): each channel is
  // the sRGB encoding of the mean of the two linear values.
  expect_rgb(frame_colour(kFps120 * std::sqrt(2.0), kDefaults), 0.1360341523017769,
             0.7775264848194535, kHalfLinear);
  // Halfway between yellow and red: red stays 1, green falls to linear 0.5.
  expect_rgb(gradient_colour(5.0 / 6.0), 1, kHalfLinear, 0);
  // A quarter of the way from green to yellow: linear red 0.25.
  expect_rgb(gradient_colour(1.0 / 3.0 + 1.0 / 12.0), 0.5370987304831942, 1, 0);
}

TEST(Options, RejectsScalesThatCannotDraw) {
  FrameGraphOptions o;
  EXPECT_NO_THROW(validate(o));
  o.slow_ms = o.fast_ms;
  EXPECT_THROW(validate(o), UsageError);
  o = {};
  o.fast_ms = 0;
  EXPECT_THROW(validate(o), UsageError);
  o = {};
  o.max_height_px = 1;
  EXPECT_THROW(validate(o), UsageError);
  o = {};
  o.row_width_px = 10;
  EXPECT_THROW(validate(o), UsageError);
}

TEST(Placement, WholePixelFramesTileExactlyWithoutDrift) {
  // 10 000 frames of 1/60 s: 2 px each, no pixel lost or gained to rounding over the run.
  const std::vector<double> ms(10000, kFps60);
  const FramePlacement p = place_frames(ms, kDefaults);
  ASSERT_EQ(p.spans.size(), ms.size());
  int64_t sum = 0;
  for (std::size_t i = 0; i < p.spans.size(); ++i) {
    EXPECT_EQ(p.spans[i].left_px, static_cast<int64_t>(2 * i));
    EXPECT_EQ(p.spans[i].right_px - p.spans[i].left_px, 2);
    sum += p.spans[i].right_px - p.spans[i].left_px;
  }
  EXPECT_EQ(sum, 20000);
  EXPECT_EQ(p.length_px, 20000);
}

TEST(Placement, FloorLeftCeilRight) {
  // 1.5 px frames: exact edges 0, 1.5, 3, 4.5, 6.
  const std::vector<double> ms(4, 1.5 * kFps120);
  const FramePlacement p = place_frames(ms, kDefaults);
  ASSERT_EQ(p.spans.size(), 4u);
  EXPECT_EQ(p.spans[0].left_px, 0);
  EXPECT_EQ(p.spans[0].right_px, 2);
  EXPECT_EQ(p.spans[1].left_px, 1);
  EXPECT_EQ(p.spans[1].right_px, 3);
  EXPECT_EQ(p.spans[2].left_px, 3);
  EXPECT_EQ(p.spans[2].right_px, 5);
  EXPECT_EQ(p.spans[3].left_px, 4);
  EXPECT_EQ(p.spans[3].right_px, 6);
  EXPECT_EQ(p.length_px, 6);
}

TEST(Placement, SubPixelFramesStayVisibleAndTheGraphKeepsPace) {
  // 240 FPS frames are half a pixel: each still gets 1 px, but 100 of them cover only 50 px.
  const std::vector<double> ms(100, kFps120 / 2);
  const FramePlacement p = place_frames(ms, kDefaults);
  for (const FrameSpan& s : p.spans) EXPECT_EQ(s.right_px - s.left_px, 1);
  EXPECT_EQ(p.length_px, 50);
  // A zero-length frame (two swaps with one timestamp) still gets its pixel.
  const std::vector<double> zero{0.0};
  const FramePlacement z = place_frames(zero, kDefaults);
  ASSERT_EQ(z.spans.size(), 1u);
  EXPECT_EQ(z.spans[0].right_px - z.spans[0].left_px, 1);
}

TEST(Placement, TheLengthWithoutPlacingIsThePlacementsLength) {
  // What the size check computes in double must be what placing gives, pixel for pixel.
  for (const std::vector<double>& ms : {std::vector<double>(10000, kFps60), std::vector<double>(4, 1.5 * kFps120),
                                        std::vector<double>(100, kFps120 / 2), std::vector<double>{0.0, 0.0, 3.0}}) {
    EXPECT_EQ(placed_length_px(ms, kDefaults), static_cast<double>(place_frames(ms, kDefaults).length_px));
  }
  // One more frame after them (a stall to the session's end): 1 s = 120 px more.
  EXPECT_EQ(placed_length_px(std::vector<double>(60, kFps60), kDefaults, 1000.0), 120.0 + 120.0);
  // A span no int64 of pixels holds is still measured.
  EXPECT_GT(placed_length_px(std::vector<double>{9.2e15, 9.2e15}, kDefaults), 2e15);
}

TEST(Placement, RandomFramesAreContiguousAtLeastOnePixelAndEndAtCeilOfTotal) {
  std::mt19937 rng(7);
  std::lognormal_distribution<double> dt(std::log(12.0), 0.8);
  std::vector<double> ms(5000);
  double total_px = 0;
  for (double& m : ms) {
    m = dt(rng);
    total_px += m / kFps120;
  }
  const FramePlacement p = place_frames(ms, kDefaults);
  for (std::size_t i = 0; i < p.spans.size(); ++i) {
    const FrameSpan& s = p.spans[i];
    const double exact = ms[i] / kFps120;
    EXPECT_GE(s.right_px - s.left_px, 1);
    EXPECT_GE(static_cast<double>(s.right_px - s.left_px), exact - 1e-6);
    EXPECT_LE(static_cast<double>(s.right_px - s.left_px), exact + 2.0);
    if (i > 0) {
      // The next frame starts in the pixel where this one ended: no gap, at most one shared.
      const int64_t prev_right = p.spans[i - 1].right_px;
      EXPECT_TRUE(s.left_px == prev_right || s.left_px == prev_right - 1) << "frame " << i;
    }
  }
  EXPECT_EQ(p.length_px, static_cast<int64_t>(std::ceil(total_px - 1e-6)));
}

TEST(Placement, UnknownDurationsAreCountedNotDrawn) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> ms{kFps60, nan, kFps60, -1.0, kFps60};
  const FramePlacement p = place_frames(ms, kDefaults);
  EXPECT_EQ(p.unknown_frames, 2u);
  ASSERT_EQ(p.spans.size(), 3u);
  EXPECT_EQ(p.spans[1].frame, 2u);
  EXPECT_EQ(p.spans[1].left_px, 2);  // the unknown frame did not move the time axis
  EXPECT_EQ(p.length_px, 6);
}

TEST(Rows, FrameCrossingTheRowEndContinuesOnTheNextRow) {
  FrameGraphOptions o;
  o.row_width_px = 100;
  const std::vector<double> ms(34, 3 * kFps120);  // 3 px each: frame 33 covers 99..102
  const FramePlacement p = place_frames(ms, o);
  EXPECT_EQ(row_count(p, o), 2);
  const std::vector<FrameBar> bars = wrap_into_rows(p, o);
  ASSERT_EQ(bars.size(), 35u);
  int pieces_of_33 = 0;
  for (const FrameBar& b : bars) {
    EXPECT_GE(b.width, 1);
    EXPECT_LE(b.x + b.width, 100);
    if (b.frame != 33) continue;
    ++pieces_of_33;
    if (b.row == 0) {
      EXPECT_EQ(b.x, 99);
      EXPECT_EQ(b.width, 1);
    } else {
      EXPECT_EQ(b.row, 1);
      EXPECT_EQ(b.x, 0);
      EXPECT_EQ(b.width, 2);
    }
  }
  EXPECT_EQ(pieces_of_33, 2);
}

TEST(Rows, HitchLongerThanARowSpansSeveralRows) {
  FrameGraphOptions o;
  o.row_width_px = 100;
  const std::vector<double> ms{kFps120, 250 * kFps120, kFps120};  // 1 + 250 + 1 px
  const FramePlacement p = place_frames(ms, o);
  EXPECT_EQ(p.length_px, 252);
  EXPECT_EQ(row_count(p, o), 3);
  const std::vector<FrameBar> bars = wrap_into_rows(p, o);
  ASSERT_EQ(bars.size(), 5u);
  int hitch_px = 0;
  for (const FrameBar& b : bars) {
    if (b.frame == 1) {
      hitch_px += b.width;
      EXPECT_EQ(b.height, 64);
    }
  }
  EXPECT_EQ(hitch_px, 250);
}

TEST(Rows, SlowerFramesAreDrawnLastSoTheyWinSharedPixels) {
  const std::vector<double> ms{kFps30, 0.6 * kFps120, kFps15, kFps60};
  const std::vector<FrameBar> bars = wrap_into_rows(place_frames(ms, kDefaults), kDefaults);
  ASSERT_EQ(bars.size(), 4u);
  EXPECT_EQ(bars[0].frame, 1u);
  EXPECT_EQ(bars[1].frame, 3u);
  EXPECT_EQ(bars[2].frame, 0u);
  EXPECT_EQ(bars[3].frame, 2u);
  EXPECT_EQ(bars[0].height, 2);
  EXPECT_EQ(bars[1].height, 23);  // 22.67 rounded
  EXPECT_EQ(bars[2].height, 43);  // 43.33 rounded
  EXPECT_EQ(bars[3].height, 64);
}

TEST(Rows, EmptySessionStillHasOneRow) {
  const FramePlacement p = place_frames({}, kDefaults);
  EXPECT_EQ(row_count(p, kDefaults), 1);
  EXPECT_TRUE(wrap_into_rows(p, kDefaults).empty());
}

}  // namespace
}  // namespace pictor::report
