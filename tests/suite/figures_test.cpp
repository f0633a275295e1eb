// Per-benchmark figures of suite.json from a session's summary: unknown stays null, a profile's
// play figures are copied with where they come from, and the table shows what is there.
#include <gtest/gtest.h>

#include "suite/suite_runner.h"

using namespace pictor;
using namespace pictor::suite;

TEST(Figures, UnknownValuesAreNullWithANote) {
  const nlohmann::json summary = {{"frames", 2}, {"fps_avg", nullptr}, {"frame_ms", {{"p50", 10.0}, {"p99", nullptr}}}};
  const auto f = benchmark_figures(summary);
  EXPECT_EQ(f["frames"], 2);
  EXPECT_TRUE(f["fps"].is_null());
  EXPECT_EQ(f["frame_ms_p50"], 10.0);
  EXPECT_TRUE(f["frame_ms_p99"].is_null());
  EXPECT_TRUE(f["rtt_ms_mean"].is_null());
  EXPECT_EQ(f["figures_from"], "session");
  ASSERT_TRUE(f.contains("notes"));
  EXPECT_EQ(f["notes"][0], "no inputs tracked: RTT unknown");
}

TEST(Figures, RttComesFromTheSummary) {
  const nlohmann::json summary = {{"fps_avg", 60.0}, {"rtt_ms", {{"n", 12}, {"mean", 33.5}, {"p99", 70.0}}}};
  const auto f = benchmark_figures(summary);
  EXPECT_EQ(f["fps"], 60.0);
  EXPECT_EQ(f["rtt_ms_mean"], 33.5);
  EXPECT_EQ(f["rtt_ms_p99"], 70.0);
  EXPECT_EQ(f["rtt_inputs"], 12);
  EXPECT_FALSE(f.contains("notes"));
}

TEST(Figures, ProfileSessionsCopyThePlayFiguresOfTheSummary) {
  // A profile session's summary.json describes play (analysis::summarize_session_frames): the
  // suite copies it, it does not cut again.
  const nlohmann::json play = {{"figures_from", "play"}, {"frames", 101}, {"fps_avg", 100.0},
                               {"frame_ms", {{"p50", 10.0}, {"p99", 10.0}}},
                               {"whole_session", {{"frames", 121}, {"fps_avg", 12.3}}}};
  const auto f = benchmark_figures(play);
  EXPECT_EQ(f["figures_from"], "play");
  EXPECT_EQ(f["frames"], 101);
  EXPECT_EQ(f["fps"], 100.0);
  // No play start (window never found): the whole session, with the summary's note.
  const nlohmann::json whole = {{"figures_from", "session"}, {"fps_avg", 12.3}, {"play_start_ns", nullptr},
                                {"play_note", "launch.json has no play_start_ns: the figures cover the whole session"}};
  const auto g = benchmark_figures(whole);
  EXPECT_EQ(g["figures_from"], "session");
  EXPECT_EQ(g["fps"], 12.3);
  EXPECT_NE(g["notes"][0].get<std::string>().find("no play_start_ns"), std::string::npos);
}

TEST(Figures, TableShowsStatusFiguresAndReasons) {
  const nlohmann::json suite = {
      {"suite", "default"},
      {"quick", true},
      {"dir", "/tmp/x"},
      {"counts", {{"ok", 1}, {"failed", 1}, {"skipped", 1}, {"not_run", 0}}},
      {"benchmarks",
       {{{"name", "racing"}, {"status", "ok"}, {"fps", 58.25}, {"frame_ms_p50", 16.5}, {"frame_ms_p99", 31.0},
         {"low_1pct_fps_percentile", 32.3}, {"low_1pct_fps_average", 28.0}, {"rtt_ms_mean", 41.04},
         {"rtt_ms_p99", 88.0}, {"rtt_inputs", 37}},
        {{"name", "neverball"}, {"status", "skipped"}, {"reason", "'neverball' is not installed"}},
        {{"name", "shooter"}, {"status", "failed"}, {"reason", "shooter exited"}, {"fps", nullptr}}}}};
  const std::string t = format_suite_table(suite);
  EXPECT_NE(t.find("Suite default (quick): 1 ok, 1 failed, 1 skipped  (/tmp/x)"), std::string::npos) << t;
  EXPECT_NE(t.find("racing"), std::string::npos);
  EXPECT_NE(t.find("58.2"), std::string::npos) << t;
  EXPECT_NE(t.find("32.3/28.0"), std::string::npos) << t;
  EXPECT_NE(t.find("41.0"), std::string::npos);
  EXPECT_NE(t.find("  neverball skipped: 'neverball' is not installed"), std::string::npos) << t;
  EXPECT_NE(t.find("  shooter failed: shooter exited"), std::string::npos);
  // An unknown figure is a dash, never 0.
  const auto shooter_row = t.substr(t.find("\nshooter"), 60);
  EXPECT_EQ(shooter_row.find(" 0.0"), std::string::npos) << shooter_row;
  EXPECT_NE(shooter_row.find(" -"), std::string::npos) << shooter_row;
}

TEST(Figures, SessionOptionsForBuiltinAndProfile) {
  const Benchmark b = parse_benchmark("builtin:racing:seed=2 driver=scripted:keys=Up duration=30s quick=7s");
  const auto o = session_options(b, true, "/tmp/d");
  EXPECT_EQ(o.builtin, "racing:seed=2");
  EXPECT_TRUE(o.command.empty());
  EXPECT_EQ(o.duration_s, 7);
  EXPECT_EQ(o.driver, "scripted:keys=Up");
  EXPECT_EQ(o.out_dir, "/tmp/d");
  EXPECT_EQ(session_options(b, false, "/tmp/d").duration_s, 30);
}
