// Input-to-frame matching on constructed timelines (sequential, pipelined, merged and skipped
// frames, inputs the app never receives), the summary's figures, and the session files.
#include "analysis/rtt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "analysis/csv.h"
#include "analysis/rtt_partition.h"
#include "core/error.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

constexpr std::int64_t ms = 1'000'000;

// The partition columns of one input, summed (unknown ones count 0).
double column_sum(const MatchedInput& m) {
  double sum = 0;
  for (const ColumnInfo& c : partition_columns())
    if (std::isfinite(column_value(m, c.column))) sum += column_value(m, c.column);
  return sum;
}

// A timeline builder in milliseconds from an arbitrary origin.
struct Builder {
  RttTimeline t;
  Builder() {
    t.have_reads = true;
    t.have_frames = true;
  }
  Builder& sent(std::int64_t at_ms, const std::string& kind = "key_press", std::int64_t detail = 65) {
    t.sent.push_back({t.sent.size() + 1, kind, detail, at_ms * ms});
    return *this;
  }
  Builder& read(std::uint64_t tag, std::int64_t at_ms, const std::string& kind = "key_press",
                std::int64_t detail = 65) {
    t.reads.push_back({tag, kind, detail, at_ms * ms});
    return *this;
  }
  // A swap at swap_ms whose call takes call_ms (NaN: not timed).
  Builder& frame(std::int64_t swap_ms, std::uint64_t tag, double gpu_ms = 2.0, double call_ms = 1.0) {
    AppFrame f;
    f.frame = t.frames.size();
    f.swap_ns = swap_ms * ms;
    f.gpu_ms = gpu_ms;
    f.swap_call_ms = call_ms;
    f.tag = tag;
    t.frames.push_back(f);
    return *this;
  }
  Builder& seen(std::int64_t at_ms, std::optional<std::uint64_t> tag, std::optional<std::uint64_t> frame) {
    SeenFrame c;
    c.seen_ns = at_ms * ms;
    c.tag = tag;
    c.frame = frame;
    c.decode_us = 3;
    t.seen.push_back(c);
    return *this;
  }
};

TEST(RttMatch, SequentialInputsGiveEveryStage) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.sent(10).read(1, 11).frame(16, 1, 2.5).seen(18, 1, 1);
  b.sent(40).read(2, 42).frame(48, 2).seen(50, 2, 2);
  const auto m = match_timeline(b.t);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_EQ(m[0].response_frame, 1u);
  EXPECT_EQ(m[0].seen_frame, 1u);
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 8.0);
  EXPECT_DOUBLE_EQ(m[0].ps_ms, 1.0);
  EXPECT_DOUBLE_EQ(m[0].al_ms, 5.0);
  EXPECT_DOUBLE_EQ(m[0].rd_ms, 2.5);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 1.0);              // the swap call
  EXPECT_DOUBLE_EQ(m[0].wait_later_frame_ms, 0);  // the client saw the response frame itself
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 1.0);              // swap return .. seen
  EXPECT_DOUBLE_EQ(m[0].wait_app_ms, 0);          // frame 0 had returned before the send
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 0);
  // The columns partition the RTT; RD (a GPU duration overlapping AL and AS) is not among them.
  EXPECT_DOUBLE_EQ(m[0].wait_app_ms + m[0].ps_ms + m[0].al_ms + m[0].as_ms + m[0].wait_later_frame_ms + m[0].ss_ms,
                   m[0].rtt_ms);
  EXPECT_TRUE(std::isnan(m[0].cs_ms));  // not on a local path
  EXPECT_TRUE(std::isnan(m[0].cp_ms));
  EXPECT_DOUBLE_EQ(m[1].rtt_ms, 10.0);
  EXPECT_EQ(m[1].response_frame, 2u);
  EXPECT_DOUBLE_EQ(column_sum(m[1]), 10.0);
}

