// MangoHud logs: preamble, ms vs µs frametime, per-frame vs sampled rows.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/load.h"
#include "analysis/summary.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

using test::data_path;

bool has_note(const FrameSeries& s, const std::string& part) {
  for (const std::string& n : s.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(LoadMangoHud, Version07MillisecondsOneRowPerFrame) {
  const FrameSeries s = load_frames(data_path("mangohud_0.7_ms_per_frame.csv"));
  EXPECT_EQ(s.source, "mangohud");
  ASSERT_EQ(s.frame_ms.size(), 240u);
  EXPECT_DOUBLE_EQ(s.frame_ms[0], 16.4556);
  EXPECT_DOUBLE_EQ(s.frame_ms[150], 58.3);
  EXPECT_DOUBLE_EQ(s.frame_ms[239], 16.4831);
  EXPECT_FALSE(s.sampled);
  EXPECT_FALSE(has_note(s, "microseconds"));
  EXPECT_TRUE(s.gpu_ms.empty());
  const nlohmann::json j = summarize_frames(s);
  EXPECT_EQ(j["frames"], 241);
  EXPECT_EQ(j["stutter"]["count"], 1);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["max"].get<double>(), 58.3);
}

TEST(LoadMangoHud, Version068MicrosecondsSampledEvery100ms) {
  const FrameSeries s = load_frames(data_path("mangohud_0.6.8_us_sampled.csv"));
  ASSERT_EQ(s.frame_ms.size(), 50u);
  EXPECT_DOUBLE_EQ(s.frame_ms[0], 13.803);
  EXPECT_DOUBLE_EQ(s.frame_ms[31], 41.702);
  EXPECT_DOUBLE_EQ(s.frame_ms[49], 13.027);
  EXPECT_TRUE(s.sampled);
  EXPECT_NEAR(s.span_s, (5010438212.0 - 100123456.0) / 1e9, 1e-12);
  EXPECT_TRUE(has_note(s, "microseconds"));
  EXPECT_TRUE(has_note(s, "samples every ~100 ms"));
  const nlohmann::json j = summarize_frames(s);
  EXPECT_TRUE(j["frames"].is_null());
  EXPECT_TRUE(j["fps_avg"].is_null());
  EXPECT_NEAR(j["duration_s"].get<double>(), 4.910314756, 1e-9);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["max"].get<double>(), 41.702);
}

TEST(LoadMangoHud, UnitDecisionSurvivesIntervalAveragedFps) {
  // fps is a 500 ms average (constant) while single frames vary by 2x: the median of
  // fps x frametime still lands near 1e6 for µs.
  test::TempDir dir;
  std::string text = "fps,frametime,elapsed\n";
  const int frametimes_us[] = {16000, 33000, 16500, 8000, 17000, 16600, 40000};
  int64_t elapsed = 0;
  for (const int us : frametimes_us) {
    elapsed += us * 1000;
    text += "60," + std::to_string(us) + "," + std::to_string(elapsed) + "\n";
  }
  const FrameSeries s = load_frames(dir.write("m.csv", text));
  EXPECT_DOUBLE_EQ(s.frame_ms[1], 33.0);
  EXPECT_FALSE(s.sampled);  // elapsed steps match the frame times
}

TEST(LoadMangoHud, MillisecondsWithOddFpsRows) {
  // A few rows whose fps disagrees wildly (an average over a hitch) cannot flip ms to µs.
  test::TempDir dir;
  const std::string p = dir.write(
      "m.csv", "fps,frametime,elapsed\n60,16.6,0\n60,16.7,16700000\n2000,16.6,33300000\n"
               "60,16.7,50000000\n61,16.4,66400000\n");
  const FrameSeries s = load_frames(p);
  EXPECT_DOUBLE_EQ(s.frame_ms[0], 16.6);
  EXPECT_FALSE(has_note(s, "microseconds"));
}

TEST(LoadMangoHud, NewFormatSampledRowsAreDetectedFromElapsed) {
  test::TempDir dir;
  const std::string p = dir.write(
      "m.csv", "fps,frametime,elapsed\n60,16.6,0\n59,16.9,100000000\n61,16.4,200000000\n");
  const FrameSeries s = load_frames(p);
  EXPECT_TRUE(s.sampled);
  EXPECT_DOUBLE_EQ(s.span_s, 0.2);
}

TEST(LoadMangoHud, NoElapsedColumnMeansSamples) {
  test::TempDir dir;
  const FrameSeries s = load_frames(dir.write("m.csv", "fps,frametime,cpu_load\n60,16.6,10\n60,16.7,12\n"));
  EXPECT_TRUE(s.sampled);
  EXPECT_TRUE(std::isnan(s.span_s));
  EXPECT_TRUE(has_note(s, "no 'elapsed' column"));
}

TEST(LoadMangoHud, ZeroFrametimeRowsAreDroppedNotCounted) {
  test::TempDir dir;
  const std::string p = dir.write(
      "m.csv", "fps,frametime,elapsed\n0,0,0\n60,16.6,16600000\n60,16.7,33300000\n60,16.6,49900000\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{16.6, 16.7, 16.6}));
  EXPECT_TRUE(has_note(s, "1 row(s) with frametime 0"));
}

}  // namespace
}  // namespace pictor::analysis
