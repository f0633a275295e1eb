// summarize_frames on constructed series: counts, duration, average FPS, percentiles, lows,
// stutter, GPU figures, and null (never 0) for what is unknown.
#include "analysis/summary.h"

#include "analysis/importers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pictor::analysis {
namespace {

// A series with swaps at the given offsets (ms) from t0, as the Pictor reader builds it.
FrameSeries from_swaps_ms(const std::vector<double>& at_ms) {
  FrameSeries s;
  s.source = "test";
  const int64_t t0 = 5'000'000'000;
  for (std::size_t i = 0; i < at_ms.size(); ++i) {
    s.swap_ns.push_back(t0 + static_cast<int64_t>(std::llround(at_ms[i] * 1e6)));
    if (i > 0) s.frame_ms.push_back(at_ms[i] - at_ms[i - 1]);
  }
  return s;
}

TEST(Summary, FramesDurationAndAverageFps) {
  // 5 swaps over 100 ms: 4 intervals -> 40 FPS, not 50.
  const nlohmann::json j = summarize_frames(from_swaps_ms({0, 20, 40, 70, 100}));
  EXPECT_EQ(j["schema"], 1);
  EXPECT_EQ(j["frames"], 5);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["fps_avg"].get<double>(), 40.0);
  EXPECT_TRUE(j["note"].is_null());
}

TEST(Summary, DurationFromIntervalsWhenNoTimestamps) {
  FrameSeries s;
  s.frame_ms = {10, 10, 20, 10};
  const nlohmann::json j = summarize_frames(s);
  EXPECT_EQ(j["frames"], 5);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(j["fps_avg"].get<double>(), 80.0);
}