TEST(RttMatch, PipelinedInputsMatchFramesThatArriveAfterLaterInputsWereSent) {
  // Input 2 is sent before the client has the answer to input 1; frames reach the client two
  // frames late (deep pipeline). Each input still matches the first frame whose tag covers it.
  Builder b;
  b.frame(0, 0).frame(10, 0);
  b.sent(12).read(1, 13);
  b.sent(15).read(2, 16);      // both read before the next swap...
  b.frame(20, 2);              // ...so frame 2 answers both (its tag is the later one)
  b.sent(22).read(3, 24);
  b.frame(30, 3).frame(40, 3);
  b.seen(21, 0, 0).seen(31, 0, 1).seen(41, 2, 2).seen(51, 3, 3).seen(61, 3, 4);
  const auto m = match_timeline(b.t);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].response_frame, 2u);
  EXPECT_EQ(m[1].response_frame, 2u);
  EXPECT_EQ(m[0].seen_frame, 2u);
  EXPECT_EQ(m[1].seen_frame, 2u);
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 41.0 - 12.0);
  EXPECT_DOUBLE_EQ(m[1].rtt_ms, 41.0 - 15.0);
  EXPECT_DOUBLE_EQ(m[1].al_ms, 4.0);
  EXPECT_DOUBLE_EQ(m[1].as_ms, 1.0);
  EXPECT_DOUBLE_EQ(m[1].ss_ms, 20.0);  // the deep pipeline: swap return at 21 ms, seen at 41 ms
  // Input 3: frame 3 is the first with tag >= 3, not frame 4 which keeps the same tag.
  EXPECT_EQ(m[2].response_frame, 3u);
  EXPECT_EQ(m[2].seen_frame, 3u);
  EXPECT_DOUBLE_EQ(m[2].rtt_ms, 51.0 - 22.0);
}

TEST(RttMatch, SkippedOrMergedResponseFrameMatchesTheNextFrameThatCarriesTheTag) {
  Builder b;
  b.frame(0, 0).seen(2, 0, 0);
  b.sent(5).read(1, 6).frame(10, 1);  // the response frame, never captured by the client
  b.sent(12).read(2, 13).frame(20, 2);
  b.seen(23, std::nullopt, std::nullopt);  // a capture whose marker did not read: skipped
  b.seen(24, 2, 2);
  const auto m = match_timeline(b.t);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_EQ(m[0].response_frame, 1u);
  EXPECT_EQ(m[0].seen_frame, 2u);                 // a later frame answers it at the client
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 24.0 - 5.0);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 1.0);                 // the response frame's swap call
  EXPECT_DOUBLE_EQ(m[0].wait_later_frame_ms, 10.0);  // its return (11) .. frame 2's return (21)
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 3.0);                 // frame 2's return .. seen
  EXPECT_DOUBLE_EQ(column_sum(m[0]), m[0].rtt_ms);
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 0);
}

TEST(RttMatch, TheClientsFrameCountIsResolvedAgainstTheAppsByItsLowBitsAndTag) {
  // The client unwraps the marker's 8-bit frame counter from the first frame it saw, so its count
  // can be 256 behind the app's: the frame it saw is found by low bits and tag.
  Builder b;
  for (int i = 0; i < 300; ++i) b.frame(i, 0, NAN, 0.5);
  b.seen(300, 0, 299 - 256);
  b.sent(301).read(1, 302).frame(303, 1).frame(305, 1).seen(307, 1, 301 - 256);
  const auto m = match_timeline(b.t);
  ASSERT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_EQ(m[0].response_frame, 300u);
  EXPECT_EQ(m[0].seen_frame, 301u);                  // the app's number, not the client's 45
  EXPECT_DOUBLE_EQ(m[0].wait_later_frame_ms, 2.0);  // 304 .. 306
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 1.0);
  EXPECT_DOUBLE_EQ(column_sum(m[0]), m[0].rtt_ms);
  // A reading that no frame after the response has: the shown frame is unknown, never guessed.
  b.t.seen.back().frame = 7;
  std::vector<std::string> notes;
  const auto n = match_timeline(b.t, &notes);
  EXPECT_FALSE(n[0].seen_frame);
  EXPECT_TRUE(std::isnan(n[0].wait_later_frame_ms));
  EXPECT_DOUBLE_EQ(n[0].unattributed_ms, 3.0);  // the response's return .. seen
  EXPECT_DOUBLE_EQ(column_sum(n[0]), n[0].rtt_ms);
}

