// Calibration of the policy's outputs: hold thresholds reproduce a held share, rate scales make
// the expected presses equal the recorded ones, per-step probabilities keep the rate per second.
#include "ic/calibration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pictor::ic {
namespace {

TEST(Calibration, ThresholdReproducesTheHeldShare) {
  const std::vector<float> p{0.1f, 0.9f, 0.3f, 0.7f, 0.5f, 0.2f, 0.8f, 0.4f, 0.6f, 0.05f};
  // 30 % held: exactly the three largest probabilities reach the threshold.
  const double t = threshold_for_fraction(p, 0.3);
  EXPECT_DOUBLE_EQ(t, static_cast<double>(0.7f));
  int above = 0;
  for (const float v : p) above += static_cast<double>(v) >= t;
  EXPECT_EQ(above, 3);
  // A key held on every frame: the smallest probability; never held: above the largest.
  EXPECT_DOUBLE_EQ(threshold_for_fraction(p, 1.0), static_cast<double>(0.05f));
  EXPECT_GT(threshold_for_fraction(p, 0.0), static_cast<double>(0.9f));
  EXPECT_DOUBLE_EQ(threshold_for_fraction({}, 0.4), 0.5);
}

TEST(Calibration, BoundedThresholdAtTheExtremes) {
  // Never held by the teacher: above any probability (the quantile just above the largest
  // held-out one, 0.0004, pressed the key whenever the network was a little less sure live).
  EXPECT_EQ(bounded_threshold(0.00036, 0.0), kNever);
  EXPECT_GT(kNever, 1.0);
  // Held on every frame: the key stays down down to 0.5 even when every held-out frame said 0.997.
  EXPECT_DOUBLE_EQ(bounded_threshold(0.9966, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(bounded_threshold(0.3, 1.0), 0.3);
  // In between: the quantile unchanged.
  EXPECT_DOUBLE_EQ(bounded_threshold(0.9966, 0.98), 0.9966);
  EXPECT_DOUBLE_EQ(bounded_threshold(0.0004, 0.01), 0.0004);
}

TEST(Calibration, ThresholdBelowHalfWhenTheNetworkIsTimid) {
  // The recorded key is down on 40 % of the frames but the network never says more than 0.3:
  // the plain 0.5 threshold would never press it; the calibrated one does, on 4 frames of 10.
  const std::vector<float> p{0.05f, 0.1f, 0.3f, 0.25f, 0.05f, 0.28f, 0.1f, 0.27f, 0.02f, 0.1f};
  const double t = threshold_for_fraction(p, 0.4);
  EXPECT_LT(t, 0.5);
  int above = 0;
  for (const float v : p) above += static_cast<double>(v) >= t;
  EXPECT_EQ(above, 4);
}

TEST(Calibration, ExpectedHeldShareFollowsOnsetsAndReleases) {
  // Onset certain on frame 0, never after; held probability drops below 0.5 on frame 3.
  const std::vector<float> onset{1.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  const std::vector<float> held{0.9f, 0.9f, 0.9f, 0.2f, 0.9f};
  EXPECT_DOUBLE_EQ(expected_held_share(onset, held, 0.5), 3.0 / 5);  // down 0..2, released at 3
  EXPECT_DOUBLE_EQ(expected_held_share(onset, held, 0.1), 1.0);      // never released
  // Half an onset each frame, never released: 0.5, 0.75, 0.875, ...
  const std::vector<float> half(3, 0.5f), one(3, 1.0f);
  EXPECT_DOUBLE_EQ(expected_held_share(half, one, 0.5), (0.5 + 0.75 + 0.875) / 3);
  EXPECT_DOUBLE_EQ(expected_held_share({}, {}, 0.5), 0.0);
}

TEST(Calibration, ReleaseThresholdReproducesTheHeldShareUnderOnsets) {
  // A key pressed now and then (onset 0.05 a frame) and held while the network is confident.
  std::vector<float> onset(400, 0.05f), held(400);
  for (std::size_t i = 0; i < held.size(); ++i) held[i] = static_cast<float>((i * 37) % 100) / 100.0f;
  for (const double target : {0.1, 0.3}) {
    const double t = release_threshold(onset, held, target);
    EXPECT_NEAR(expected_held_share(onset, held, t), target, 0.02) << target;
  }
  // A key down on nearly every frame: releases only where the network is least sure.
  const double all = release_threshold(std::vector<float>(50, 0.5f), std::vector<float>(50, 0.9f), 1.0);
  EXPECT_LE(all, 0.9);
  EXPECT_DOUBLE_EQ(release_threshold({}, {}, 0.4), 0.5);
}

TEST(Calibration, RepressScaleAddsWhatTheStateChangesMiss) {
  // Held on frames 0..9 (one state press), onset 0.1 on each: 9 frames stay down, 0.9 expected.
  const std::vector<float> onset(10, 0.1f), held(10, 0.9f);
  EXPECT_NEAR(repress_scale(onset, held, 0.5, 4.0), 3.0 / 0.9, 1e-5);  // 3 re-presses wanted
  EXPECT_DOUBLE_EQ(repress_scale(onset, held, 0.5, 1.0), 0.0);         // the state press is all
  EXPECT_DOUBLE_EQ(repress_scale(onset, std::vector<float>(10, 0.1f), 0.5, 2.0), 1.0);  // never down
}

TEST(Calibration, RateScaleMatchesTheRecordedCount) {
  const std::vector<float> p(100, 0.01f);  // one press expected over 100 frames
  EXPECT_NEAR(rate_scale(p, 4.0), 4.0, 1e-5);  // four were recorded
  EXPECT_DOUBLE_EQ(rate_scale(p, 0.0), 1.0);   // nothing recorded: leave it
  EXPECT_DOUBLE_EQ(rate_scale(std::vector<float>(5, 0.0f), 3.0), 1.0);
}

TEST(Calibration, StepProbabilityKeepsTheRatePerSecond) {
  // Learnt on 20 ms frames, run every 40 ms: two frames' worth of chances.
  EXPECT_NEAR(step_probability(0.1, 40'000'000, 20'000'000), 1 - 0.9 * 0.9, 1e-12);
  EXPECT_NEAR(step_probability(0.1, 20'000'000, 20'000'000), 0.1, 1e-12);
  EXPECT_NEAR(step_probability(0.19, 10'000'000, 20'000'000), 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(step_probability(1.5, 1, 20'000'000), 1.0);
  EXPECT_DOUBLE_EQ(step_probability(-0.2, 40'000'000, 20'000'000), 0.0);
  EXPECT_DOUBLE_EQ(step_probability(0.3, 40'000'000, 0), 0.3);  // frame interval unknown
  // Expected onsets per second agree whatever the step: small p, rate = p / frame.
  const double per_s_20 = step_probability(0.01, 20'000'000, 20'000'000) * 50;
  const double per_s_33 = step_probability(0.01, 33'333'333, 20'000'000) * 30;
  EXPECT_NEAR(per_s_33, per_s_20, 0.01 * per_s_20);
}

}  // namespace
}  // namespace pictor::ic
