// The baseline drivers' timing on constructed timelines: replay times, gating on similar frames
// with threshold and timeout, slow-motion's one-in-flight rule.
#include "ic/baseline_drivers.h"

#include <gtest/gtest.h>

#include <X11/keysym.h>

namespace pictor::ic {
namespace {

using drivers::ClientView;
using drivers::Input;
using drivers::InputKind;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kT0 = 1'000 * kMs;

std::vector<TimedInput> taps() {
  return {{0, Input{InputKind::key_press, XK_Up}},
          {100 * kMs, Input{InputKind::key_release, XK_Up}},
          {250 * kMs, Input{InputKind::key_press, XK_Left}},
          {300 * kMs, Input{InputKind::key_release, XK_Left}}};
}

ClientView at(std::int64_t t, std::uint64_t sent = 0, std::optional<std::uint64_t> tag = std::nullopt) {
  ClientView v;
  v.now_ns = kT0 + t;
  v.sent = sent;
  v.tag = tag;
  return v;
}

TEST(Replay, SendsAtRecordedOffsets) {
  ReplayDriver d("replay:x", taps(), {});
  auto s = d.step(at(0));
  ASSERT_EQ(s.send.size(), 1u);
  EXPECT_EQ(s.next_ns, kT0 + 100 * kMs);
  EXPECT_TRUE(d.step(at(99 * kMs)).send.empty());
  s = d.step(at(100 * kMs));
  ASSERT_EQ(s.send.size(), 1u);
  EXPECT_EQ(s.send[0].kind, InputKind::key_release);
  // A late call sends what is due, and the schedule after it shifts by the lateness: the
  // recorded gap to the next input is kept rather than sent in a burst.
  s = d.step(at(320 * kMs));
  ASSERT_EQ(s.send.size(), 1u);
  EXPECT_EQ(d.shift_ns(), 70 * kMs);
  EXPECT_EQ(s.next_ns, kT0 + 370 * kMs);
  EXPECT_FALSE(s.finished);
  s = d.step(at(370 * kMs));
  ASSERT_EQ(s.send.size(), 1u);
  EXPECT_TRUE(s.finished);
}

// A 64x36 gray image of one value, as the client would pass it.
struct Frame {
  std::vector<std::uint8_t> px;
  tag::ImageView view;
  explicit Frame(std::uint8_t v) : px(64 * 36, v), view{px.data(), 64, 36, 64, tag::PixelFormat::gray} {}
};

GrayThumb thumb(std::uint8_t v) { return GrayThumb{64, 36, std::vector<std::uint8_t>(64 * 36, v)}; }

TEST(GatedReplay, WaitsForSimilarFrameThenShiftsSchedule) {
  // Input 0 refers to frame 0 (dark), inputs 2-3 to frame 1 (bright); input 1 shares frame 0.
  GatedReplayDriver d("gated-replay:x", taps(), {}, {0u, 0u, 1u, 1u}, {thumb(20), thumb(200)},
                      GateOptions{10.0, 500 * kMs});
  Frame dark(25), bright(205), other(120);
  ClientView v = at(0);
  v.image = &dark.view;
  v.frames_seen = 1;
  EXPECT_EQ(d.step(v).send.size(), 1u);  // |25-20| = 5 <= 10
  v = at(100 * kMs);
  v.image = &other.view;
  v.frames_seen = 2;
  EXPECT_EQ(d.step(v).send.size(), 1u);  // same reference as input 0: not gated again
  v = at(250 * kMs);
  v.image = &other.view;
  v.frames_seen = 3;
  const auto s = d.step(v);
  EXPECT_TRUE(s.send.empty());           // |120-200| = 80 > 10: wait
  EXPECT_EQ(s.next_ns, kT0 + 255 * kMs);
  v = at(290 * kMs);
  v.image = &bright.view;
  v.frames_seen = 4;
  EXPECT_EQ(d.step(v).send.size(), 1u);  // similar now, 40 ms late
  EXPECT_EQ(d.shift_ns(), 40 * kMs);
  EXPECT_TRUE(d.step(at(339 * kMs)).send.empty());  // the release keeps its 50 ms gap
  EXPECT_EQ(d.step(at(340 * kMs)).send.size(), 1u);
  EXPECT_EQ(d.report()["timeouts"], 0);
}

TEST(GatedReplay, SendsAfterTimeout) {
  GatedReplayDriver d("gated-replay:x", taps(), {}, {0u, 0u, 0u, 0u}, {thumb(0)}, GateOptions{5.0, 500 * kMs});
  Frame wrong(255);
  ClientView v = at(0);
  v.image = &wrong.view;
  v.frames_seen = 1;
  EXPECT_TRUE(d.step(v).send.empty());
  v.now_ns = kT0 + 499 * kMs;
  EXPECT_TRUE(d.step(v).send.empty());
  v.now_ns = kT0 + 500 * kMs;
  EXPECT_EQ(d.step(v).send.size(), 1u);
  EXPECT_EQ(d.report()["timeouts"], 1);
  EXPECT_EQ(d.shift_ns(), 500 * kMs);
}

TEST(SlowMotion, OneInputInFlight) {
  SlowMotionDriver d("slow-motion:x", taps(), {}, 1000 * kMs);
  EXPECT_EQ(d.step(at(0, 0)).send.size(), 1u);
  // Input 1 is due at 100 ms but input 1's predecessor (tag 1) is not answered until 180 ms.
  EXPECT_TRUE(d.step(at(100 * kMs, 1, 0)).send.empty());
  EXPECT_TRUE(d.step(at(150 * kMs, 1, std::nullopt)).send.empty());
  EXPECT_EQ(d.step(at(180 * kMs, 1, 1)).send.size(), 1u);
  EXPECT_EQ(d.shift_ns(), 80 * kMs);
  // Input 2 due at 250 + 80 ms; the answer to input 2 (tag 2) is already there.
  EXPECT_TRUE(d.step(at(329 * kMs, 2, 2)).send.empty());
  EXPECT_EQ(d.step(at(330 * kMs, 2, 2)).send.size(), 1u);
  // No answer to input 3: the timeout lets the last input go 1 s after it was due.
  EXPECT_TRUE(d.step(at(380 * kMs, 3, 2)).send.empty());
  EXPECT_TRUE(d.step(at(1379 * kMs, 3, 2)).send.empty());
  EXPECT_EQ(d.step(at(1380 * kMs, 3, 2)).send.size(), 1u);
  EXPECT_EQ(d.report()["timeouts"], 1);
}

TEST(Replay, RelativeInputsStartAtZero) {
  const auto r = relative_inputs({{500, Input{InputKind::key_press, XK_a}}, {800, Input{InputKind::key_release, XK_a}}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].offset_ns, 0);
  EXPECT_EQ(r[1].offset_ns, 300);
}

}  // namespace
}  // namespace pictor::ic