TEST(RttPartition, InputArrivingWhileTheAppIsInAFrameWaitsForItsSwapToReturn) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.frame(10, 0, 2.0, 8.0);  // the swap call from 10 to 18 ms (llvmpipe rasterising)
  b.sent(12).read(1, 19).frame(25, 1).seen(27, 1, 2);
  const auto m = match_timeline(b.t);
  ASSERT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_DOUBLE_EQ(m[0].wait_app_ms, 6.0);  // sent at 12, the app free at 18
  EXPECT_DOUBLE_EQ(m[0].ps_ms, 1.0);        // 18 .. read at 19
  EXPECT_DOUBLE_EQ(m[0].al_ms, 6.0);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 1.0);
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 1.0);
  EXPECT_DOUBLE_EQ(column_sum(m[0]), 15.0);
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 15.0);
}

TEST(RttPartition, UnknownTimestampsGoToUnattributedAndTheSumStillHolds) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.sent(10).read(1, 11).frame(16, 1, 2.0, NAN).seen(20, 1, 1);  // the swap call was not timed
  const auto m = match_timeline(b.t);
  EXPECT_DOUBLE_EQ(m[0].al_ms, 5.0);
  EXPECT_TRUE(std::isnan(m[0].as_ms));
  EXPECT_TRUE(std::isnan(m[0].wait_later_frame_ms));
  EXPECT_TRUE(std::isnan(m[0].ss_ms));
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 4.0);  // swap start .. seen: nothing splits it
  EXPECT_DOUBLE_EQ(column_sum(m[0]), m[0].rtt_ms);
  const auto s = rtt_summary(b.t, m);
  EXPECT_EQ(s["rtt_partition"]["complete"], 0);
  EXPECT_DOUBLE_EQ(s["rtt_partition"]["unattributed_share"]["max"].get<double>(), 0.4);
}

TEST(RttPartition, ClientHoldingTheFrameBeforeTheSwapReturnedCountsTheOverlapInAs) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.sent(10).read(1, 11).frame(16, 1, 2.0, 5.0).seen(19, 1, 1);  // seen at 19, swap returns at 21
  std::vector<std::string> notes;
  const auto m = match_timeline(b.t, &notes);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 3.0);  // clamped at seen
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 0.0);
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 0.0);
  EXPECT_DOUBLE_EQ(column_sum(m[0]), m[0].rtt_ms);
  std::string all;
  for (const auto& n : notes) all += n;
  EXPECT_NE(all.find("counted in the earlier stage"), std::string::npos) << all;
}

TEST(RttPartition, AResponseFrameSwappedBeforeTheReadLeavesAlUnknown) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.sent(10).read(1, 17).frame(16, 1).seen(20, 1, 1);  // files out of step: read after the swap
  b.t.frames.back().tag = 1;
  const auto m = match_timeline(b.t);
  EXPECT_TRUE(std::isnan(m[0].al_ms));
  EXPECT_TRUE(std::isnan(m[0].as_ms));  // its start (the swap, before the read) was dropped
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 3.0);
  EXPECT_DOUBLE_EQ(column_sum(m[0]), m[0].rtt_ms);
}

