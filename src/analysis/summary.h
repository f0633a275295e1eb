// The frame metrics of DESIGN section 6 and their summary.json form (schema 1).
#pragma once
#include <nlohmann/json.hpp>

#include "analysis/frame_series.h"

namespace pictor::analysis {

// Returns the frame part of summary.json: {"schema":1, "frames", "duration_s", "fps_avg",
// "frame_ms":{mean,p50,p90,p95,p99,p999,max}, "low_1pct_fps_percentile", ..., "stutter":{...},
// "gpu_ms": {...} or null}. Unknown values are null, never 0.
nlohmann::json summarize_frames(const FrameSeries& series);

// A human table of the same figures for the terminal.
std::string format_frame_summary(const nlohmann::json& summary);

}  // namespace pictor::analysis
