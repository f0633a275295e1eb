// The statistics of `pictor compare` and repeated runs on constructed samples whose answer is
// known: resampling, percentile intervals, verdicts in both directions, the CI gate, the level.
#include "analysis/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "analysis/bootstrap.h"
#include "core/error.h"

namespace pictor::analysis {
namespace {

// A session of n frames around `frame_ms` (uniform ± jitter) and m inputs around `rtt_ms`, with
// one stage column AL_ms that holds a third of each RTT.
SessionSamples session(std::size_t n, double frame_ms, std::size_t m, double rtt_ms, std::uint64_t seed,
                       double jitter = 0.2) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  SessionSamples s;
  for (std::size_t i = 0; i < n; ++i) s.frame_ms.push_back(frame_ms * (1 + u(rng)));
  s.stutter.assign(n, 0);
  s.columns = {"AL_ms"};
  s.stage_ms.resize(1);
  for (std::size_t i = 0; i < m; ++i) {
    s.rtt_ms.push_back(rtt_ms * (1 + u(rng)));
    s.stage_ms[0].push_back(s.rtt_ms.back() / 3);
  }
  return s;
}

const MetricComparison& metric(const Comparison& c, const std::string& name) {
  for (const MetricComparison& m : c.metrics)
    if (m.metric.name == name) return m;
  throw std::runtime_error("no metric " + name);
}

TEST(Bootstrap, BlockResampleKeepsRunsOfConsecutiveFramesAndWraps) {
  std::mt19937_64 rng(7);
  std::vector<std::size_t> idx;
  resample_blocks(rng, 100, 30, idx);
  ASSERT_EQ(idx.size(), 100u);
  // Inside each block of 30 every index follows the previous one, modulo n.
  for (std::size_t k = 0; k < idx.size(); ++k)
    if (k % 30 != 0) {
      EXPECT_EQ(idx[k], (idx[k - 1] + 1) % 100) << "at " << k;
    }
  // A block longer than the series is clamped: one full cycle.
  resample_blocks(rng, 5, 50, idx);
  ASSERT_EQ(idx.size(), 5u);
  for (std::size_t k = 1; k < 5; ++k) EXPECT_EQ(idx[k], (idx[k - 1] + 1) % 5);
}

TEST(Bootstrap, PercentileIntervalLeavesOutNanAndIsNanWhenNothingIsFinite) {
  std::vector<double> v;
  for (int i = 1; i <= 1000; ++i) v.push_back(i);
  v.push_back(std::nan(""));
  const Interval i = percentile_interval(v, 0.95);
  EXPECT_NEAR(i.lo, 25, 1.5);
  EXPECT_NEAR(i.hi, 975, 1.5);
  std::vector<double> none{std::nan(""), std::nan("")};
  const Interval n = percentile_interval(none, 0.95);
  EXPECT_TRUE(std::isnan(n.lo) && std::isnan(n.hi));
}

TEST(CompareSessions, SlowerFramesAndLongerRttAreWorseWithIntervalsAroundTheDifference) {
  const SessionSamples a = session(3000, 10.0, 60, 20.0, 1), b = session(3000, 12.0, 60, 30.0, 2);
  const Comparison c = compare_sessions(a, b);
  EXPECT_EQ(c.method, "within-session");
  const MetricComparison& fps = metric(c, "fps");
  EXPECT_EQ(fps.verdict, Verdict::Worse);
  EXPECT_NEAR(fps.a, 100.0, 1.0);
  EXPECT_NEAR(fps.b, 1000.0 / 12.0, 1.0);
  EXPECT_LT(fps.diff_ci.lo, fps.diff);
  EXPECT_GT(fps.diff_ci.hi, fps.diff);
  EXPECT_LT(fps.diff_ci.hi, 0);
  EXPECT_EQ(metric(c, "frame_p50").verdict, Verdict::Worse);
  const MetricComparison& rtt = metric(c, "rtt_mean");
  EXPECT_EQ(rtt.verdict, Verdict::Worse);
  EXPECT_NEAR(rtt.ratio, 1.5, 0.1);
  EXPECT_LT(rtt.ratio_ci.lo, rtt.ratio);
  EXPECT_GT(rtt.ratio_ci.hi, rtt.ratio);
  EXPECT_EQ(metric(c, "AL").verdict, Verdict::Worse);
  EXPECT_EQ(rtt.n_a, 60u);
  // The other way round B is better.
  const Comparison r = compare_sessions(b, a);
  EXPECT_EQ(metric(r, "fps").verdict, Verdict::Better);
  EXPECT_EQ(metric(r, "rtt_p50").verdict, Verdict::Better);
}

TEST(CompareSessions, TheSameDistributionIsNoSignificantDifference) {
  const SessionSamples a = session(3000, 10.0, 60, 20.0, 3), b = session(3000, 10.0, 60, 20.0, 4);
  const Comparison c = compare_sessions(a, b);
  for (const char* name : {"fps", "frame_p50", "rtt_mean", "AL"})
    EXPECT_EQ(metric(c, name).verdict, Verdict::NoSignificantDifference) << name;
  const MetricComparison& fps = metric(c, "fps");
  EXPECT_LT(fps.diff_ci.lo, 0);
  EXPECT_GT(fps.diff_ci.hi, 0);
}

TEST(CompareSessions, AFigureOneSideLacksIsUnknownWithItsReasonNeverZero) {
  const SessionSamples a = session(500, 10.0, 0, 0, 5), b = session(500, 10.0, 40, 20.0, 6);
  const Comparison c = compare_sessions(a, b);
  const MetricComparison& rtt = metric(c, "rtt_mean");
  EXPECT_EQ(rtt.verdict, Verdict::Unknown);
  EXPECT_TRUE(std::isnan(rtt.a));
  EXPECT_NE(rtt.note.find("no inputs tracked"), std::string::npos) << rtt.note;
  const nlohmann::json j = comparison_json(c);
  for (const auto& m : j["metrics"])
    if (m["metric"] == "rtt_mean") {
      EXPECT_TRUE(m["a"].is_null());
      EXPECT_TRUE(m["diff_ci"].is_null());
      EXPECT_EQ(m["verdict"], "unknown");
    }
}

TEST(CompareSessions, TheSameSeedGivesTheSameIntervals) {
  const SessionSamples a = session(800, 10.0, 30, 20.0, 7), b = session(800, 11.0, 30, 22.0, 8);
  CompareOptions o;
  o.resamples = 500;
  const Comparison x = compare_sessions(a, b, o), y = compare_sessions(a, b, o);
  EXPECT_EQ(metric(x, "fps").diff_ci.lo, metric(y, "fps").diff_ci.lo);
  EXPECT_EQ(metric(x, "rtt_p99").diff_ci.hi, metric(y, "rtt_p99").diff_ci.hi);
  o.seed += 1;
  const Comparison z = compare_sessions(a, b, o);
  EXPECT_NE(metric(x, "fps").diff_ci.lo, metric(z, "fps").diff_ci.lo);
}

nlohmann::json run_summary(double fps, double rtt) {
  return {{"fps_avg", fps}, {"frame_ms", {{"p50", 1000 / fps}}}, {"rtt_ms", {{"mean", rtt}}},
          {"stages_ms", {{"AL_ms", {{"mean", rtt / 2}}}}}};
}

TEST(CompareRuns, TheRunsFiguresAreResampledAcrossRuns) {
  const std::vector<nlohmann::json> a{run_summary(100, 20), run_summary(101, 21), run_summary(99, 19)};
  const std::vector<nlohmann::json> worse{run_summary(90, 30), run_summary(91, 31), run_summary(89, 29)};
  const std::vector<nlohmann::json> same{run_summary(100.5, 20.5), run_summary(99.5, 19.5), run_summary(100, 20)};
  const Comparison c = compare_runs(a, worse);
  EXPECT_EQ(c.method, "across-runs");
  EXPECT_EQ(metric(c, "fps").verdict, Verdict::Worse);
  EXPECT_DOUBLE_EQ(metric(c, "fps").a, 100.0);
  EXPECT_DOUBLE_EQ(metric(c, "fps").b, 90.0);
  EXPECT_EQ(metric(c, "fps").n_a, 3u);
  EXPECT_EQ(metric(c, "AL").verdict, Verdict::Worse);
  EXPECT_EQ(metric(compare_runs(a, same), "fps").verdict, Verdict::NoSignificantDifference);
  // p99 is in no run: unknown, with the reason.
  EXPECT_EQ(metric(c, "frame_p99").verdict, Verdict::Unknown);
  EXPECT_FALSE(metric(c, "frame_p99").note.empty());
}

TEST(AcrossRuns, MeanSpreadAndAnIntervalThatHoldsTheMean) {
  const AcrossRuns r = across_runs({10, 12, 11, 13, std::nan("")});
  EXPECT_EQ(r.n, 4u);
  EXPECT_DOUBLE_EQ(r.mean, 11.5);
  EXPECT_DOUBLE_EQ(r.min, 10);
  EXPECT_DOUBLE_EQ(r.max, 13);
  EXPECT_NEAR(r.sd, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_LE(r.ci.lo, r.mean);
  EXPECT_GE(r.ci.hi, r.mean);
  EXPECT_GE(r.ci.lo, 10);
  EXPECT_LE(r.ci.hi, 13);
  const AcrossRuns one = across_runs({10});
  EXPECT_TRUE(std::isnan(one.ci.lo));
}

TEST(Gate, FailsOnlyWhenSignificantlyWorseByMoreThanTheThreshold) {
  const Gate g = parse_gate("fps=5%");
  EXPECT_EQ(g.metric, "fps");
  EXPECT_DOUBLE_EQ(g.threshold, 0.05);
  EXPECT_DOUBLE_EQ(parse_gate("rtt_p99=10").threshold, 0.10);
  EXPECT_THROW(parse_gate("fps"), UsageError);
  EXPECT_THROW(parse_gate("fps=abc"), UsageError);
  EXPECT_THROW(parse_gate("fps=-3%"), UsageError);

  const SessionSamples a = session(3000, 10.0, 60, 20.0, 9), b = session(3000, 11.0, 60, 20.0, 10);  // FPS -9 %
  const Comparison c = compare_sessions(a, b);
  const auto fail = check_gate(parse_gate("fps=5%"), c);
  ASSERT_TRUE(fail);
  EXPECT_TRUE(fail->failed) << fail->text;
  const auto pass = check_gate(parse_gate("fps=20%"), c);
  ASSERT_TRUE(pass);
  EXPECT_FALSE(pass->failed) << pass->text;
  EXPECT_NE(pass->text.find("within 20 %"), std::string::npos) << pass->text;
  EXPECT_FALSE(check_gate(parse_gate("nosuch=5%"), c));
  // Better is never a failure.
  EXPECT_FALSE(check_gate(parse_gate("fps=0%"), compare_sessions(b, a))->failed);
}

TEST(Level, AcceptsFractionsAndPercentagesWithinBounds) {
  EXPECT_DOUBLE_EQ(parse_level("95%"), 0.95);
  EXPECT_DOUBLE_EQ(parse_level("0.99"), 0.99);
  EXPECT_DOUBLE_EQ(parse_level("90"), 0.90);
  EXPECT_THROW(parse_level("40%"), UsageError);
  EXPECT_THROW(parse_level("100"), UsageError);
  EXPECT_THROW(parse_level("high"), UsageError);
}

}  // namespace
}  // namespace pictor::analysis
