// The charts of a session's report.html, each an inline SVG from svg_chart.h (or the frame-time
// graph's own scene): frame-time percentiles and distribution, RTT distribution, the RTT
// partition (mean and per input), server vs client FPS, frame fate and resources over time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/session_data.h"

namespace pictor::report::html {

// The seed's frame-time graph of the whole session (report/graph_scene.h) with a tick per input
// sent and the start of play; "" when the session has no frames or is too long to embed (then
// `why` says so).
std::string frametime_graph_svg(const analysis::SessionData& d, std::string& why);

std::string frame_percentile_chart(const analysis::FrameSeries& figure);
std::string frame_histogram_chart(const analysis::FrameSeries& figure);
std::string rtt_histogram_chart(const analysis::SessionData& d);

// The partition columns of inputs.csv in path order with their labels (AS is "RD+AS" on a
// software renderer), as far as the file has them.
struct StageColumn {
  std::string column, label, colour;
};
std::vector<StageColumn> stage_columns(const analysis::SessionData& d);

// One stacked bar of the mean RTT cut into its columns, and one stacked column per matched input.
std::string stage_mean_chart(const analysis::SessionData& d);
std::string stage_per_input_chart(const analysis::SessionData& d);

// Frames per second of the app (swaps) and of the client (distinct frames first seen), per second
// of the session; seen_ns: when each distinct frame first reached the client (empty: none).
std::string fps_over_time_chart(const analysis::SessionData& d, const std::vector<std::int64_t>& seen_ns);

// App frames delivered to the client and never seen (summary.json client_frames).
std::string frame_fate_chart(const analysis::SessionData& d);

// CPU per component over time from resources.csv (RSS too when it has it).
std::string resources_chart(const analysis::ResourceSamples& r);

}  // namespace pictor::report::html
