// Controllers in closed loop against synthetic frame-time models (no GL): the ramp controller must
// find a known knee, work at other target rates, and expose a stage that caps below its knee.
#include <gtest/gtest.h>

#include <cmath>

#include "mark/pacer.h"
#include "mark/ramp_controller.h"
#include "mark/score.h"
#include "synthetic.h"

namespace pictor::mark {
namespace {

using testing::DisplayModel;
using testing::simulate;
using testing::SyntheticStage;

// Linear cost through the origin: exactly one frame period at `knee` elements.
DisplayModel linear_knee(double fps, double knee) {
  DisplayModel d;
  d.fps = fps;
  d.cost = [fps, knee](double c) { return c * (1000 / fps) / knee; };
  return d;
}

TEST(RampController, ThresholdsAndRampLength) {
  RampController r({});
  EXPECT_DOUBLE_EQ(r.frame_length_desired(), 1000.0 / 60);
  EXPECT_DOUBLE_EQ(r.frame_length_desired_threshold(), 1000.0 / 58);
  EXPECT_DOUBLE_EQ(r.frame_length_tier_threshold(), 1000.0 / 30);
  EXPECT_DOUBLE_EQ(r.frame_length_ramp_lower_threshold(), 1000.0 / 45);
  EXPECT_DOUBLE_EQ(r.frame_length_ramp_upper_threshold(), 50);
  EXPECT_EQ(r.ramp_length(), 2900);
  RampController shorter({60, 5000});
  EXPECT_EQ(shorter.ramp_length(), 4900);
}

TEST(RampController, LinearKneeAt1000IsFoundWithin1Percent) {
  SyntheticStage stage;
  RampController controller({});
  simulate(stage, controller, linear_knee(60, 1000));
  ASSERT_GE(controller.ramps().size(), 8u);
  const auto score = score_samples(controller.scored_samples(), 60);
  EXPECT_NEAR(score.score, 1000, 10);
  EXPECT_LE(score.lower, score.score);
  EXPECT_GE(score.upper, score.score);
  EXPECT_NEAR(score.regression.change_point, 1000, 10);
}

TEST(RampController, MatchesMotionMarkSampleForSample) {
  // The same closed loop run through MotionMark 1.3.1's own Controller/RampController code under
  // Node (same model, same PRNG noise) gave these samples and ramps; Pictor must be identical.
  SyntheticStage stage;
  RampController controller({});
  simulate(stage, controller, linear_knee(60, 1000));
  const auto& s = controller.samples();
  ASSERT_EQ(s.size(), 1825u);
  EXPECT_EQ(s[100].complexity, 100);
  EXPECT_DOUBLE_EQ(s[100].time, 4683.33333333333);
  EXPECT_DOUBLE_EQ(s[100].smoothed_frame_length, 16.66666666666697);
  EXPECT_EQ(s[1000].complexity, 884);
  EXPECT_DOUBLE_EQ(s[1000].time, 22591.103211933023);
  EXPECT_EQ(s.back().type, FrameType::Mutation);
  EXPECT_EQ(s.back().complexity, 1361);
  const std::size_t bounds[][2] = {{249, 382},  {393, 542},   {555, 707},   {720, 870},   {883, 1032},
                                   {1045, 1186}, {1199, 1346}, {1359, 1505}, {1518, 1664}, {1677, 1823}};
  const double change_points[] = {999.7693037858211, 1002.8654748722579, 998.526325596131, 1000.6262604670769,
                                  999.5490641578969, 998.1588525079252, 1001.5180410087016, 1002.766102558069,
                                  998.3957398741173, 1001.9820365053317};
  ASSERT_EQ(controller.ramps().size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(controller.ramps()[i].start_index, bounds[i][0]) << i;
    EXPECT_EQ(controller.ramps()[i].end_index, bounds[i][1]) << i;
    EXPECT_DOUBLE_EQ(controller.ramps()[i].regression.change_point, change_points[i]) << i;
  }
}

TEST(RampController, TargetOf120Fps) {
  SyntheticStage stage;
  RampController controller({120, 30000});
  simulate(stage, controller, linear_knee(120, 500));
  const auto score = score_samples(controller.scored_samples(), 120);
  EXPECT_NEAR(score.score, 500, 5);
  // The same scene at a 60 fps target allows twice as many elements.
  auto d = linear_knee(120, 500);
  d.fps = 60;
  SyntheticStage stage60;
  RampController controller60({});
  simulate(stage60, controller60, d);
  EXPECT_NEAR(score_samples(controller60.scored_samples(), 60).score, 1000, 10);
}

TEST(RampController, StageCappedBelowItsKneeIsReportedAsSuch) {
  SyntheticStage stage(300);
  RampController controller({});
  simulate(stage, controller, linear_knee(60, 1000));
  EXPECT_TRUE(reached_stage_maximum(controller, stage));
  const auto score = score_samples(controller.scored_samples(), 60);
  // The stage never slowed down: the score is (close to) the cap, not a capacity.
  // (Flat data scores below the cap: MotionMark's fit of a flat line, see score_test's flat.json.)
  EXPECT_LE(score.score, 300);
  EXPECT_GT(score.score, 100);
  EXPECT_GT(score.negative_slope_share, 0.0);
  EXPECT_TRUE(capped_by_stage(score, 300, 60));

  // A stage whose maximum lies past its knee reaches the maximum in the tiers but slows down
  // before it: a genuine change point, not capped.
  SyntheticStage roomy(1500);
  RampController roomy_controller({});
  simulate(roomy, roomy_controller, linear_knee(60, 1000));
  const auto roomy_score = score_samples(roomy_controller.scored_samples(), 60);
  EXPECT_TRUE(reached_stage_maximum(roomy_controller, roomy));
  EXPECT_FALSE(capped_by_stage(roomy_score, 1500, 60));
  EXPECT_NEAR(roomy_score.score, 1000, 15);

  SyntheticStage free_stage;
  RampController free_controller({});
  simulate(free_stage, free_controller, linear_knee(60, 1000));
  EXPECT_FALSE(reached_stage_maximum(free_controller, free_stage));
}

TEST(RampController, TiersFollowTheExponentialSequence) {
  // A stage that is always fast climbs the tiers until the slow one at 1e6 elements.
  SyntheticStage stage;
  RampController controller({60, 30000});
  DisplayModel d;
  d.cost = [](double c) { return c < 30000 ? 1.0 : 40.0; };
  simulate(stage, controller, d);
  std::vector<double> tiers;
  for (const auto& s : controller.samples())
    if (!controller.finished_tier_sampling() || s.time <= controller.sampling_start())
      if (tiers.empty() || tiers.back() != s.complexity) tiers.push_back(s.complexity);
  const std::vector<double> expected{1, 2, 3, 10, 32, 100, 178, 316, 562, 1000, 1778, 3162, 5623, 10000, 17783, 23714};
  ASSERT_GE(tiers.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(tiers[i], expected[i]) << i;
}

TEST(RampController, QuantisedFramesStillBracketTheKnee) {
  // vsync-like display: frames jump from 1 to 2 periods at the knee (MARK.md §7's poor fit).
  SyntheticStage stage;
  RampController controller({});
  auto d = linear_knee(60, 1000);
  d.quantised = true;
  simulate(stage, controller, d);
  const auto score = score_samples(controller.scored_samples(), 60);
  EXPECT_GT(score.score, 500);
  EXPECT_LT(score.score, 1100);
}

TEST(FixedController, HoldsTheComplexity) {
  SyntheticStage stage;
  FixedController controller({60, 3000}, 250);
  simulate(stage, controller, linear_knee(60, 1000));
  EXPECT_EQ(stage.complexity(), 250);
  const auto rows = controller.scored_samples();
  ASSERT_GT(rows.size(), 150u);
  for (const auto& r : rows) EXPECT_EQ(r.complexity, 250);
}

TEST(TestLoop, WarmsUpAtZeroDeltaForTwoSecondsAndThirtyFrames) {
  SyntheticStage stage;
  FixedController controller({60, 1000}, 5);
  TestLoop loop(stage, controller);
  EXPECT_EQ(stage.complexity(), 5);
  double t = 100;
  while (!loop.warmed_up()) {
    ASSERT_TRUE(loop.frame(t));
    t += 100;  // slow frames: the time condition is met before the frame count
  }
  EXPECT_EQ(controller.start_timestamp(), 100 + 30 * 100);
  for (double d : stage.deltas) EXPECT_EQ(d, 0);
  ASSERT_TRUE(loop.frame(t));
  EXPECT_EQ(stage.deltas.back(), 100);
  // The test ends after its interval: the next frame past the end is not drawn.
  while (loop.frame(t)) t += 100;
  EXPECT_GT(t, controller.start_timestamp() + 1000);
}

}  // namespace
}  // namespace pictor::mark

namespace pictor::mark {
namespace {

TEST(FrameRateDetection, PicksTheNearestStandardRate) {
  EXPECT_EQ(pick_frame_rate(0, 5000, 300), 60);
  EXPECT_EQ(pick_frame_rate(100, 2600, 300), 120);
  EXPECT_EQ(pick_frame_rate(0, 300 * 1000.0 / 144, 300), 144);
  EXPECT_EQ(pick_frame_rate(0, 300 * 1000.0 / 88, 300), 90);
  // 52.5 Hz: |round(45 − 52.5)| = 7 (JS rounds −7.5 up) beats |round(60 − 52.5)| = 8.
  EXPECT_EQ(pick_frame_rate(0, 300 * 1000.0 / 52.5, 300), 45);
  EXPECT_EQ(pick_frame_rate(10, 10, 300), 60);  // no time passed: detection failed
}

}  // namespace
}  // namespace pictor::mark