TEST(RttMatch, InputsTheAppNeverReceivesAreNotReadAndTagsRealign) {
  // The app selects KeyPress only: X never delivers the releases, so the interposer counts
  // presses 1, 2, 3 while the client numbered press/release 1..6.
  Builder b;
  b.frame(0, 0);
  b.sent(10, "key_press", 38).sent(20, "key_release", 38);
  b.sent(40, "key_press", 39).sent(50, "key_release", 39);
  b.sent(70, "key_press", 38).sent(80, "key_release", 38);
  b.read(1, 11, "key_press", 38).read(2, 41, "key_press", 39).read(3, 71, "key_press", 38);
  b.frame(15, 1).frame(45, 2).frame(75, 3);
  b.seen(17, 1, 1).seen(47, 2, 2).seen(77, 3, 3);
  std::vector<std::string> notes;
  const auto m = match_timeline(b.t, &notes);
  ASSERT_EQ(m.size(), 6u);
  for (std::size_t i : {1u, 3u, 5u}) EXPECT_EQ(m[i].status, MatchStatus::not_read) << i;
  EXPECT_EQ(m[2].app_tag, 2u);
  EXPECT_EQ(m[2].response_frame, 2u);
  EXPECT_DOUBLE_EQ(m[2].rtt_ms, 7.0);
  EXPECT_EQ(m[4].app_tag, 3u);
  EXPECT_DOUBLE_EQ(m[4].rtt_ms, 7.0);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("did not receive 3 sent input"), std::string::npos) << notes[0];
}

TEST(RttMatch, StartUpReadsShiftTheAppTagsAndAreNotCountedAsLostInputs) {
  // A profile's two start-up clicks were read before the client's first input: the app's tags
  // run two ahead, and every sent input was still received.
  Builder b;
  b.frame(0, 0);
  b.read(1, 2, "button_press", 1).read(2, 3, "button_release", 1);
  b.sent(10, "key_press", 38).sent(20, "key_release", 38);
  b.read(3, 11, "key_press", 38).read(4, 21, "key_release", 38);
  b.frame(15, 3).frame(25, 4);
  b.seen(17, 3, 1).seen(27, 4, 2);
  std::vector<std::string> notes;
  const auto m = match_timeline(b.t, &notes);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_EQ(m[0].app_tag, 3u);
  EXPECT_EQ(m[1].app_tag, 4u);
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_EQ(all.find("did not receive"), std::string::npos) << all;
  EXPECT_NE(all.find("2 start-up read(s)"), std::string::npos) << all;
}

TEST(RttMatch, UnansweredInputsAndMissingInterposerFiles) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  b.sent(10).read(1, 11).frame(16, 1).seen(18, 1, 1);
  b.sent(30).read(2, 31);              // read, app ended before the next swap
  b.sent(40);                          // never read
  const auto m = match_timeline(b.t);
  EXPECT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_EQ(m[1].status, MatchStatus::no_response_frame);
  EXPECT_TRUE(std::isnan(m[1].rtt_ms));
  EXPECT_TRUE(std::isnan(m[1].al_ms));
  EXPECT_DOUBLE_EQ(m[1].ps_ms, 1.0);
  EXPECT_TRUE(std::isnan(m[1].unattributed_ms));  // no RTT to partition
  EXPECT_EQ(m[2].status, MatchStatus::not_read);

  // Without inputs_read.csv and frames.csv only RTT is measurable: tag n = n-th sent.
  Builder c;
  c.t.have_reads = false;
  c.t.have_frames = false;
  c.sent(10).sent(20).seen(5, 0, 0).seen(25, 2, 3);
  std::vector<std::string> notes;
  const auto n = match_timeline(c.t, &notes);
  EXPECT_EQ(n[0].status, MatchStatus::matched);
  EXPECT_DOUBLE_EQ(n[0].rtt_ms, 15.0);
  EXPECT_TRUE(std::isnan(n[0].ps_ms));
  EXPECT_TRUE(std::isnan(n[0].al_ms));
  EXPECT_TRUE(std::isnan(n[0].rd_ms));
  EXPECT_FALSE(n[0].response_frame);
  EXPECT_FALSE(notes.empty());
}

