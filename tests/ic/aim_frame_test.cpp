// What a recorded pointer means (target_training.h fit_aim, to_crosshair), on constructed
// tracks: a first-person player whose motion turns toward a box by a fixed gain, a strategy
// player whose pointer lands on the boxes it clicks, and the move to the crosshair frame.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "ic/target_training.h"

namespace pictor::ic {
namespace {

ModelManifest manifest() {
  ModelManifest m;
  m.classes = {"enemy", "pickup"};
  m.vocabulary = {"button1", "w"};  // event types: 0 button1, 1 w, 2 the pointer move
  m.features = FeatureLayout{2, 2};
  m.window_width = 1280;
  m.window_height = 720;
  m.target_radius = 0.05;
  return m;
}
constexpr int kMove = 2;

struct Constructed {
  std::vector<PointerTrack> tracks{1};
  std::vector<std::vector<std::vector<float>>> features{1};
  void frame(std::vector<Detection> objects, int event, std::pair<float, float> at, std::pair<float, float> delta) {
    features[0].push_back(frame_features(objects, manifest().features));
    tracks[0].event.push_back(event);
    tracks[0].at.push_back(at);
    tracks[0].delta.push_back(delta);
  }
  AimFit fit(const std::string& requested) {
    return fit_aim(tracks, features, {features[0].size()}, manifest(), requested);
  }
};

// A first-person player: each frame one enemy somewhere off centre, and a pointer move of 0.34 x
// its offset from the centre; the pointer itself stays near the middle of the window, where the
// enemy is not.
Constructed first_person() {
  Constructed c;
  for (int i = 0; i < 30; ++i) {
    const float ex = 0.5f + 0.3f * std::sin(static_cast<float>(i)), ey = 0.5f + 0.1f * std::cos(static_cast<float>(i) * 0.7f);
    const float px = 0.5f + 0.01f * static_cast<float>(i % 3), py = 0.5f;
    c.frame({{0, ex, ey, 0.03f, 0.12f}}, kMove, {px, py}, {0.34f * (ex - 0.5f), 0.34f * (ey - 0.5f)});
  }
  return c;
}

TEST(AimFrame, MotionTowardBoxesByOneGainIsACrosshair) {
  Constructed c = first_person();
  const AimFit fit = c.fit("auto");
  EXPECT_EQ(fit.frame, "crosshair");
  EXPECT_NEAR(fit.gain, 0.34, 1e-4);
  EXPECT_EQ(fit.move_events, 30u);
  EXPECT_EQ(fit.crosshair_fits, 30u);
  EXPECT_LT(fit.on_a_box, 10u);
  EXPECT_EQ(fit.to_json()["frame"], "crosshair");
  // Forced pointer: the same fit, reported, but the model points.
  const AimFit forced = c.fit("pointer");
  EXPECT_EQ(forced.frame, "pointer");
  EXPECT_NEAR(forced.gain, 0.34, 1e-4);
}

TEST(AimFrame, TurnIntervalIsTheMedianGapBetweenTurnsTowardABox) {
  // A turn toward the enemy every 3rd frame at first, then every 5th (50 ms frames): gaps of
  // 150 ms (x8) and 250 ms (x9) between turns, with frames without an event between them.
  Constructed c;
  int next = 0;
  for (int i = 0; i < 72; ++i) {
    const float ex = 0.5f + 0.3f * std::sin(static_cast<float>(i)), ey = 0.45f;
    const bool turn = i == next;
    if (turn) next += i < 24 ? 3 : 5;
    c.frame({{0, ex, ey, 0.03f, 0.12f}}, turn ? kMove : -1, {0.5f, 0.5f},
            turn ? std::pair{0.34f * (ex - 0.5f), 0.34f * (ey - 0.5f)} : std::pair{0.0f, 0.0f});
  }
  ModelManifest m = manifest();
  m.frame_interval_ms = 50;
  const AimFit fit = fit_aim(c.tracks, c.features, {c.features[0].size()}, m, "auto");
  EXPECT_EQ(fit.frame, "crosshair");
  EXPECT_DOUBLE_EQ(fit.interval_ms, 250.0);
  EXPECT_EQ(fit.to_json()["turn_interval_ms"], 250.0);
  // Without a frame interval, or with under 10 gaps, it is unknown: 0, and null in the report.
  m.frame_interval_ms = 0;
  EXPECT_EQ(fit_aim(c.tracks, c.features, {c.features[0].size()}, m, "auto").interval_ms, 0.0);
  m.frame_interval_ms = 50;
  const AimFit few = fit_aim(c.tracks, c.features, {30}, m, "auto");
  EXPECT_EQ(few.interval_ms, 0.0);
  EXPECT_TRUE(few.to_json()["turn_interval_ms"].is_null());
}

TEST(AimFrame, PointerThatLandsOnTheBoxesItMovesToIsAPointer) {
  // A strategy player: the pointer moves onto a unit (various directions and lengths), so every
  // move event lies in a box; the motion's direction from the centre means nothing.
  Constructed c;
  for (int i = 0; i < 30; ++i) {
    const float ux = 0.2f + 0.02f * static_cast<float>(i), uy = 0.3f + 0.01f * static_cast<float>(i % 7);
    c.frame({{0, ux, uy, 0.04f, 0.08f}, {1, 0.8f, 0.2f, 0.06f, 0.06f}}, kMove, {ux, uy},
            {0.05f * std::cos(static_cast<float>(i) * 2.1f), 0.05f * std::sin(static_cast<float>(i) * 2.1f)});
  }
  const AimFit fit = c.fit("auto");
  EXPECT_EQ(fit.frame, "pointer");
  EXPECT_EQ(fit.on_a_box, 30u);
  EXPECT_GT(fit.on_a_box, fit.crosshair_fits);
}

TEST(AimFrame, ForcedCrosshairNeedsMotionTowardABox) {
  Constructed c;
  for (int i = 0; i < 5; ++i) c.frame({{0, 0.8f, 0.5f, 0.05f, 0.1f}}, kMove, {0.5f, 0.5f}, {-0.05f, 0.0f});  // away from it
  EXPECT_THROW(c.fit("crosshair"), UsageError);
  EXPECT_THROW(c.fit("sideways"), UsageError);
  EXPECT_EQ(c.fit("auto").frame, "pointer");  // nothing to fit: points
}

TEST(AimFrame, PressesAreCountedWithWhatIsUnderTheCentre) {
  Constructed c = first_person();
  c.frame({{0, 0.5f, 0.52f, 0.04f, 0.12f}}, 0, {0.5f, 0.5f}, {0.0f, 0.0f});  // on the enemy
  c.frame({{0, 0.5f, 0.51f, 0.04f, 0.12f}}, 0, {0.5f, 0.5f}, {0.0f, 0.0f});
  c.frame({{0, 0.8f, 0.5f, 0.04f, 0.12f}}, 0, {0.5f, 0.5f}, {0.0f, 0.0f});  // into the air
  const AimFit fit = c.fit("auto");
  EXPECT_EQ(fit.press_events, 3u);
  EXPECT_EQ(fit.press_on_a_box, 2u);
  EXPECT_NEAR(fit.press_on_box_share(), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(fit.move_events, 30u);  // presses are not moves
}

TEST(AimFrame, CrosshairEventsMoveToTheirAimPoints) {
  PointerTrack t;
  t.event = {-1, kMove, 0};
  t.at = {{0.1f, 0.1f}, {0.52f, 0.5f}, {0.3f, 0.7f}};
  t.delta = {{0.0f, 0.0f}, {0.068f, -0.034f}, {0.0f, 0.0f}};
  to_crosshair(t, 0.34, kMove);
  EXPECT_FLOAT_EQ(t.at[0].first, 0.1f);  // no event: untouched
  EXPECT_NEAR(t.at[1].first, 0.7, 1e-6);  // the centre + delta / gain
  EXPECT_NEAR(t.at[1].second, 0.4, 1e-6);
  EXPECT_FLOAT_EQ(t.at[2].first, 0.5f);   // a press fires at the crosshair
  EXPECT_FLOAT_EQ(t.at[2].second, 0.5f);
}

}  // namespace
}  // namespace pictor::ic
