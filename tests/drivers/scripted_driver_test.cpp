// The scripted driver's schedule: taps at the mean rate with bounded gaps, a release after each
// press before the next tap, reproducible by seed, no burst after a stall.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "drivers/scripted_driver.h"

namespace pictor::drivers {
namespace {

struct Sent {
  std::int64_t t;
  Input input;
};

// Calls the driver the way the client does: at each requested time (and also at `extra_every`
// ns steps, like frame arrivals), for `duration` ns from t0.
std::vector<Sent> drive(Driver& d, std::int64_t duration, std::int64_t extra_every = 0) {
  std::vector<Sent> sent;
  const std::int64_t t0 = 1'000'000'000;
  std::int64_t t = t0;
  std::int64_t next_extra = extra_every ? t0 + extra_every : INT64_MAX;
  while (t < t0 + duration) {
    ClientView v;
    v.now_ns = t;
    v.sent = sent.size();
    const Step s = d.step(v);
    for (const auto& in : s.send) sent.push_back({t, in});
    EXPECT_GT(s.next_ns, t) << "the driver must ask for a later call";
    t = std::min(s.next_ns, next_extra);
    if (t == next_extra) next_extra += extra_every;
  }
  return sent;
}

TEST(ScriptedDriver, PressThenReleaseAtRateWithBoundedGaps) {
  ScriptedOptions o;
  o.rate_hz = 10;
  o.keys = {"a", "b", "button2"};
  ScriptedDriver d(o);
  const auto sent = drive(d, 60'000'000'000LL);  // 60 s
  ASSERT_GT(sent.size(), 2u);
  std::size_t presses = 0;
  std::int64_t last_press = -1;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const Sent& s = sent[i];
    if (i % 2 == 0) {
      ASSERT_TRUE(is_press(s.input.kind)) << i;
      ++presses;
      if (last_press >= 0) {
        const std::int64_t gap = s.t - last_press;
        EXPECT_GE(gap, 50'000'000 - 1);   // 0.5 / rate
        EXPECT_LE(gap, 150'000'000 + 1);  // 1.5 / rate
      }
      last_press = s.t;
    } else {
      // The release of the same key or button, one hold (a quarter period) later.
      EXPECT_EQ(s.input.kind, release_of(sent[i - 1].input.kind)) << i;
      EXPECT_EQ(s.input.code, sent[i - 1].input.code) << i;
      EXPECT_EQ(s.t - sent[i - 1].t, 25'000'000) << i;
    }
  }
  // Mean rate: 600 taps expected in 60 s; the gap mean over ~600 draws is within a few %.
  EXPECT_NEAR(static_cast<double>(presses), 600.0, 30.0);
  // Every listed key is used, with roughly equal shares.
  std::map<unsigned, int> uses;
  for (const auto& s : sent)
    if (is_press(s.input.kind)) ++uses[s.input.code];
  ASSERT_EQ(uses.size(), 3u);
  for (const auto& [code, n] : uses) EXPECT_NEAR(n, static_cast<double>(presses) / 3, 60.0);
}

TEST(ScriptedDriver, SameSeedSameInputsAtSameOffsets) {
  ScriptedOptions o;
  o.rate_hz = 50;
  o.seed = 42;
  ScriptedDriver a(o), b(o);
  // b is also called at frame arrivals (every 16.7 ms); the schedule must not depend on that.
  const auto sa = drive(a, 5'000'000'000LL);
  const auto sb = drive(b, 5'000'000'000LL, 16'666'667);
  ASSERT_EQ(sa.size(), sb.size());
  for (std::size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(sa[i].t, sb[i].t) << i;
    EXPECT_EQ(sa[i].input, sb[i].input) << i;
  }
  o.seed = 43;
  ScriptedDriver c(o);
  const auto sc = drive(c, 5'000'000'000LL);
  bool differs = sc.size() != sa.size();
  for (std::size_t i = 0; !differs && i < sa.size(); ++i)
    differs = sa[i].t != sc[i].t || !(sa[i].input == sc[i].input);
  EXPECT_TRUE(differs);
}

TEST(ScriptedDriver, NoBurstAfterAStall) {
  ScriptedOptions o;
  o.rate_hz = 100;
  ScriptedDriver d(o);
  ClientView v;
  v.now_ns = 0;
  auto s = d.step(v);
  ASSERT_EQ(s.send.size(), 1u);  // the first press at once
  v.now_ns = 2'000'000'000;      // the client stalled for 2 s (200 periods)
  s = d.step(v);
  ASSERT_EQ(s.send.size(), 2u);  // the overdue release, then one press, not 200
  EXPECT_FALSE(is_press(s.send[0].kind));
  EXPECT_TRUE(is_press(s.send[1].kind));
  EXPECT_EQ(s.next_ns, 2'000'000'000 + 2'500'000);  // its release one hold later
}

}  // namespace
}  // namespace pictor::drivers
