// trace.json: valid trace-event JSON, slices properly nested per thread, every flow bound by id
// from an input's read (AL slice) to a slice inside its response frame's swap, async spans paired.
#include "report/trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/error.h"
#include "core/files.h"
#include "core/tmpfs.h"

namespace pictor::report {
namespace {

using analysis::RttTimeline;
using nlohmann::json;
constexpr std::int64_t ms = 1'000'000;

// Pipelined timeline: two inputs answered by one frame, one by a later frame, one never read.
RttTimeline pipelined() {
  RttTimeline t;
  t.have_reads = t.have_frames = true;
  auto frame = [&](std::int64_t swap_ms, std::uint64_t tag, double gpu) {
    analysis::AppFrame f;
    f.frame = t.frames.size();
    f.swap_ns = 1000 * ms + swap_ms * ms;
    f.swap_call_ms = 0.5;
    f.gpu_ms = gpu;
    f.tag = tag;
    t.frames.push_back(f);
  };
  auto sent = [&](std::int64_t at) {
    t.sent.push_back({t.sent.size() + 1, "key_press", 65, 1000 * ms + at * ms});
  };
  auto read = [&](std::uint64_t tag, std::int64_t at) {
    t.reads.push_back({tag, "key_press", 65, 1000 * ms + at * ms});
  };
  auto seen = [&](std::int64_t at, std::uint64_t tag, std::uint64_t f) {
    analysis::SeenFrame c;
    c.seen_ns = 1000 * ms + at * ms;
    c.tag = tag;
    c.frame = f;
    c.capture_us = 40;
    c.decode_us = 2;
    t.seen.push_back(c);
  };
  frame(0, 0, 3.0);
  seen(2, 0, 0);
  sent(3), read(1, 4), sent(5), read(2, 6);
  frame(10, 2, 20.0);  // GPU time longer than the frame: GPU slices must queue, not overlap
  sent(12), read(3, 13);
  frame(20, 3, std::numeric_limits<double>::quiet_NaN());
  sent(25);            // never read
  seen(22, 2, 1), seen(31, 3, 2);
  return t;
}

json trace_of(const RttTimeline& t) {
  const auto inputs = analysis::match_timeline(t);
  // Through text and back: what a viewer gets.
  return json::parse(build_trace(t, inputs).dump());
}

void check_structure(const json& trace) {
  ASSERT_TRUE(trace.is_object());
  ASSERT_TRUE(trace["traceEvents"].is_array());
  EXPECT_EQ(trace["displayTimeUnit"], "ms");
  for (const json& e : trace["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e;
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer()) << e;
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer()) << e;
    ASSERT_TRUE(e.contains("name") && e["name"].is_string()) << e;
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "M" || ph == "X" || ph == "b" || ph == "e" || ph == "n" || ph == "i") << ph;
    if (ph == "M") continue;
    ASSERT_TRUE(e["ts"].is_number()) << e;
    EXPECT_GE(e["ts"].get<double>(), 0.0) << e;
    if (ph == "X") {
      ASSERT_TRUE(e["dur"].is_number() && e["dur"].get<double>() >= 0) << e;
    }
    if (ph == "b" || ph == "e" || ph == "n") {
      ASSERT_TRUE(e.contains("id") && e.contains("cat")) << e;
    }
  }
}

