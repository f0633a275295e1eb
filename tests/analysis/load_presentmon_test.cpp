// PresentMon 1.x and 2.x captures: column names, process choice, timestamps, GPU columns.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/load.h"
#include "analysis/summary.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

using test::data_path;

TEST(LoadPresentMon, Version1PicksTheBusiestProcess) {
  const FrameSeries s = load_frames(data_path("presentmon_1.x.csv"));  // CRLF line ends
  EXPECT_EQ(s.source, "presentmon");
  ASSERT_EQ(s.frame_ms.size(), 60u);
  EXPECT_DOUBLE_EQ(s.frame_ms[0], 8.123);
  EXPECT_DOUBLE_EQ(s.frame_ms[40], 33.1);
  EXPECT_DOUBLE_EQ(s.frame_ms[59], 8.657);
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("analysed Game.exe (PID 4711"), std::string::npos) << s.notes[0];
  // TimeInSeconds is the present time; the swap before the first interval is implied by it.
  ASSERT_EQ(s.swap_ns.size(), 61u);
  EXPECT_EQ(s.swap_ns[1], 1'258'123'000);
  EXPECT_EQ(s.swap_ns[0], 1'250'000'000);
  EXPECT_EQ(s.swap_ns[60], 1'778'098'000);
  EXPECT_TRUE(s.gpu_ms.empty());
}

TEST(LoadPresentMon, Version2MetricsFrameTimeRunsForward) {
  const FrameSeries s = load_frames(data_path("presentmon_2.x_v2_metrics.csv"));
  ASSERT_EQ(s.frame_ms.size(), 80u);
  EXPECT_DOUBLE_EQ(s.frame_ms[50], 21.4031);
  ASSERT_EQ(s.swap_ns.size(), 81u);
  EXPECT_EQ(s.swap_ns[0], 5'004'736'600);
  EXPECT_EQ(s.swap_ns[50], 5'314'622'800);
  EXPECT_EQ(s.swap_ns[80], 5'513'743'100 + 6'695'500);
  EXPECT_EQ(s.gpu_kind, "presentmon-gpu-time");
  ASSERT_EQ(s.gpu_ms.size(), 80u);
  EXPECT_DOUBLE_EQ(s.gpu_ms[0], 5.8967);
  EXPECT_NE(s.notes[0].find("Overwatch.exe (PID 2416"), std::string::npos) << s.notes[0];
}

TEST(LoadPresentMon, Version2DefaultColumns) {
  const FrameSeries s = load_frames(data_path("presentmon_2.x_default.csv"));
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10, 10, 12, 10, 30, 10}));
  ASSERT_EQ(s.swap_ns.size(), 7u);
  EXPECT_EQ(s.swap_ns.front(), 1'200'000'000);
  EXPECT_EQ(s.swap_ns.back(), 1'282'000'000);
  EXPECT_EQ(s.gpu_ms, (std::vector<double>{5, 6, 7, 8, 9, 10}));
  const nlohmann::json j = summarize_frames(s);
  EXPECT_EQ(j["frames"], 7);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.082);
  EXPECT_EQ(j["stutter"]["count"], 1);
  EXPECT_EQ(j["gpu_ms"]["kind"], "presentmon-gpu-time");
}

TEST(LoadPresentMon, NotAvailableFrameTimesAreLeftOutWithTheTimeline) {
  test::TempDir dir;
  const std::string p = dir.write(
      "pm.csv", "Application,ProcessID,CPUStartTime,FrameTime,GPUBusy\n"
                "a.exe,1,0.0,10.0,NA\na.exe,1,10.0,NA,3.0\na.exe,1,20.0,11.0,4.0\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10.0, 11.0}));
  EXPECT_TRUE(s.swap_ns.empty());
  EXPECT_EQ(s.gpu_kind, "presentmon-gpu-busy");
  EXPECT_TRUE(std::isnan(s.gpu_ms[0]));
  EXPECT_DOUBLE_EQ(s.gpu_ms[1], 4.0);
  EXPECT_NE(s.notes.back().find("1 present(s) with frame time NA"), std::string::npos);
}

TEST(LoadPresentMon, WithoutTimeColumnThereAreNoTimestamps) {
  test::TempDir dir;
  const std::string p =
      dir.write("pm.csv", "Application,ProcessID,msBetweenPresents\nb.exe,2,16.0\nb.exe,2,17.0\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{16.0, 17.0}));
  EXPECT_TRUE(s.swap_ns.empty());
  EXPECT_DOUBLE_EQ(summarize_frames(s)["duration_s"].get<double>(), 0.033);
}

}  // namespace
}  // namespace pictor::analysis
