// Trace layout (one file, two processes):
//   pid 1 "app": tid 1 frames and swaps (and, inside a swap, one "answers tag n" slice per input
//   it answers: the flows' targets); tid 2 GPU time; tid 3 the app's handling of each input (AL).
//   pid 2 "client": one async span per input, send → the frame that answered it; tid 1 captures.
// Flows use the trace format's bind_id form: each end is bound to its own slice by id, so the
// arrows do not depend on timestamps coinciding or on how a viewer orders equal timestamps.
#include "report/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "analysis/rtt_partition.h"
#include "core/error.h"
#include "core/files.h"

namespace pictor::report {

namespace {

using analysis::AppFrame;
using analysis::MatchedInput;
using analysis::MatchStatus;
using nlohmann::json;

constexpr int kAppPid = 1;
constexpr int kClientPid = 2;
constexpr int kRenderTid = 1;
constexpr int kGpuTid = 2;
constexpr int kInputTid = 3;
constexpr int kCaptureTid = 1;

struct Clock {
  std::int64_t origin_ns = 0;
  // Microseconds from the session's first timestamp, to the nanosecond.
  double us(std::int64_t ns) const { return static_cast<double>(ns - origin_ns) / 1e3; }
};

json meta(const char* what, int pid, int tid, const std::string& name) {
  return json{{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

json sort_index(const char* what, int pid, int tid, int index) {
  return json{{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", index}}}};
}

json slice(const std::string& name, const char* cat, int pid, int tid, double ts, double dur) {
  return json{{"ph", "X"}, {"name", name}, {"cat", cat}, {"pid", pid}, {"tid", tid},
              {"ts", ts}, {"dur", std::max(0.0, dur)}};
}

json ms_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

std::string input_name(const MatchedInput& m) {
  return fmt::format("tag {} {} {}", m.input.tag, m.input.kind, m.input.detail);
}

std::int64_t return_ns(const AppFrame& f) {
  return std::isfinite(f.swap_call_ms) ? f.swap_ns + std::llround(f.swap_call_ms * 1e6) : f.swap_ns;
}

std::int64_t earliest(const analysis::RttTimeline& t) {
  std::int64_t o = std::numeric_limits<std::int64_t>::max();
  if (!t.frames.empty()) o = std::min(o, t.frames.front().swap_ns);
  if (!t.sent.empty()) o = std::min(o, t.sent.front().sent_ns);
  if (!t.reads.empty()) o = std::min(o, t.reads.front().read_ns);
  for (const auto& c : t.seen) {
    const double cap = std::isfinite(c.capture_us) ? c.capture_us : 0.0;
    o = std::min(o, c.seen_ns - static_cast<std::int64_t>(std::llround(cap * 1e3)));
    break;  // captures are in time order: the first is the earliest
  }
  return o == std::numeric_limits<std::int64_t>::max() ? 0 : o;
}

void app_frames(const analysis::RttTimeline& t, std::span<const MatchedInput> inputs, const Clock& clk,
                json& events) {
  // Which inputs each frame answers: the targets of their flows.
  std::multimap<std::uint64_t, const MatchedInput*> answers;
  for (const MatchedInput& m : inputs)
    if (m.response_frame && m.read_ns && std::isfinite(m.al_ms)) answers.emplace(*m.response_frame, &m);

  double gpu_free_us = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < t.frames.size(); ++i) {
    const AppFrame& f = t.frames[i];
    const std::int64_t end = return_ns(f);
    // A frame on the app's thread runs from the previous swap's return to its own swap's return.
    const std::int64_t start = i > 0 ? return_ns(t.frames[i - 1]) : f.swap_ns;
    json frame = slice(fmt::format("frame {}", f.frame), "frame", kAppPid, kRenderTid, clk.us(start),
                       clk.us(end) - clk.us(start));
    frame["args"] = {{"frame", f.frame}, {"tag", f.tag}, {"gpu_ms", ms_or_null(f.gpu_ms)},
                     {"swap_call_ms", ms_or_null(f.swap_call_ms)}};
    events.push_back(frame);
    json swap = slice("swap", "frame", kAppPid, kRenderTid, clk.us(f.swap_ns), clk.us(end) - clk.us(f.swap_ns));
    swap["args"] = {{"frame", f.frame}, {"swap_ns", f.swap_ns}};
    events.push_back(swap);
    const auto [lo, hi] = answers.equal_range(f.frame);
    for (auto it = lo; it != hi; ++it) {
      const MatchedInput& m = *it->second;
      json a = slice(fmt::format("answers tag {}", m.input.tag), "input", kAppPid, kRenderTid,
                     clk.us(f.swap_ns), clk.us(end) - clk.us(f.swap_ns));
      a["bind_id"] = m.input.tag;
      a["flow_in"] = true;
      a["args"] = {{"tag", m.input.tag}, {"AL_ms", m.al_ms}};
      events.push_back(a);
    }
    if (std::isfinite(f.gpu_ms)) {
      // The timer query gives a duration, not a start: the slice starts where the query began on
      // the CPU timeline (this frame's start) or when the GPU finished the previous frame.
      const double ts = std::max(clk.us(start), gpu_free_us);
      const double dur = f.gpu_ms * 1e3;
      json gpu = slice(fmt::format("GPU frame {}", f.frame), "gpu", kAppPid, kGpuTid, ts, dur);
      gpu["args"] = {{"gpu_ms", f.gpu_ms},
                     {"placement", "duration measured by a GL timer query; start not measured"}};
      events.push_back(gpu);
      gpu_free_us = ts + dur;
    }
  }
}

void app_inputs(std::span<const MatchedInput> inputs, const Clock& clk, json& events) {
  for (const MatchedInput& m : inputs) {
    if (!m.read_ns) continue;
    if (m.response_swap_ns && std::isfinite(m.al_ms)) {
      // AL as a slice from the read to the response frame's swap, the flow's source.
      json s = slice(input_name(m) + " (AL)", "input", kAppPid, kInputTid, clk.us(*m.read_ns),
                     clk.us(*m.response_swap_ns) - clk.us(*m.read_ns));
      s["bind_id"] = m.input.tag;
      s["flow_out"] = true;
      s["args"] = {{"tag", m.input.tag}, {"app_tag", m.app_tag ? json(*m.app_tag) : json()},
                   {"PS_ms", ms_or_null(m.ps_ms)}, {"AL_ms", m.al_ms},
                   {"response_frame", *m.response_frame}};
      events.push_back(s);
    } else {
      json i{{"ph", "i"}, {"s", "t"}, {"name", input_name(m) + " read (no response frame)"},
             {"cat", "input"}, {"pid", kAppPid}, {"tid", kInputTid}, {"ts", clk.us(*m.read_ns)}};
      events.push_back(i);
    }
  }
}

void client_side(const analysis::RttTimeline& t, std::span<const MatchedInput> inputs,
                 const Clock& clk, json& events) {
  for (const MatchedInput& m : inputs) {
    json args{{"tag", m.input.tag}, {"kind", m.input.kind}, {"detail", m.input.detail},
              {"status", analysis::match_status_name(m.status)}};
    if (m.status == MatchStatus::matched) {
      args["rtt_ms"] = m.rtt_ms;
      args["response_frame"] = m.response_frame ? json(*m.response_frame) : json();
      args["seen_frame"] = m.seen_frame ? json(*m.seen_frame) : json();
      // The input's RTT as inputs.csv partitions it (docs/client.md "Stages").
      for (const analysis::ColumnInfo& c : analysis::partition_columns())
        args[c.name] = ms_or_null(analysis::column_value(m, c.column));
      events.push_back(json{{"ph", "b"}, {"name", input_name(m)}, {"cat", "input"}, {"id", m.input.tag},
                            {"pid", kClientPid}, {"tid", kCaptureTid}, {"ts", clk.us(m.input.sent_ns)},
                            {"args", args}});
      events.push_back(json{{"ph", "e"}, {"name", input_name(m)}, {"cat", "input"}, {"id", m.input.tag},
                            {"pid", kClientPid}, {"tid", kCaptureTid}, {"ts", clk.us(*m.seen_ns)}});
    } else {
      events.push_back(json{{"ph", "n"}, {"name", input_name(m) + " (no response seen)"},
                            {"cat", "input"}, {"id", m.input.tag}, {"pid", kClientPid},
                            {"tid", kCaptureTid}, {"ts", clk.us(m.input.sent_ns)}, {"args", args}});
    }
  }
  for (const analysis::SeenFrame& c : t.seen) {
    const double cap_us = std::isfinite(c.capture_us) ? c.capture_us : 0.0;
    const double dec_us = std::isfinite(c.decode_us) ? c.decode_us : 0.0;
    const double seen = clk.us(c.seen_ns);
    const std::string name = c.frame ? fmt::format("frame {}", *c.frame) : "no marker";
    json whole = slice(name, "client", kClientPid, kCaptureTid, seen - cap_us, cap_us + dec_us);
    whole["args"] = {{"tag", c.tag ? json(*c.tag) : json()}, {"frame", c.frame ? json(*c.frame) : json()},
                     {"capture_us", ms_or_null(c.capture_us)}, {"decode_us", ms_or_null(c.decode_us)}};
    events.push_back(whole);
    if (cap_us > 0) events.push_back(slice("capture", "client", kClientPid, kCaptureTid, seen - cap_us, cap_us));
    if (dec_us > 0) events.push_back(slice("decode", "client", kClientPid, kCaptureTid, seen, dec_us));
  }
}

}  // namespace

json build_trace(const analysis::RttTimeline& t, std::span<const MatchedInput> inputs) {
  Clock clk{earliest(t)};
  json events = json::array();
  events.push_back(meta("process_name", kAppPid, 0, "app"));
  events.push_back(sort_index("process_sort_index", kAppPid, 0, 1));
  events.push_back(meta("thread_name", kAppPid, kRenderTid, "frames (render thread)"));
  events.push_back(meta("thread_name", kAppPid, kGpuTid, "GPU (timer query)"));
  events.push_back(meta("thread_name", kAppPid, kInputTid, "input handling (AL)"));
  events.push_back(meta("process_name", kClientPid, 0, "client"));
  events.push_back(sort_index("process_sort_index", kClientPid, 0, 2));
  events.push_back(meta("thread_name", kClientPid, kCaptureTid, "captures"));
  app_frames(t, inputs, clk, events);
  app_inputs(inputs, clk, events);
  client_side(t, inputs, clk, events);
  json trace;
  trace["traceEvents"] = std::move(events);
  trace["displayTimeUnit"] = "ms";
  trace["otherData"] = {{"pictor_trace_schema", 1},
                        {"monotonic_origin_ns", clk.origin_ns},
                        {"notes", t.notes}};
  return trace;
}

void write_trace(const std::string& session_dir) {
  namespace fs = std::filesystem;
  const fs::path dir(session_dir);
  if (!fs::exists(dir / "frames.csv") && !fs::exists(dir / "client_frames.csv")) {
    throw UsageError(session_dir + ": no frames.csv or client_frames.csv to trace");
  }
  const analysis::RttTimeline t = analysis::load_rtt_timeline(session_dir, /*require_client=*/false);
  const auto inputs = analysis::match_timeline(t);
  // Whole or not at all: a trace cut by a full disk would be JSON no viewer opens.
  files::write_file(dir / "trace.json", build_trace(t, inputs).dump() + "\n");
}

}  // namespace pictor::report
