// The frame-time graph of a whole session as a file (PNG or SVG) or as an SVG string for the
// HTML report. Geometry: report/frametime_geometry.h; user documentation: docs/frametime-graph.md.
#pragma once
#include <optional>
#include <string>

#include "analysis/frame_series.h"
#include "report/frametime_geometry.h"

namespace pictor::report {

// The graph as a standalone SVG document (UTF-8), ready to embed inline in HTML.
std::string frametime_svg(const analysis::FrameSeries& series,
                          const FrameGraphOptions& options = {});

// Writes the graph as PNG; the runner calls this for each session's frametime.png.
// Throws pictor::UsageError naming the path and the cause when the file cannot be written.
void write_frametime_png(const analysis::FrameSeries& series, const std::string& path,
                         const FrameGraphOptions& options = {});

// The options for a PNG of the session that fits (cairo stops at 32767 px): `options` when it
// fits, else the same with rows just wide enough (up to 20000 px), nullopt when even that is too
// tall. The runner draws frametime.png with these, so a long session still gets its graph.
std::optional<FrameGraphOptions> png_options_that_fit(const analysis::FrameSeries& series,
                                                      const FrameGraphOptions& options = {});

void write_frametime_svg(const analysis::FrameSeries& series, const std::string& path,
                         const FrameGraphOptions& options = {});

enum class GraphFormat { Png, Svg };

// The format an output path asks for by its extension (.png or .svg, case-insensitive); any
// other extension is a UsageError naming it. Lets a caller refuse a bad name before loading data.
GraphFormat graph_format_for(const std::string& path);

// Writes PNG or SVG as graph_format_for(path) says.
void write_frametime_graph(const analysis::FrameSeries& series, const std::string& path,
                           const FrameGraphOptions& options = {});

}  // namespace pictor::report
