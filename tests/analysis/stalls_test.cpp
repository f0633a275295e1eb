// Stalls (DESIGN 6): every second or more without a frame, the one from the last frame to the end
// of the session included, in summary.json and in the table; where the session's end comes from.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "analysis/frame_metrics.h"
#include "analysis/play_window.h"
#include "analysis/session_end.h"
#include "analysis/summary.h"

namespace pictor::analysis {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kT0 = 7'000'000'000;

// Swaps every 10 ms for `before_ms`, then none for `gap_ms`, then every 10 ms for `after_ms`.
FrameSeries with_gap(double before_ms, double gap_ms, double after_ms) {
  FrameSeries s;
  s.source = "pictor";
  double t = 0;
  auto swap = [&](double at) {
    if (!s.swap_ns.empty()) s.frame_ms.push_back(at - t);
    s.swap_ns.push_back(kT0 + static_cast<int64_t>(std::llround(at * 1e6)));
    t = at;
  };
  for (double at = 0; at <= before_ms; at += 10) swap(at);
  if (after_ms > 0) {
    const double resume = t + gap_ms;
    for (double at = resume; at <= resume + after_ms; at += 10) swap(at);
  }
  return s;
}

TEST(Stalls, FrameTimesOfASecondOrMoreAndTheTimeAfterTheLastFrame) {
  const std::vector<double> ms{10, 999.9, 10, 1000, 10, 2500};
  const std::vector<Stall> st = find_stalls(ms, 1500.0);
  ASSERT_EQ(st.size(), 3u);
  EXPECT_EQ(st[0].interval, 3u);  // exactly 1 s is one (">= 1 s without a frame")
  EXPECT_DOUBLE_EQ(st[0].start_ms, 1019.9);
  EXPECT_EQ(st[1].interval, 5u);
  EXPECT_DOUBLE_EQ(st[1].duration_ms, 2500);
  EXPECT_TRUE(st[2].at_end);
  EXPECT_EQ(st[2].interval, ms.size());
  EXPECT_DOUBLE_EQ(st[2].start_ms, 10 + 999.9 + 10 + 1000 + 10 + 2500);
  EXPECT_DOUBLE_EQ(st[2].duration_ms, 1500);
  // Unknown end, a short tail, frames after the end: no stall at the end.
  EXPECT_EQ(find_stalls(ms, std::nan("")).size(), 2u);
  EXPECT_EQ(find_stalls(ms, 999.0).size(), 2u);
  EXPECT_EQ(find_stalls(ms, -50.0).size(), 2u);
  EXPECT_EQ(kStallMs, 1000.0);
}

TEST(Stalls, AFrozenAppIsNotHiddenByTheShorterMeasuredSpan) {
  // The issue's case: frames for 1.5 s, then nothing until the session ends 4 s later.
  FrameSeries s = with_gap(1500, 0, 0);
  s.session_end_ns = s.swap_ns.back() + 4'000'000'000;
  const nlohmann::json j = summarize_frames(s);
  EXPECT_NEAR(j["duration_s"].get<double>(), 1.5, 1e-9);  // DESIGN's span, still first to last swap
  const nlohmann::json& st = j["stalls"];
  EXPECT_EQ(st["count"], 1);
  EXPECT_EQ(st["ended_in_stall"], true);
  EXPECT_NEAR(st["last_frame_to_end_s"].get<double>(), 4.0, 1e-9);
  EXPECT_NEAR(st["total_s"].get<double>(), 4.0, 1e-9);
  EXPECT_NEAR(st["longest_s"].get<double>(), 4.0, 1e-9);
  ASSERT_EQ(st["list"].size(), 1u);
  EXPECT_NEAR(st["list"][0]["start_s"].get<double>(), 1.5, 1e-9);
  EXPECT_EQ(st["list"][0]["start_ns"], s.swap_ns.back());
  EXPECT_EQ(st["list"][0]["at_end"], true);
  EXPECT_TRUE(st["note"].is_null());
  const std::string table = format_frame_summary(j);
  EXPECT_NE(table.find("Stalls              1 (4.0 s in all, longest 4.0 s): at 1.5 s for 4.0 s (to the end)"),
            std::string::npos) << table;
  EXPECT_NE(table.find("the app stopped presenting: no frame for the last 4.0 s of the session"), std::string::npos)
      << table;
}

TEST(Stalls, AStallInsideTheSessionIsListedWhereItIs) {
  FrameSeries s = with_gap(1000, 2300, 1000);
  s.session_end_ns = s.swap_ns.back() + 5'000'000;
  const nlohmann::json j = summarize_frames(s);
  const nlohmann::json& st = j["stalls"];
  EXPECT_EQ(st["count"], 1);
  EXPECT_EQ(st["ended_in_stall"], false);
  EXPECT_NEAR(st["list"][0]["start_s"].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(st["list"][0]["duration_s"].get<double>(), 2.3, 1e-9);
  EXPECT_NEAR(st["last_frame_to_end_s"].get<double>(), 0.005, 1e-9);
}

TEST(Stalls, NoEndKnownSaysSoInsteadOfClaimingNone) {
  FrameSeries s = with_gap(1500, 0, 0);
  s.session_end_note = "a frames.csv alone does not say when the session ended: a stall after the last frame cannot be seen";
  const nlohmann::json j = summarize_frames(s);
  EXPECT_EQ(j["stalls"]["count"], 0);
  EXPECT_TRUE(j["stalls"]["ended_in_stall"].is_null());
  EXPECT_TRUE(j["stalls"]["last_frame_to_end_s"].is_null());
  EXPECT_EQ(j["stalls"]["note"], s.session_end_note);
  const std::string table = format_frame_summary(j);
  EXPECT_NE(table.find("Stalls              none (no 1 s without a frame)"), std::string::npos) << table;
  EXPECT_NE(table.find(s.session_end_note), std::string::npos) << table;
  // A series built by a program says nothing: the default note.
  EXPECT_NE(summarize_frames(with_gap(100, 0, 0))["stalls"]["note"].get<std::string>().find("does not say when"),
            std::string::npos);
}

TEST(Stalls, OneFrameThenNothingIsAStallAtTheEnd) {
  FrameSeries s;
  s.source = "pictor";
  s.swap_ns = {kT0};
  s.session_end_ns = kT0 + 3'000'000'000;
  const nlohmann::json j = summarize_frames(s);
  EXPECT_EQ(j["frames"], 1);
  EXPECT_EQ(j["stalls"]["ended_in_stall"], true);
  EXPECT_NEAR(j["stalls"]["last_frame_to_end_s"].get<double>(), 3.0, 1e-9);
}

TEST(Stalls, ASampledLogHasNone) {
  FrameSeries s;
  s.sampled = true;
  s.frame_ms = {2000, 16};
  EXPECT_TRUE(summarize_frames(s)["stalls"].is_null());
}

TEST(Stalls, PlayFiguresKeepTheSessionEnd) {
  FrameSeries s = with_gap(3000, 0, 0);
  s.session_end_ns = s.swap_ns.back() + 2'000'000'000;
  LaunchRecord launch;
  launch.present = true;
  launch.play_start_ns = kT0 + 1'000'000'000;
  const nlohmann::json j = summarize_session_frames(s, launch);
  EXPECT_EQ(j["figures_from"], "play");
  EXPECT_EQ(j["stalls"]["ended_in_stall"], true);
  EXPECT_EQ(j["whole_session"]["stalls"]["ended_in_stall"], true);
}

fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("pictor-stalls-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

TEST(SessionEnd, FromRunJsonOfASessionDirectory) {
  const fs::path dir = scratch("end");
  std::ofstream(dir / "run.json") << R"({"schema": 1, "status": "failed", "end_ns": 123456789012})";
  FrameSeries s;
  s.source = "pictor";
  attach_session_end(s, dir.string());
  ASSERT_TRUE(s.session_end_ns.has_value());
  EXPECT_EQ(*s.session_end_ns, 123456789012);
  EXPECT_TRUE(s.session_end_note.empty());
  fs::remove_all(dir);
}

TEST(SessionEnd, EveryUnknownEndSaysWhy) {
  const fs::path dir = scratch("unknown");
  FrameSeries s;
  s.source = "pictor";
  attach_session_end(s, dir.string());
  EXPECT_FALSE(s.session_end_ns);
  EXPECT_NE(s.session_end_note.find("no run.json"), std::string::npos) << s.session_end_note;
  std::ofstream(dir / "run.json") << R"({"schema": 1, "status": "running"})";
  attach_session_end(s, dir.string());
  EXPECT_NE(s.session_end_note.find("still running"), std::string::npos) << s.session_end_note;
  std::ofstream(dir / "run.json") << R"({"schema": 1, "status": "ok"})";
  attach_session_end(s, dir.string());
  EXPECT_NE(s.session_end_note.find("older Pictor"), std::string::npos) << s.session_end_note;
  std::ofstream(dir / "frames.csv") << "frame\n";
  attach_session_end(s, (dir / "frames.csv").string());
  EXPECT_FALSE(s.session_end_ns);
  EXPECT_NE(s.session_end_note.find("a frames.csv alone does not say when the session ended"), std::string::npos)
      << s.session_end_note;
  s.source = "mangohud";
  attach_session_end(s, (dir / "frames.csv").string());
  EXPECT_NE(s.session_end_note.find("a mangohud log"), std::string::npos) << s.session_end_note;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pictor::analysis