// Complete slices on one thread must nest: each lies inside the enclosing one or after it.
void check_nesting(const json& trace) {
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> by_thread;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X") by_thread[{e["pid"], e["tid"]}].push_back({e["ts"], e["ts"].get<double>() + e["dur"].get<double>()});
  for (auto& [thread, slices] : by_thread) {
    std::stable_sort(slices.begin(), slices.end(), [](auto& a, auto& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    std::vector<double> open_ends;
    for (const auto& [b, e] : slices) {
      while (!open_ends.empty() && open_ends.back() <= b) open_ends.pop_back();
      if (!open_ends.empty()) {
        EXPECT_LE(e, open_ends.back() + 1e-6)
            << "slice [" << b << "," << e << "] overlaps its parent on pid " << thread.first
            << " tid " << thread.second;
      }
      open_ends.push_back(e);
    }
  }
}

TEST(Trace, StructureAndNesting) {
  const json trace = trace_of(pipelined());
  check_structure(trace);
  check_nesting(trace);
  std::set<std::string> names;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["args"].contains("name")) names.insert(e["args"]["name"]);
  for (const char* n : {"app", "client", "frames (render thread)", "GPU (timer query)",
                        "input handling (AL)", "captures"})
    EXPECT_TRUE(names.contains(n)) << n;
}

TEST(Trace, EveryFlowRunsFromAnInputsReadToItsResponseSwap) {
  const RttTimeline t = pipelined();
  const auto inputs = analysis::match_timeline(t);
  const json trace = trace_of(t);
  std::map<std::uint64_t, json> out, in;
  std::vector<json> swaps;
  for (const json& e : trace["traceEvents"]) {
    if (e.contains("bind_id")) {
      auto& side = e.value("flow_out", false) ? out : in;
      EXPECT_TRUE(side.emplace(e["bind_id"].get<std::uint64_t>(), e).second) << "duplicate bind " << e;
      EXPECT_EQ(e["ph"], "X");
    }
    if (e["ph"] == "X" && e["name"] == "swap") swaps.push_back(e);
  }
  // Inputs 1-3 were read and answered; input 4 never read: three flows, ends paired by id.
  ASSERT_EQ(out.size(), 3u);
  ASSERT_EQ(in.size(), 3u);
  const double origin_ms = 1000.0 - 0.0;  // the first event is frame 0's swap at 1000 ms
  for (const auto& [id, src] : out) {
    ASSERT_TRUE(in.contains(id)) << id;
    const json& dst = in[id];
    const auto& m = inputs[id - 1];
    // Source: the AL slice on the input track, from the read to the response swap.
    EXPECT_EQ(src["tid"], 3);
    EXPECT_NEAR(src["ts"].get<double>(), (static_cast<double>(*m.read_ns) / 1e6 - origin_ms) * 1e3, 1e-3);
    EXPECT_NEAR(src["dur"].get<double>(), m.al_ms * 1e3, 1e-3);
    // Target: on the render thread, at the response frame's swap, inside that swap's slice.
    EXPECT_EQ(dst["tid"], 1);
    EXPECT_EQ(dst["pid"], src["pid"]);
    const double swap_us = (static_cast<double>(*m.response_swap_ns) / 1e6 - origin_ms) * 1e3;
    EXPECT_NEAR(dst["ts"].get<double>(), swap_us, 1e-3);
    bool inside = false;
    for (const json& s : swaps) {
      const double b = s["ts"], e = b + s["dur"].get<double>();
      inside |= dst["ts"].get<double>() >= b - 1e-6 &&
                dst["ts"].get<double>() + dst["dur"].get<double>() <= e + 1e-6;
    }
    EXPECT_TRUE(inside) << dst;
  }
  // Inputs 1 and 2 share frame 1 as response: two flows end in the same swap.
  EXPECT_EQ(in[1]["ts"], in[2]["ts"]);
  EXPECT_NE(in[2]["ts"], in[3]["ts"]);
}

TEST(Trace, AsyncSpansFromSendToSeenAndGpuTrack) {
  const json trace = trace_of(pipelined());
  std::map<std::uint64_t, double> begin, end;
  int unseen = 0;
  std::vector<std::pair<double, double>> gpu;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "b") begin[e["id"]] = e["ts"];
    if (e["ph"] == "e") end[e["id"]] = e["ts"];
    if (e["ph"] == "n") ++unseen;
    if (e["ph"] == "X" && e["tid"] == 2 && e["pid"] == 1) gpu.push_back({e["ts"], e["dur"]});
  }
  ASSERT_EQ(begin.size(), 3u);
  ASSERT_EQ(end.size(), 3u);
  EXPECT_EQ(unseen, 1);
  EXPECT_NEAR(end[1] - begin[1], (22 - 3) * 1e3, 1e-3);  // RTT of input 1 in µs
  EXPECT_NEAR(end[3] - begin[3], (31 - 12) * 1e3, 1e-3);
  // Two frames have GPU times; the third is unknown and has no slice (never a 0).
  ASSERT_EQ(gpu.size(), 2u);
  EXPECT_NEAR(gpu[1].second, 20e3, 1e-6);
  EXPECT_GE(gpu[1].first, gpu[0].first + gpu[0].second);  // queued behind the previous frame
}

TEST(Trace, WriteTraceFromSessionFiles) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pictor-trace-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "frames.csv") << "# pictor frames schema 1\n"
                                       "frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
                                       "0,1,1000000,,,0.1,,,\n1,1,17000000,16,15.9,0.1,2.0,,\n";
  write_trace(dir.string());  // frames only: no client ran
  std::ifstream in(dir / "trace.json");
  const json trace = json::parse(in);
  check_structure(trace);
  int frames = 0;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["name"].get<std::string>().rfind("frame ", 0) == 0) ++frames;
  EXPECT_EQ(frames, 2);
  fs::remove_all(dir);
  EXPECT_THROW(write_trace(dir.string()), UsageError);
}


// At a few hundred KB a trace no longer fits: it is not written at all (never cut into JSON no
// viewer opens), the error names the disk, and no temporary file stays.
TEST(Trace, AFullDiskWritesNoPartOfTheTrace) {
  namespace fs = std::filesystem;
  test::Tmpfs t("300k");
  PICTOR_SKIP_WITHOUT_TMPFS(t);
  {
    std::ofstream f(t.path() / "frames.csv");
    f << "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n";
    for (int i = 0; i < 3000; ++i)
      f << i << ",0," << 1'000'000'000LL + i * 16'000'000LL << ",16.0000,15.0000,1.0000,2.0000,,\n";
  }
  const auto frames_size = fs::file_size(t.path() / "frames.csv");
  try {
    write_trace(t.path().string());
    ADD_FAILURE() << "the trace must not fit";
  } catch (const files::WriteError& e) {
    EXPECT_TRUE(e.disk_full());
    EXPECT_NE(std::string(e.what()).find("is full (No space left on device)"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(t.path() / "trace.json"));
  EXPECT_EQ(fs::file_size(t.path() / "frames.csv"), frames_size);
  for (const auto& f : fs::directory_iterator(t.path())) EXPECT_NE(f.path().extension(), ".tmp") << f.path();
}

}  // namespace
}  // namespace pictor::report
