// The frame metrics of DESIGN section 6 and their summary.json form (schema 1).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "analysis/frame_series.h"

namespace pictor::analysis {

// Returns the frame part of summary.json: {"schema":1, "frames", "duration_s", "fps_avg",
// "frame_ms":{mean,p50,p90,p95,p99,p999,max}, "low_1pct_fps_percentile", ..., "stutter":{...},
// "gpu_ms": {...} or null, "fc_ms", "as_ms": {n,mean,min,p50,p90,p99,max} or null (offloaded
// frames' copy and put), "frame_copy_note": why they are null, or null}. Unknown values are null, never 0.
nlohmann::json summarize_frames(const FrameSeries& series);

// Adds summary.json's `bottleneck` block (analysis/bottleneck.h): the verdict with its evidence,
// from the session's merged summary (frame and RTT parts), run.json's content and the files in
// session_dir (frames.csv's swap calls, resources.csv).
void add_bottleneck(nlohmann::json& summary, const nlohmann::json& run, const std::string& session_dir);

// A human table of the same figures for the terminal.
std::string format_frame_summary(const nlohmann::json& summary);

}  // namespace pictor::analysis