TEST(Summary, FrameTimePercentilesNearestRank) {
  FrameSeries s;
  for (int i = 1; i <= 1000; ++i) s.frame_ms.push_back(static_cast<double>(i) / 10.0);
  const nlohmann::json ft = summarize_frames(s)["frame_ms"];
  EXPECT_EQ(ft["n"], 1000);
  EXPECT_DOUBLE_EQ(ft["min"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(ft["p50"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(ft["p90"].get<double>(), 90.0);
  EXPECT_DOUBLE_EQ(ft["p95"].get<double>(), 95.0);
  EXPECT_DOUBLE_EQ(ft["p99"].get<double>(), 99.0);
  EXPECT_DOUBLE_EQ(ft["p999"].get<double>(), 99.9);
  EXPECT_DOUBLE_EQ(ft["max"].get<double>(), 100.0);
  EXPECT_NEAR(ft["mean"].get<double>(), 50.05, 1e-9);
}

TEST(Summary, LowsInBothConventions) {
  FrameSeries s;
  s.frame_ms.assign(196, 10.0);
  s.frame_ms.insert(s.frame_ms.end(), {100.0, 40.0, 60.0, 50.0});  // order must not matter
  const nlohmann::json j = summarize_frames(s);
  EXPECT_DOUBLE_EQ(j["low_1pct_fps_percentile"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["low_0_1pct_fps_percentile"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["low_1pct_fps_average"].get<double>(), 12.5);
  EXPECT_DOUBLE_EQ(j["low_0_1pct_fps_average"].get<double>(), 10.0);
}

TEST(Summary, StutterCountAndTimeShare) {
  FrameSeries s;
  s.frame_ms.assign(40, 10.0);
  s.frame_ms[10] = 30.0;
  s.frame_ms[25] = 50.0;
  const nlohmann::json st = summarize_frames(s)["stutter"];
  EXPECT_EQ(st["count"], 2);
  EXPECT_DOUBLE_EQ(st["time_share"].get<double>(), 80.0 / (38 * 10.0 + 80.0));
  EXPECT_EQ(st["window"], 30);
  EXPECT_EQ(st["factor"], 2.5);
}

TEST(Summary, GpuFiguresFromKnownValuesOnly) {
  FrameSeries s;
  s.frame_ms = {10, 10, 10, 10};
  s.gpu_ms = {2.0, kUnknown, 4.0, 9.0};
  const nlohmann::json g = summarize_frames(s)["gpu_ms"];
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(g["n"], 3);
  EXPECT_DOUBLE_EQ(g["mean"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(g["p50"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(g["p99"].get<double>(), 9.0);
  EXPECT_DOUBLE_EQ(g["max"].get<double>(), 9.0);
  EXPECT_EQ(g["kind"], "timer-query");
}

TEST(Summary, GpuNullWhenNoneKnown) {
  FrameSeries s;
  s.frame_ms = {10, 10};
  EXPECT_TRUE(summarize_frames(s)["gpu_ms"].is_null());
  s.gpu_ms = {kUnknown, kUnknown};
  EXPECT_TRUE(summarize_frames(s)["gpu_ms"].is_null());
}

// Offloaded frames (docs/offload.md): FC and AS per frame, the first frame included, as
// distributions; native frames leave them null with the reason beside them.
TEST(Summary, FrameCopyDistributionsPerFrame) {
  FrameSeries s = from_swaps_ms({0, 10, 20, 30, 40});
  s.fc_ms = {1, 2, 3, 4, 10};
  s.as_ms = {0.5, 0.5, 0.5, 0.5, 3.0};
  const nlohmann::json j = summarize_frames(s);
  const nlohmann::json& fc = j["fc_ms"];
  ASSERT_TRUE(fc.is_object()) << j.dump();
  EXPECT_EQ(fc["n"], 5);
  EXPECT_DOUBLE_EQ(fc["mean"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(fc["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(fc["p50"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(fc["p90"].get<double>(), 10.0);  // nearest rank: ceil(0.9 * 5) = 5th
  EXPECT_DOUBLE_EQ(fc["p99"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(fc["max"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["as_ms"]["mean"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["as_ms"]["p50"].get<double>(), 0.5);
  EXPECT_TRUE(j["frame_copy_note"].is_null()) << j["frame_copy_note"];
  // Some frames not copied: the figures are of the copied ones, and the note says how many.
  s.fc_ms[1] = kUnknown;
  const nlohmann::json partly = summarize_frames(s);
  EXPECT_EQ(partly["fc_ms"]["n"], 4);
  EXPECT_EQ(partly["frame_copy_note"], "4 of 5 frames have an fc_ms, 5 an as_ms: the others were not copied");
}

TEST(Summary, FrameCopyNullWithAReasonWhenNothingWasCopied) {
  FrameSeries s = from_swaps_ms({0, 10, 20});
  s.fc_ms = {kUnknown, kUnknown, kUnknown};
  s.as_ms = {kUnknown, kUnknown, kUnknown};
  const nlohmann::json native = summarize_frames(s);
  EXPECT_TRUE(native["fc_ms"].is_null());
  EXPECT_TRUE(native["as_ms"].is_null());
  ASSERT_TRUE(native["frame_copy_note"].is_string());
  EXPECT_NE(native["frame_copy_note"].get<std::string>().find("rendered natively"), std::string::npos);
  const nlohmann::json old = summarize_frames(from_swaps_ms({0, 10, 20}));
  EXPECT_TRUE(old["fc_ms"].is_null());
  EXPECT_NE(old["frame_copy_note"].get<std::string>().find("no fc_ms/as_ms columns"), std::string::npos);
}

TEST(Summary, FrameCopyColumnsAreReadFromFramesCsv) {
  const std::string text =
      "frame,ctx,swap_ns,gpu_ms,fc_ms,tag,as_ms\n"
      "0,0,1000000000,,2.5,,0.75\n"
      "1,0,1010000000,,3.5,,1.25\n"
      "2,0,1020000000,,,,\n";
  const FrameSeries s = read_pictor_frames(text, "frames.csv");
  ASSERT_EQ(s.fc_ms.size(), 3u);
  ASSERT_EQ(s.as_ms.size(), 3u);
  EXPECT_DOUBLE_EQ(s.fc_ms[0], 2.5);
  EXPECT_DOUBLE_EQ(s.as_ms[1], 1.25);
  EXPECT_TRUE(std::isnan(s.fc_ms[2]));
  const nlohmann::json j = summarize_frames(s);
  EXPECT_DOUBLE_EQ(j["fc_ms"]["mean"].get<double>(), 3.0);
  EXPECT_EQ(j["frame_copy_note"], "2 of 3 frames have an fc_ms, 2 an as_ms: the others were not copied");
  EXPECT_ANY_THROW(read_pictor_frames("frame,ctx,swap_ns,fc_ms\n0,0,1000,-1\n", "frames.csv"))
      << "a negative copy time is a damaged file";
}

TEST(Summary, TooFewFramesGivesNullsAndAReason) {
  for (const auto& series : {FrameSeries{}, from_swaps_ms({0})}) {
    const nlohmann::json j = summarize_frames(series);
    EXPECT_EQ(j["frames"], series.swap_ns.size());
    for (const char* key : {"duration_s", "fps_avg", "frame_ms", "low_1pct_fps_percentile",
                            "low_0_1pct_fps_percentile", "low_1pct_fps_average",
                            "low_0_1pct_fps_average", "stutter", "gpu_ms"}) {
      EXPECT_TRUE(j[key].is_null()) << key;
    }
    ASSERT_TRUE(j["note"].is_string());
    EXPECT_NE(j["note"].get<std::string>().find("fewer than 2 frames"), std::string::npos);
  }
}

TEST(Summary, TwoFramesAreEnough) {
  const nlohmann::json j = summarize_frames(from_swaps_ms({0, 16}));
  EXPECT_EQ(j["frames"], 2);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["p99"].get<double>(), 16.0);
  EXPECT_EQ(j["stutter"]["count"], 0);
}

TEST(Summary, SampledSeriesHasNoFrameCountFpsOrStutter) {
  FrameSeries s;
  s.sampled = true;
  s.span_s = 4.5;
  s.frame_ms = {16, 17, 40, 16};
  s.notes = {"rows are samples"};
  const nlohmann::json j = summarize_frames(s);
  EXPECT_TRUE(j["sampled"].get<bool>());
  EXPECT_TRUE(j["frames"].is_null());
  EXPECT_TRUE(j["fps_avg"].is_null());
  EXPECT_TRUE(j["stutter"].is_null());
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["max"].get<double>(), 40.0);
  EXPECT_TRUE(j["note"].is_string());
  EXPECT_EQ(j["input_notes"][0], "rows are samples");
}

TEST(Summary, AllSwapsAtOneInstantLeaveFpsUnknown) {
  const nlohmann::json j = summarize_frames(from_swaps_ms({5, 5, 5}));
  EXPECT_EQ(j["frames"], 3);
  EXPECT_TRUE(j["fps_avg"].is_null());
  EXPECT_TRUE(j["low_1pct_fps_percentile"].is_null());
  EXPECT_TRUE(j["note"].is_string());
}

TEST(SummaryTable, ShowsFiguresAndUnknowns) {
  const std::string table = format_frame_summary(summarize_frames(from_swaps_ms({0, 20, 40, 70, 100})));
  EXPECT_NE(table.find("Average FPS         40.00"), std::string::npos) << table;
  EXPECT_NE(table.find("Frames              5"), std::string::npos) << table;
  EXPECT_NE(table.find("GPU time (ms)       unknown"), std::string::npos) << table;
  EXPECT_NE(table.find("p99.9"), std::string::npos) << table;
  const std::string empty = format_frame_summary(summarize_frames(FrameSeries{}));
  EXPECT_NE(empty.find("Average FPS         unknown"), std::string::npos) << empty;
  EXPECT_NE(empty.find("Duration            unknown\n"), std::string::npos) << empty;
  EXPECT_NE(empty.find("fewer than 2 frames"), std::string::npos) << empty;
}

TEST(SummaryTable, PrintsEachAdapterNoteOnItsOwnLine) {
  nlohmann::json s = summarize_frames(from_swaps_ms({0, 20, 40, 70, 100}));
  s["adapter_notes"] = {"client updates/s (30) reached Xvnc's -FrameRate cap (30)", "the client played vncviewer's window"};
  const std::string table = format_frame_summary(s);
  EXPECT_NE(table.find("\nAdapter note        client updates/s (30) reached Xvnc's -FrameRate cap (30)\n"
                       "Adapter note        the client played vncviewer's window\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(format_frame_summary(summarize_frames(from_swaps_ms({0, 20, 40}))).find("Adapter note"), std::string::npos);
}

}  // namespace
}  // namespace pictor::analysis