TEST(RttMatch, FrameSeenBeforeTheInputWasSentIsNotAMatch) {
  // Tags out of step (a foreign or damaged file): never turn that into a negative RTT.
  Builder b;
  b.t.have_reads = false;
  b.t.have_frames = false;
  b.sent(10).seen(5, 1, 1);
  std::vector<std::string> notes;
  const auto m = match_timeline(b.t, &notes);
  EXPECT_EQ(m[0].status, MatchStatus::not_seen);
  EXPECT_TRUE(std::isnan(m[0].rtt_ms));
  EXPECT_NE(notes.back().find("before sending"), std::string::npos);
}

TEST(RttSummary, DistributionsCountsAndClientFrames) {
  Builder b;
  b.frame(0, 0).seen(1, 0, 0);
  for (int i = 1; i <= 10; ++i) {
    const std::int64_t t0 = i * 100;
    b.sent(t0).read(static_cast<std::uint64_t>(i), t0 + 1).frame(t0 + 5, static_cast<std::uint64_t>(i));
    b.seen(t0 + 5 + i, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(i));
  }
  b.seen(1200, 10, 10);             // the same frame captured again: a duplicate
  b.sent(1300);                     // never read
  const auto m = match_timeline(b.t);
  const auto s = rtt_summary(b.t, m);
  EXPECT_EQ(s["inputs"]["sent"], 11);
  EXPECT_EQ(s["inputs"]["matched"], 10);
  EXPECT_EQ(s["inputs"]["unmatched"], 1);
  EXPECT_EQ(s["inputs"]["not_read"], 1);
  const auto& rtt = s["rtt_ms"];
  EXPECT_EQ(rtt["n"], 10);
  EXPECT_DOUBLE_EQ(rtt["min"].get<double>(), 6.0);   // 5 + i for i = 1..10
  EXPECT_DOUBLE_EQ(rtt["max"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(rtt["mean"].get<double>(), 10.5);
  EXPECT_DOUBLE_EQ(rtt["p50"].get<double>(), 10.0);  // nearest rank 5 of 10
  EXPECT_DOUBLE_EQ(rtt["p1"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(rtt["p99"].get<double>(), 15.0);
  const double lo = rtt["ci95"][0], hi = rtt["ci95"][1];
  EXPECT_LT(lo, 10.5);
  EXPECT_GT(hi, 10.5);
  EXPECT_GT(lo, 8.0);
  EXPECT_LT(hi, 13.0);
  EXPECT_EQ(s["stages_ms"]["PS_ms"]["n"], 10);
  EXPECT_DOUBLE_EQ(s["stages_ms"]["AL_ms"]["mean"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(s["stages_ms"]["RD_ms"]["mean"].get<double>(), 2.0);
  EXPECT_TRUE(s["stages_ms"]["RD_ms"].contains("source"));
  EXPECT_EQ(s["stages_ms"]["RD_ms"]["in_rtt_sum"], false);
  // Every column on the local path has the same n, and the shares of the RTT add up to 1.
  const auto& part = s["rtt_partition"];
  EXPECT_EQ(part["columns"], nlohmann::json::array({"wait_app_ms", "PS_ms", "AL_ms", "AS_ms", "wait_later_frame_ms",
                                                    "SS_ms", "unattributed_ms"}));
  double shares = 0;
  for (const auto& c : part["columns"]) {
    EXPECT_EQ(s["stages_ms"][c.get<std::string>()]["n"], 10) << c;
    shares += s["stages_ms"][c.get<std::string>()]["rtt_share"].get<double>();
  }
  EXPECT_NEAR(shares, 1.0, 1e-12);
  EXPECT_EQ(part["complete"], 10);
  EXPECT_EQ(part["matched"], 10);
  EXPECT_LT(part["max_sum_error_ms"].get<double>(), 1e-9);
  EXPECT_DOUBLE_EQ(part["unattributed_share"]["max"].get<double>(), 0.0);
  // AS is named for what it holds: without a known software renderer, the swap call.
  EXPECT_EQ(s["stages_ms"]["AS_ms"]["label"], "AS");
  b.t.gl_renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  const auto soft = rtt_summary(b.t, m);
  EXPECT_EQ(soft["stages_ms"]["AS_ms"]["label"], "RD+AS");
  EXPECT_EQ(soft["rtt_partition"]["software_renderer"], true);
  const std::string table = format_rtt_summary(soft);
  EXPECT_NE(table.find("RD+AS swap"), std::string::npos) << table;
  EXPECT_NE(table.find("Unattributed"), std::string::npos) << table;
  EXPECT_NE(table.find("llvmpipe"), std::string::npos) << table;
  EXPECT_NE(table.find("timer queries miss the raster threads"), std::string::npos) << table;
  // The hook's default on llvmpipe takes no timer queries (no RD row has a count): the footnote
  // says none were taken and how to take them, not that they miss something.
  auto untimed = soft;
  untimed["stages_ms"]["RD_ms"] = distribution_json({});
  const std::string untimed_table = format_rtt_summary(untimed);
  EXPECT_EQ(untimed_table.find("timer queries miss"), std::string::npos) << untimed_table;
  EXPECT_NE(untimed_table.find("so none are taken (PICTOR_GPU_TIMING=1 takes them)"), std::string::npos)
      << untimed_table;
  EXPECT_EQ(s["client_frames"]["seen"], 11);
  EXPECT_EQ(s["client_frames"]["duplicates"], 1);
  EXPECT_EQ(s["client_frames"]["missed"], 0);
  // 11 distinct frames, first new at 1 ms, last new at 100*10 + 15 = 1015 ms.
  EXPECT_NEAR(s["fps_client"].get<double>(), 10.0 / 1.014, 1e-9);
}

TEST(RttSummary, UnknownIsNullNeverZero) {
  RttTimeline t;
  const auto s = rtt_summary(t, {});
  EXPECT_EQ(s["rtt_ms"]["n"], 0);
  EXPECT_TRUE(s["rtt_ms"]["mean"].is_null());
  EXPECT_TRUE(s["rtt_ms"]["ci95"].is_null());
  EXPECT_TRUE(s["rtt_ms"]["p50"].is_null());
  EXPECT_TRUE(s["fps_client"].is_null());
  EXPECT_TRUE(s["client_frames"]["missed"].is_null());
  const std::vector<double> one = {4.0};
  const auto d = distribution_json(one);
  EXPECT_EQ(d["n"], 1);
  EXPECT_DOUBLE_EQ(d["mean"].get<double>(), 4.0);
  EXPECT_TRUE(d["ci95"].is_null());  // a bootstrap of one value says nothing
}

TEST(RttSummary, BootstrapIsSeededAndReproducible) {
  std::vector<double> v;
  for (int i = 0; i < 200; ++i) v.push_back(std::fmod(i * 7.3, 31.0));
  const Interval a = bootstrap_mean_ci95(v, 1), b = bootstrap_mean_ci95(v, 1), c = bootstrap_mean_ci95(v, 2);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
  EXPECT_TRUE(a.lo != c.lo || a.hi != c.hi);
  // Normal theory: mean ± 1.96 sd/sqrt(n); the bootstrap lands within 15 % of that half-width.
  double mean = 0, var = 0;
  for (double x : v) mean += x / 200;
  for (double x : v) var += (x - mean) * (x - mean) / 199;
  const double half = 1.96 * std::sqrt(var / 200);
  EXPECT_NEAR((a.hi - a.lo) / 2, half, 0.15 * half);
  EXPECT_NEAR((a.hi + a.lo) / 2, mean, 0.2 * half);
}

TEST(RttFiles, MatchInputsReadsTheSessionAndWritesInputsCsv) {
  test::TempDir dir;
  dir.write("client_inputs.csv",
            "# pictor client_inputs schema 1\ntag,kind,detail,sent_ns,name\n"
            "1,key_press,65,1000000000,space\n2,key_release,65,1010000000,space\n");
  dir.write("inputs_read.csv",
            "# pictor inputs_read schema 1\ntag,kind,detail,read_ns\n"
            "1,key_press,65,1001000000\n2,key_release,65,1011000000\n");
  dir.write("frames.csv",
            "# pictor frames schema 1\nframe,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
            "0,1,990000000,,,0.1000,,,\n"
            "1,1,1005000000,15.0,14.9,0.1000,1.2500,,1\n"
            "2,1,1020000000,15.0,14.9,0.1000,,,2\n");
  dir.write("client_frames.csv",
            "# pictor client_frames schema 1\nseen_ns,tag,frame,decode_us,capture_us\n"
            "991000000,0,0,2.1,40.0\n1007000000,1,1,2.0,41.0\n1022000000,2,2,2.2,39.0\n");
  const auto s = match_inputs(dir.path());
  EXPECT_EQ(s["inputs"]["matched"], 2);
  EXPECT_DOUBLE_EQ(s["rtt_ms"]["min"].get<double>(), 7.0);
  EXPECT_EQ(s["stages_ms"]["RD_ms"]["n"], 1);  // frame 2's GPU time is unknown: left out
  std::ifstream in(dir.path() + "/inputs.csv");
  std::string header, row1, row2;
  std::getline(in, header);  // the header row first: any CSV reader opens the file
  std::getline(in, row1);
  std::getline(in, row2);
  EXPECT_EQ(header.rfind("tag,kind,sent_ns,read_ns,response_frame,seen_ns,rtt_ms,PS_ms,AL_ms,RD_ms,AS_ms", 0), 0u);
  EXPECT_EQ(row1, "1,key_press,1000000000,1001000000,1,1007000000,7.000000,1.000000,4.000000,1.250000,"
                  "0.100000,65,1,1,matched,,,,1.900000,,0.000000,0.000000,,0.000000");
  // Local session: the remote stages (CS SP CP FC, wait_proxy) are empty cells, never 0.
  EXPECT_NE(header.find(",status,CS_ms,SP_ms,CP_ms,SS_ms,FC_ms,wait_app_ms,wait_later_frame_ms,wait_proxy_ms,"
                        "unattributed_ms"),
            std::string::npos);
  EXPECT_FALSE(s["stages_ms"].contains("CS_ms"));
  EXPECT_FALSE(s["stages_ms"].contains("wait_proxy_ms"));
  EXPECT_FALSE(s.contains("fps_client_updates"));
  // Unknown RD is an empty cell, never 0.
  EXPECT_EQ(row2, "2,key_release,1010000000,1011000000,2,1022000000,12.000000,1.000000,9.000000,,"
                  "0.100000,65,2,2,matched,,,,1.900000,,0.000000,0.000000,,0.000000");
}

TEST(RttFiles, BadContentNamesFileAndLine) {
  test::TempDir dir;
  dir.write("client_inputs.csv", "tag,kind,detail,sent_ns\n1,key_press,65,100\n3,key_press,65,200\n");
  dir.write("client_frames.csv", "seen_ns,tag,frame,decode_us\n");
  try {
    match_inputs(dir.path());
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("client_inputs.csv:3: tag 3 where 2 was expected"), std::string::npos)
        << e.what();
  }
  dir.write("client_inputs.csv", "tag,kind,detail,sent_ns\n1,key_hold,65,100\n");
  try {
    match_inputs(dir.path());
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("client_inputs.csv:2: column 'kind': unknown input kind 'key_hold'"),
              std::string::npos)
        << e.what();
  }
  test::TempDir empty;
  EXPECT_THROW(match_inputs(empty.path()), UsageError);
}

}  // namespace
}  // namespace pictor::analysis
