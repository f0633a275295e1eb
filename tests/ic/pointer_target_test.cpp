// The pointer-target head's labels, choice and aim: which slot a pointer event goes to on a
// constructed frame (inside a box, nearest within the radius, none), the event-type reweighting,
// the aim point, the training statistics, and the pointer events read from a recording.
#include "ic/pointer_target.h"

#include <gtest/gtest.h>

#include "ic/training_data.h"

namespace pictor::ic {
namespace {

const FeatureLayout kLayout{2, 2};  // classes unit (0) and crystal (1), two slots each

// Features of a frame holding these objects (confidence 1: ties fill slots left to right).
std::vector<float> frame(std::vector<Detection> objects) { return frame_features(objects, kLayout); }

TEST(PointerTarget, EntriesAreTheSlotsThenNoObject) {
  EXPECT_EQ(target_entries(kLayout), 5);
  EXPECT_EQ(no_target(kLayout), 4);
  const auto f = frame({{1, 0.7f, 0.4f, 0.1f, 0.2f}});
  ASSERT_TRUE(slot_box(f, kLayout, 2).has_value());  // class 1, rank 0
  EXPECT_EQ(slot_box(f, kLayout, 2)->cls, 1);
  EXPECT_FLOAT_EQ(slot_box(f, kLayout, 2)->cx, 0.7f);
  EXPECT_FALSE(slot_box(f, kLayout, 0).has_value());  // empty slot
  EXPECT_FALSE(slot_box(f, kLayout, 4).has_value());  // "no object" is not a box
}

TEST(PointerTarget, LabelIsTheBoxHoldingThePointer) {
  // A unit (small) standing on a crystal (large), and a second unit to the right.
  const auto f = frame({{0, 0.30f, 0.50f, 0.04f, 0.08f}, {1, 0.31f, 0.52f, 0.20f, 0.30f}, {0, 0.80f, 0.50f, 0.04f, 0.08f}});
  // Slots: unit@0.30 = 0, unit@0.80 = 1, crystal = 2.
  EXPECT_EQ(label_target(f, kLayout, 0.30, 0.514, 16.0 / 9.0), 0);  // inside both: the smaller one
  EXPECT_EQ(label_target(f, kLayout, 0.38, 0.60, 16.0 / 9.0), 2);   // only inside the crystal
  EXPECT_EQ(label_target(f, kLayout, 0.80, 0.53, 16.0 / 9.0), 1);
}

TEST(PointerTarget, LabelFallsBackToTheNearestCentreWithinTheRadius) {
  const auto f = frame({{0, 0.50f, 0.50f, 0.02f, 0.02f}, {1, 0.60f, 0.50f, 0.02f, 0.02f}});
  // 0.03 of the width right of the unit's centre, outside its box: within the 0.05 radius.
  EXPECT_EQ(label_target(f, kLayout, 0.53, 0.50, 16.0 / 9.0), 0);
  // Nearer the crystal.
  EXPECT_EQ(label_target(f, kLayout, 0.57, 0.50, 16.0 / 9.0), 2);
  // Vertical distances count in width units: 0.08 of the height is 0.045 of the width (inside
  // the radius) on a 16:9 window, 0.08 on a square one (outside).
  EXPECT_EQ(label_target(f, kLayout, 0.50, 0.58, 16.0 / 9.0), 0);
  EXPECT_EQ(label_target(f, kLayout, 0.50, 0.58, 1.0), no_target(kLayout));
  // Far from everything, and a frame with no object at all: no object.
  EXPECT_EQ(label_target(f, kLayout, 0.10, 0.90, 16.0 / 9.0), no_target(kLayout));
  EXPECT_EQ(label_target(frame({}), kLayout, 0.5, 0.5, 16.0 / 9.0), no_target(kLayout));
  // A radius of 0: only boxes holding the point.
  EXPECT_EQ(label_target(f, kLayout, 0.53, 0.50, 16.0 / 9.0, 0.0), no_target(kLayout));
}

TEST(PointerTarget, ChoiceWeighsTheEventTypeAndSkipsEmptySlots) {
  const auto f = frame({{0, 0.2f, 0.5f, 0.05f, 0.1f}, {1, 0.7f, 0.5f, 0.1f, 0.1f}});  // slots 0 and 2
  // The head favours slot 1 (empty), then the crystal, then the unit.
  const std::vector<float> p{0.2f, 0.4f, 0.3f, 0.0f, 0.1f};
  // Events: press of entry 0 (button1), press of entry 1 (button3), move. Units get button1,
  // crystals button3; "no object" rows split evenly.
  const std::vector<std::vector<double>> given{{0.9, 0.05, 0.05}, {0.05, 0.9, 0.05}, {1.0 / 3, 1.0 / 3, 1.0 / 3}};
  const TargetChoice b1 = choose_target(p, f, kLayout, given, 0);
  EXPECT_EQ(b1.slot, 0);  // 0.2 x 0.9 beats 0.3 x 0.05; the empty slot 1 is never chosen
  const double z1 = 0.2 * 0.9 + 0.3 * 0.05 + 0.1 / 3;
  EXPECT_NEAR(b1.posterior, 0.2 * 0.9 / z1, 1e-6);
  const TargetChoice b3 = choose_target(p, f, kLayout, given, 1);
  EXPECT_EQ(b3.slot, 2);
  // Without statistics for the event (out of range): the head's own probabilities.
  const TargetChoice raw = choose_target(p, f, kLayout, {}, 0);
  EXPECT_EQ(raw.slot, 2);
  EXPECT_NEAR(raw.posterior, 0.3 / (0.2 + 0.3 + 0.1), 1e-6);
  // Nothing on screen: no slot.
  EXPECT_EQ(choose_target(p, frame({}), kLayout, given, 0).slot, -1);
}

TEST(PointerTarget, AimPointIsTheOffsetKeptInsideTheBox) {
  const SlotBox b{0, 0.5f, 0.5f, 0.2f, 0.1f};
  const auto [x, y] = aim_point(b, 0.0, 0.2);  // the teacher's y0 + 0.7 h
  EXPECT_NEAR(x, 0.5, 1e-6);
  EXPECT_NEAR(y, 0.52, 1e-6);
  const auto [x2, y2] = aim_point(b, 3.0, -3.0);  // clamped to the box's edges
  EXPECT_NEAR(x2, 0.6, 1e-6);
  EXPECT_NEAR(y2, 0.45, 1e-6);
  const auto [x3, y3] = aim_point(SlotBox{0, 0.99f, 0.01f, 0.1f, 0.1f}, 0.5, -0.5);  // and to the frame
  EXPECT_DOUBLE_EQ(x3, 1.0);
  EXPECT_DOUBLE_EQ(y3, 0.0);
}

TEST(PointerTarget, StatisticsAverageOffsetsAndSmoothShares) {
  TargetStats s(2, 3);
  s.add(0, 0, 0.1, 0.2);
  s.add(0, 0, -0.1, 0.2);
  s.add(0, 2, 0.0, 0.2);
  s.add(-1, 2, 9, 9);  // no object: no offset
  const auto off = s.aim_offsets();
  EXPECT_NEAR(off[0][0], 0.0, 1e-9);
  EXPECT_NEAR(off[0][1], 0.2, 1e-9);
  EXPECT_EQ(off[1][0], 0.0);  // never targeted
  const auto given = s.event_given_target();
  ASSERT_EQ(given.size(), 3u);
  EXPECT_NEAR(given[0][0], 3.0 / 6.0, 1e-9);  // (2 + 1) / (3 + 3)
  EXPECT_NEAR(given[0][1], 1.0 / 6.0, 1e-9);
  EXPECT_NEAR(given[1][1], 1.0 / 3.0, 1e-9);  // uniform
  EXPECT_NEAR(given[2][2], 2.0 / 4.0, 1e-9);
}

TEST(PointerTarget, EventsOfARecordingPreferThePress) {
  Recording rec;
  rec.info.vocabulary = {"Up", "button1", "button3"};
  for (int i = 0; i < 4; ++i) rec.frames.push_back({static_cast<std::size_t>(i), 1000 * (i + 1), {}, {}, ""});
  using K = drivers::InputKind;
  rec.inputs = {
      {1100, {K::pointer_motion, 0, 10, 20}},  // frame 0: a move
      {2100, {K::pointer_motion, 0, 30, 40}},  // frame 1: a move, then a press of button3 elsewhere
      {2200, {K::button_press, 3, 50, 60}},
      {2300, {K::button_release, 3, -1, -1}},
      {3100, {K::key_press, 0xff52, -1, -1}},  // frame 2: a key, the pointer stays: no event
      {4100, {K::button_press, 1, -1, -1}},    // frame 3: button1 where the pointer is
  };
  const auto e = derive_pointer_events(rec);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].event, 3);  // the move: vocabulary size
  EXPECT_FLOAT_EQ(e[0].x, 10);
  EXPECT_EQ(e[1].event, 2);
  EXPECT_FLOAT_EQ(e[1].x, 50);
  EXPECT_FLOAT_EQ(e[1].y, 60);
  EXPECT_EQ(e[2].event, -1);
  EXPECT_EQ(e[3].event, 1);
  EXPECT_FLOAT_EQ(e[3].x, 50);
}

}  // namespace
}  // namespace pictor::ic
