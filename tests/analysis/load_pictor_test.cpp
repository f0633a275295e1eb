// Pictor frames.csv: context choice, frame times from swap_ns, GPU alignment, session directory.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/importers.h"
#include "analysis/load.h"
#include "analysis/summary.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

using test::data_path;

TEST(LoadPictor, SampleFileMainContext) {
  const FrameSeries s = load_frames(data_path("pictor_frames.csv"));
  EXPECT_EQ(s.source, "pictor");
  EXPECT_EQ(s.path, data_path("pictor_frames.csv"));
  // The context with 11 swaps wins over the loader context with 3.
  ASSERT_EQ(s.swap_ns.size(), 11u);
  EXPECT_EQ(s.swap_ns.front(), 1'000'000'000'000);
  EXPECT_EQ(s.swap_ns.back(), 1'000'200'000'000);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{16, 17, 16, 16, 50, 16, 17, 16, 16, 20}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("analysed context 0x5581a0 (11 frames)"), std::string::npos);
  EXPECT_FALSE(s.sampled);
}

// frames.csv's outside_swap_ms was called cpu_ms before: files with either name load alike.
TEST(LoadPictor, OldAndNewNameOfTheTimeOutsideTheSwapLoadAlike) {
  test::TempDir dir;
  const std::string rows = "0,1,1000000,,,0.5,,,\n1,1,17000000,16.0,15.5,0.5,,,\n2,1,33000000,16.0,15.5,0.5,,,\n";
  const std::string old_path = dir.write("old.csv", "# pictor frames schema 1\n"
                                                    "frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n" + rows);
  const std::string new_path = dir.write("new.csv", "# pictor frames schema 1\n"
                                                    "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n" +
                                                        rows);
  const FrameSeries a = load_frames(old_path), b = load_frames(new_path);
  EXPECT_EQ(a.source, "pictor");
  EXPECT_EQ(b.source, "pictor");
  EXPECT_EQ(a.frame_ms, b.frame_ms);
  EXPECT_EQ(b.frame_ms, (std::vector<double>{16, 16}));
}

TEST(LoadPictor, GpuTimeOfFrameIBelongsToTheIntervalEndingAtSwapI) {
  const FrameSeries s = load_frames(data_path("pictor_frames.csv"));
  // File gpu_ms by frame: 3.1 3.2 - 3.4 3.0 9.5 3.3 - 3.2 3.1 3.6; frame 0's has no interval.
  ASSERT_EQ(s.gpu_ms.size(), 10u);
  EXPECT_DOUBLE_EQ(s.gpu_ms[0], 3.2);
  EXPECT_TRUE(std::isnan(s.gpu_ms[1]));
  EXPECT_DOUBLE_EQ(s.gpu_ms[4], 9.5);
  EXPECT_TRUE(std::isnan(s.gpu_ms[6]));
  EXPECT_DOUBLE_EQ(s.gpu_ms[9], 3.6);
  EXPECT_EQ(s.gpu_kind, "timer-query");
}

TEST(LoadPictor, SummaryOfTheSample) {
  const nlohmann::json j = summarize_frames(load_frames(data_path("pictor_frames.csv")));
  EXPECT_EQ(j["frames"], 11);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j["fps_avg"].get<double>(), 50.0);
  EXPECT_EQ(j["stutter"]["count"], 1);  // the 50 ms frame
  EXPECT_DOUBLE_EQ(j["frame_ms"]["p90"].get<double>(), 20.0);
  EXPECT_EQ(j["gpu_ms"]["n"], 8);
}

TEST(LoadPictor, SessionDirectoryMeansItsFramesCsv) {
  test::TempDir dir;
  dir.write("frames.csv", "frame,ctx,swap_ns\n0,1,0\n1,1,10000000\n2,1,30000000\n");
  const FrameSeries s = load_frames(dir.path());
  EXPECT_EQ(s.path, dir.path() + "/frames.csv");
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10, 20}));
  EXPECT_TRUE(s.gpu_ms.empty());  // no gpu_ms column at all
}

TEST(LoadPictor, WithoutCtxColumnAndWithCrlf) {
  test::TempDir dir;
  const std::string p =
      dir.write("f.csv", "# pictor frames schema 1\r\nframe,swap_ns,gpu_ms\r\n0,0,\r\n1,5000000,1.5\r\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{5}));
  EXPECT_EQ(s.gpu_ms, (std::vector<double>{1.5}));
  EXPECT_TRUE(s.notes.empty());
}

TEST(LoadPictor, FrameIndexGapIsKeptAndNoted) {
  test::TempDir dir;
  const std::string p =
      dir.write("f.csv", "frame,ctx,swap_ns\n0,1,0\n1,1,10000000\n4,1,50000000\n5,1,60000000\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10, 40, 10}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("first at line 4"), std::string::npos) << s.notes[0];
  EXPECT_NE(s.notes[0].find("2 frame(s) not recorded"), std::string::npos) << s.notes[0];
}

TEST(LoadPictor, TiedContextsPickTheFirstSeen) {
  test::TempDir dir;
  const std::string p = dir.write(
      "f.csv", "frame,ctx,swap_ns\n0,b,0\n0,a,1\n1,a,20000001\n1,b,10000000\n");
  const FrameSeries s = load_frames(p);
  EXPECT_EQ(s.frame_ms, (std::vector<double>{10}));
}

TEST(LoadPictor, HeaderOnlyIsTooFewFrames) {
  test::TempDir dir;
  const std::string p = dir.write("f.csv", "# pictor frames schema 1\nframe,ctx,swap_ns\n");
  const nlohmann::json j = summarize_frames(load_frames(p));
  EXPECT_EQ(j["frames"], 0);
  EXPECT_TRUE(j["note"].is_string());
}

TEST(Detect, EachSampleIsRecognisedFromItsContent) {
  test::TempDir dir;
  auto detect = [](const std::string& text) { return detect_frame_format(text); };
  EXPECT_EQ(detect("# pictor frames schema 1\nframe,ctx,swap_ns\n"), FrameFormat::pictor);
  EXPECT_EQ(detect("frame,ctx,swap_ns,frame_ms\n"), FrameFormat::pictor);
  EXPECT_EQ(detect("os,cpu,gpu,ram,kernel,driver,cpuscheduler\nx\nfps,frametime\n"),
            FrameFormat::mangohud);
  EXPECT_EQ(detect("v1\n0.7.1\n----\nos,cpu,gpu\n"), FrameFormat::mangohud);
  EXPECT_EQ(detect("fps,frametime,elapsed\n"), FrameFormat::mangohud);
  EXPECT_EQ(detect("Application,ProcessID,MsBetweenPresents\n"), FrameFormat::presentmon);
  EXPECT_EQ(detect("application,processid,frametime\n"), FrameFormat::presentmon);
  EXPECT_EQ(detect("name,score\n"), FrameFormat::unknown);
  EXPECT_EQ(detect(std::string("\0\x01\x02", 3)), FrameFormat::unknown);
}

}  // namespace
}  // namespace pictor::analysis
