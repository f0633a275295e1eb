// Reader for PresentMon CSV captures: 1.x ("msBetweenPresents" with "TimeInSeconds"), 2.x default
// ("MsBetweenPresents" with "TimeInMs"/"TimeInSeconds") and 2.x --v2_metrics ("FrameTime" with
// "CPUStartTime"). One file may hold several processes and swap chains; the busiest one is read.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/csv.h"
#include "analysis/importers.h"

namespace pictor::analysis {

namespace {

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
    p.frame_ms = field_optional_double(row, header, *c_frame);
    if (c_time) {
      if (auto t = field_optional_double(row, header, *c_time)) p.time_ms = *t * time_to_ms;
    }
    if (c_gpu) p.gpu_ms = field_optional_double(row, header, *c_gpu).value_or(kUnknown);
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
  std::size_t processes = 0;
  {
    std::vector<std::string> seen;
    for (const auto& key : order) {
      if (std::find(seen.begin(), seen.end(), key.first) == seen.end()) seen.push_back(key.first);
    }
    processes = seen.size();
  }
  const std::string chain_text =
      chosen->swap_chain.empty() ? std::string() : fmt::format(", swap chain {}", chosen->swap_chain);
  if (order.size() > 1) {
    series.notes.push_back(fmt::format(
        "{} process(es) / {} swap chain(s) presented; analysed {} (PID {}{}), {} presents, the "
        "one with the most",
        processes, order.size(), chosen->application, chosen->process_id, chain_text,
        chosen->presents.size()));
  } else {
    series.notes.push_back(fmt::format("analysed {} (PID {}{})", chosen->application,
                                       chosen->process_id, chain_text));
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
    if (*p.frame_ms < 0.0) {
      fail_at(path, p.line, fmt::format("negative frame time {}", *p.frame_ms));
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
