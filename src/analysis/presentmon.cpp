// Reader for PresentMon CSV captures: 1.x ("msBetweenPresents" with "TimeInSeconds"), 2.x default
// ("MsBetweenPresents" with "TimeInMs"/"TimeInSeconds") and 2.x --v2_metrics ("FrameTime" with
// "CPUStartTime"). One file may hold several processes and swap chains; the busiest one is read.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/csv.h"
#include "analysis/importers.h"
#include "core/text.h"

namespace pictor::analysis {

namespace {

// Times become int64 ns, and the frame analysis subtracts them: up to 1e12 ms (31 years) every
// sum and difference of a time and an interval stays far inside int64, and no capture is longer.
constexpr double kMaxMs = 1e12;

[[noreturn]] void out_of_range(const CsvRow& row, const CsvHeader& header, std::size_t column) {
  fail_at(header.path(), row.line,
          fmt::format("column '{}': {} is out of range (above 1e12 ms, 31 years)", header.name(column),
                      quote_for_error(row.fields[column], 40)));
}

struct Present {
  std::optional<double> frame_ms;
  std::optional<double> time_ms;
  double gpu_ms = kUnknown;
  std::size_t line = 0;
};

struct Chain {
  std::string application;
  std::string process_id;
  std::string swap_chain;
  std::vector<Present> presents;
};

}  // namespace

FrameSeries read_presentmon_csv(std::string_view text, const std::string& path) {
  FrameSeries series;
  series.source = "presentmon";
  series.path = path;

  CsvReader reader(text, path);
  CsvRow row;
  if (!reader.next(row)) fail_at(path, 1, "no header row");
  const CsvHeader header(row, path);
  const std::size_t c_app = header.require("Application");
  const std::size_t c_pid = header.require("ProcessID");
  const auto c_chain = header.find("SwapChainAddress");

  // MsBetweenPresents[i] is the time from the previous present to present i (backward); 2.x's
  // FrameTime[i] runs from frame i's CPU start to frame i+1's (forward). The timestamp column that
  // belongs to each is the one measured at the same point of the frame.
  bool forward = false;
  std::optional<std::size_t> c_frame = header.find("MsBetweenPresents");
  std::optional<std::size_t> c_time;
  double time_to_ms = 1.0;
  if (c_frame) {
    if ((c_time = header.find("TimeInSeconds"))) {
      time_to_ms = 1e3;
    } else {
      c_time = header.find("TimeInMs");
    }
  } else if ((c_frame = header.find("FrameTime"))) {
    forward = true;
    c_time = header.find_any({"CPUStartTime", "CPUStartTimeInMs"});
  } else {
    fail_at(path, header.line(), "missing required column 'MsBetweenPresents' (or 'FrameTime')");
  }
  // GPU time: total GPU time of the frame where PresentMon gives it (closest to a timer query
  // around the frame's commands), else the busy time.
  std::string gpu_kind;
  std::optional<std::size_t> c_gpu;
  if ((c_gpu = header.find_any({"MsGPUTime", "GPUTime"}))) {
    gpu_kind = "presentmon-gpu-time";
  } else if ((c_gpu = header.find_any({"MsGPUBusy", "GPUBusy"}))) {
    gpu_kind = "presentmon-gpu-busy";
  } else if ((c_gpu = header.find("msGPUActive"))) {
    gpu_kind = "presentmon-gpu-active";
  }

  std::vector<std::pair<std::string, std::string>> order;  // (pid, chain) in order of first row
  std::map<std::pair<std::string, std::string>, Chain> chains;
  while (reader.next(row)) {
    if (!check_row_width(row, header, series.notes)) continue;
    Present p;
    p.line = row.line;
    // Intervals and GPU times are never negative; a negative one is a damaged file.
    p.frame_ms = field_optional_nonnegative(row, header, *c_frame);
    if (p.frame_ms && *p.frame_ms > kMaxMs) out_of_range(row, header, *c_frame);
    if (c_time) {
      // Time since the capture started: never negative either.
      if (auto t = field_optional_nonnegative(row, header, *c_time)) {
        p.time_ms = *t * time_to_ms;
        if (*p.time_ms > kMaxMs) out_of_range(row, header, *c_time);
      }
    }
    if (c_gpu) p.gpu_ms = field_optional_nonnegative(row, header, *c_gpu).value_or(kUnknown);
    std::pair<std::string, std::string> key{row.fields[c_pid],
                                            c_chain ? row.fields[*c_chain] : std::string()};
    auto [it, inserted] = chains.try_emplace(key);
    if (inserted) {
      order.push_back(key);
      it->second.application = row.fields[c_app];
      it->second.process_id = key.first;
      it->second.swap_chain = key.second;
    }
    it->second.presents.push_back(p);
  }
  if (order.empty()) return series;

  const Chain* chosen = &chains[order.front()];
  for (const auto& key : order) {
    if (chains[key].presents.size() > chosen->presents.size()) chosen = &chains[key];
  }
  std::set<std::string_view> pids;  // a set: a damaged file may hold millions of them
  for (const auto& key : order) pids.insert(key.first);
  const std::size_t processes = pids.size();
  // Names from the file, quoted so that a damaged one cannot break the note's line.
  const std::string application = quote_for_error(chosen->application, 60);
  const std::string process_id = quote_for_error(chosen->process_id, 20);
  const std::string chain_text =
      chosen->swap_chain.empty()
          ? std::string()
          : fmt::format(", swap chain {}", quote_for_error(chosen->swap_chain, 40));
  if (order.size() > 1) {
    series.notes.push_back(fmt::format(
        "{} process(es) / {} swap chain(s) presented; analysed {} (PID {}{}), {} presents, the "
        "one with the most",
        processes, order.size(), application, process_id, chain_text, chosen->presents.size()));
  } else {
    series.notes.push_back(fmt::format("analysed {} (PID {}{})", application, process_id, chain_text));
  }

  // Rows whose frame time is NA carry no interval; they are left out, and the timestamps with them
  // (a timeline with holes would no longer match the intervals).
  std::size_t not_available = 0;
  bool all_times = c_time.has_value();
  for (const Present& p : chosen->presents) {
    if (!p.frame_ms) {
      ++not_available;
      continue;
    }
    series.frame_ms.push_back(*p.frame_ms);
    if (c_gpu) series.gpu_ms.push_back(p.gpu_ms);
    if (!p.time_ms) all_times = false;
  }
  if (not_available > 0) {
    series.notes.push_back(
        fmt::format("{} present(s) with frame time NA left out", not_available));
    all_times = false;
  }
  if (c_gpu) series.gpu_kind = gpu_kind;

  // Swap timestamps, one more than intervals: the present before the first backward interval (or
  // after the last forward one) is exactly its timestamp minus (plus) the interval.
  if (all_times && !series.frame_ms.empty()) {
    const auto to_ns = [](double ms) { return static_cast<int64_t>(std::llround(ms * 1e6)); };
    const std::vector<Present>& ps = chosen->presents;
    series.swap_ns.reserve(ps.size() + 1);
    if (!forward) series.swap_ns.push_back(to_ns(*ps.front().time_ms - *ps.front().frame_ms));
    for (const Present& p : ps) series.swap_ns.push_back(to_ns(*p.time_ms));
    if (forward) series.swap_ns.push_back(to_ns(*ps.back().time_ms + *ps.back().frame_ms));
  }
  return series;
}

}  // namespace pictor::analysis
