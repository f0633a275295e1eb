// A disturbed test run (mark/disturbance.h): judged by the spread of its later ramps' change
// points, and run again until an attempt is not disturbed.
#include "mark/disturbance.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace pictor::mark {
namespace {

std::vector<RampRecord> ramps(const std::vector<double>& change_points) {
  std::vector<RampRecord> out;
  for (double c : change_points) {
    RampRecord r;
    r.regression.change_point = c;
    out.push_back(r);
  }
  return out;
}

TEST(Disturbance, TheLaterRampsSpreadSeparatesTheMeasuredRuns) {
  // Paths #1 of docs/performance.md's five quiet-machine runs (scored 255 while something else
  // took the CPU): its ten ramps' change points; against ten within the range that an
  // undisturbed run of the same test found (992–1483, scored 1202).
  const auto quiet = later_ramps_cv(ramps({1100, 992, 1483, 1201, 1150, 1302, 1040, 1260, 1187, 1333}));
  const auto disturbed = later_ramps_cv(ramps({113, 639, 237, 148, 934, 1270, 1037, 336, 1392, 1192}));
  ASSERT_TRUE(quiet && disturbed);
  EXPECT_LT(*quiet, kDisturbedRampCv);
  EXPECT_GT(*disturbed, kDisturbedRampCv);
  // The first ramp is left out: a slow warm-up ramp alone (Suits: 0.18 of the others) is no
  // disturbance.
  const auto warm = later_ramps_cv(ramps({280, 1590, 1610, 1560, 1640, 1600}));
  ASSERT_TRUE(warm);
  EXPECT_LT(*warm, 0.05);
  // The sample standard deviation over the mean: {2, 4, 6} -> 2 / 4.
  EXPECT_DOUBLE_EQ(*later_ramps_cv(ramps({100, 2, 4, 6})), 0.5);
}

TEST(Disturbance, TooFewLaterRampsGiveNoVerdict) {
  EXPECT_FALSE(later_ramps_cv(ramps({})));
  EXPECT_FALSE(later_ramps_cv(ramps({10, 20, 30})));  // two later ramps (a 10 s test)
  EXPECT_TRUE(later_ramps_cv(ramps({10, 20, 30, 40})));
  EXPECT_FALSE(later_ramps_cv(ramps({10, 0, 0, 0})));  // no positive mean
}

AttemptVerdict verdict(double ramp_cv, bool disturbed) {
  AttemptVerdict v;
  v.ramp_cv = ramp_cv;
  v.disturbed = disturbed;
  return v;
}

TEST(Disturbance, ADisturbedAttemptIsRunAgainAndTheFirstQuietOneKept) {
  const std::vector<AttemptVerdict> script = {verdict(0.6, true), verdict(0.1, false), verdict(0.05, false)};
  std::vector<AttemptVerdict> seen;
  std::size_t calls = 0;
  const auto keep = pick_attempt(2, [&] { return script[calls++]; }, seen);
  EXPECT_EQ(keep, 1U);
  EXPECT_EQ(calls, 2U);  // stops at the first quiet attempt
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_TRUE(seen[0].disturbed);
}

TEST(Disturbance, EveryAttemptDisturbedKeepsTheLeastDisturbed) {
  const std::vector<AttemptVerdict> script = {verdict(0.6, true), verdict(0.4, true), verdict(0.9, true)};
  std::vector<AttemptVerdict> seen;
  std::size_t calls = 0;
  EXPECT_EQ(pick_attempt(2, [&] { return script[calls++]; }, seen), 1U);
  EXPECT_EQ(calls, 3U);  // retries + 1 attempts, no more
}

TEST(Disturbance, NoRetriesRunsOnceWhateverTheVerdict) {
  std::vector<AttemptVerdict> seen;
  std::size_t calls = 0;
  EXPECT_EQ(pick_attempt(0, [&] { ++calls; return verdict(0.9, true); }, seen), 0U);
  EXPECT_EQ(calls, 1U);
}

TEST(Disturbance, CpuStealIsReadFromProcStat) {
  // Every Linux kernel since 2.6.11 has the field; it only grows.
  const auto a = cpu_steal_seconds();
  ASSERT_TRUE(a);
  EXPECT_GE(*a, 0.0);
  EXPECT_GE(*cpu_steal_seconds(), *a);
}

TEST(Disturbance, TheCpuProbeTimesRealWorkInThreadCpuTime) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto ms = cpu_probe_ms();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(ms);
  // 2^23 dependent multiply-xorshift steps are at least ~3 cycles each: several milliseconds on
  // any CPU of today; a chain the compiler had dropped would take microseconds.
  EXPECT_GT(*ms, 2.0);
  // The thread's CPU time never exceeds the wall time around it.
  EXPECT_LE(*ms, wall_ms + 0.5);
}

TEST(Disturbance, TheMemoryProbeReadsTheWholeBufferInThreadCpuTime) {
  memory_probe_ms();  // the first call also allocates and touches the buffer (not timed)
  const auto t0 = std::chrono::steady_clock::now();
  const auto ms = memory_probe_ms();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(ms);
  // 256 MiB read: even at 100 GB/s that is over 2.5 ms; a loop the compiler had dropped would
  // take microseconds.
  EXPECT_GT(*ms, 2.5);
  EXPECT_LE(*ms, wall_ms + 0.5);
}

}  // namespace
}  // namespace pictor::mark
