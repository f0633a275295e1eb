// The frame-time series every analysis and report works on, whatever file it came from
// (Pictor frames.csv, MangoHud CSV, PresentMon CSV). Unknown values are NaN, never 0.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace pictor::analysis {

inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

struct FrameSeries {
  // Where the data came from: "pictor", "mangohud", "presentmon".
  std::string source;
  // Path of the file that was read.
  std::string path;
  // frame_ms[i] = time between present/swap i-1 and i, in ms. Frame 0 of a Pictor file has no
  // predecessor and is not included: frame_ms has one entry per *interval*.
  std::vector<double> frame_ms;
  // Absolute swap timestamps in ns (CLOCK_MONOTONIC for Pictor) where the source has them, one
  // per frame (so frame_ms.size() + 1 entries), else empty.
  std::vector<int64_t> swap_ns;
  // Per-interval GPU time in ms where known (same length as frame_ms), NaN where unknown; empty
  // when the source has no GPU column at all.
  std::vector<double> gpu_ms;

  // --- Added after the first interface; everything above keeps its meaning. ---

  // How gpu_ms was measured: "timer-query" (Pictor's GL timestamp queries) or the importing
  // tool's own notion, e.g. "presentmon-gpu-busy". Meaningless when gpu_ms is empty.
  std::string gpu_kind = "timer-query";
  // True when each row of the source is a periodic *sample* of the current frame time rather
  // than one entry per consecutive frame (older MangoHud logs every ~100 ms). frame_ms then holds
  // the sampled frame times; frame counts, average FPS and stutter cannot be derived from it.
  bool sampled = false;
  // Seconds covered by the source when it says so independently of frame_ms (a sampled log's
  // first-to-last timestamp); NaN when unknown or when swap_ns/frame_ms already give it.
  double span_s = kUnknown;
  // Remarks about the input the reader of a summary should know: which process or context was
  // chosen, rows dropped, units detected. One sentence each, without the path.
  std::vector<std::string> notes;
  // When the session ended (CLOCK_MONOTONIC ns, like swap_ns): the time from the last swap to it
  // is a stall when it is long enough (DESIGN 6). Unset when the input does not say, e.g. a bare
  // frames.csv; then session_end_note says why (analysis/session_end.h fills both).
  std::optional<int64_t> session_end_ns;
  std::string session_end_note;
  // With --render offload (docs/offload.md): per *frame* (swap_ns.size() entries, the first frame
  // included) the app thread's time in the frame copy (FC) and in the put into the X server (AS),
  // in ms; NaN for a frame without one (a native frame). Empty when the source has no such column.
  std::vector<double> fc_ms;
  std::vector<double> as_ms;
};

}  // namespace pictor::analysis
