// The bottleneck verdict of a session (docs/reports.md "The bottleneck verdict"): which part of the
// pipeline bounds its latency and frame rate, with the evidence, from the RTT partition, the
// frames' swap-call split, the proxy's update cap and (when sampled) per-process CPU. It never
// guesses: where the evidence cannot decide it says "undetermined" and which measurement would.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "analysis/frame_series.h"

namespace pictor::analysis {

struct BottleneckEvidence {
  // RTT: each partition column's mean share of the RTT (summary.json stages_ms.*.rtt_share) over
  // `matched` inputs; RD and FC (not in the sum) as their mean over the mean RTT.
  std::map<std::string, double> rtt_share;  // "AL_ms" → 0.71
  std::size_t matched = 0;
  double rtt_mean_ms = kUnknown;
  bool software_renderer = false;
  bool remote = false;       // a proxy adapter (xvnc, x11vnc)
  std::string adapter;       // run.json adapter
  std::string net;           // run.json net.spec ("" none)
  // Frames: mean frame time and how much of it is inside the swap call (on a software renderer
  // that is where rasterisation happens) and the GPU timer's mean; NaN where unknown.
  double frame_ms_mean = kUnknown;
  double swap_call_ms_mean = kUnknown;
  double gpu_ms_mean = kUnknown;
  // --render offload (docs/offload.md): the copy strategy (vgl, memo, async; "" for native frames)
  // and the per-frame means of the copy out of the render device (FC) and the put into the X
  // server (AS), summary.json fc_ms.mean and as_ms.mean; NaN where unknown.
  std::string frame_copy;
  double fc_ms_mean = kUnknown;
  double as_ms_mean = kUnknown;
  double fps_server = kUnknown;
  double fps_client = kUnknown;
  double fps_client_updates = kUnknown;  // remote: RFB updates per second
  double frame_rate_cap = kUnknown;      // run.json proxy.frame_rate_cap (Xvnc -FrameRate)
  // Per-process CPU from resources.csv, mean percent of one core, by component; empty and
  // resources_sampled false when the session has no resources.csv.
  // From summary.json `resources.processes.*.cpu_mean_pct` (by role: app, proxy, xserver+proxy)
  // when the session has that block, else from a resources.csv with a cpu_pct column.
  bool resources_sampled = false;
  std::map<std::string, double> cpu_pct;
  std::string resources_problem;  // why a resources.csv that exists could not be used
};

// Thresholds of the rules, with their reasons in docs/reports.md.
inline constexpr std::size_t kBottleneckMinInputs = 5;  // fewer matched inputs: no RTT verdict
inline constexpr double kDominantShare = 0.40;          // a group this large a share of the RTT ...
inline constexpr double kDominantLead = 1.5;            // ... and this many times the next one decides
inline constexpr double kUndecidedUnattributed = 0.25;  // this much RTT without timestamps: undetermined
inline constexpr double kFrameDominantShare = 0.60;     // of the frame time, inside or outside the swap call
inline constexpr double kBusyCorePct = 90.0;            // a process at this % of a core is busy
inline constexpr double kCapReached = 0.90;             // client updates/s at this fraction of the cap

// The verdict as summary.json's `bottleneck` block: {"verdict", "text", "rtt": {...}, "frames":
// {...}, "evidence": [...], "missing": [...]}; verdicts: app-logic-bound, raster-bound,
// frame-copy-bound, proxy-bound, network-bound, client-bound, input-delivery-bound,
// capped by the proxy's update rate, mixed, undetermined.
nlohmann::json judge_bottleneck(const BottleneckEvidence& evidence);

// The evidence of a session directory: its (merged) summary.json content, run.json (what ran,
// the proxy's cap) and the files beside them (frames.csv's swap-call times, resources.csv).
BottleneckEvidence bottleneck_evidence(const nlohmann::json& summary, const nlohmann::json& run,
                                       const std::string& session_dir);

// One line for the terminal: "bottleneck: raster-bound (RD+AS 62 % of RTT; ...)" plus the
// missing measurements; empty when the summary has no bottleneck block.
std::string format_bottleneck(const nlohmann::json& summary);

}  // namespace pictor::analysis
