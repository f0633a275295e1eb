// A backend-neutral drawing of the frame-time graph: rectangles, lines and text in pixel
// coordinates. Built once from the data, then painted by the PNG (cairo) and SVG backends alike.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/frame_series.h"
#include "report/frametime_geometry.h"

namespace pictor::report {

// What a rectangle stands for; the SVG backend writes it as the rect's class. A Stall is a frame
// time (or the time from the last frame to the end of the session) of at least a second without a
// frame, drawn as a band of its own colour over the full row height and labelled with its length.
enum class RectRole { Panel, Frame, Stall, Legend };

struct SceneRect {
  double x = 0, y = 0, width = 0, height = 0;
  Rgb fill;
  RectRole role = RectRole::Panel;
};

// What a line stands for beyond the axes; the SVG backend writes it as the line's class.
enum class LineRole { Plain, Input, PlayStart };

struct SceneLine {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  Rgb stroke;
  double alpha = 1.0;
  bool dashed = false;
  LineRole role = LineRole::Plain;
};

enum class TextAnchor { Start, Middle, End };

struct SceneText {
  double x = 0, y = 0;  // y is the baseline
  std::string text;     // UTF-8
  double size_px = 11;
  bool bold = false;
  TextAnchor anchor = TextAnchor::Start;
  Rgb fill;
};

// Painted in this order: background, panels, grid, rects (in order), lines, texts. The ms
// gridlines lie behind the bars: where a bar is taller the line disappears into it, so the
// eye reads each bar's height against the line where it re-emerges.
struct GraphScene {
  int width = 0;
  int height = 0;
  Rgb background;
  std::vector<SceneRect> panels;
  std::vector<SceneLine> grid;
  std::vector<SceneRect> rects;
  std::vector<SceneLine> lines;
  std::vector<SceneText> texts;
  // Where row r's plot area starts (its left edge and its baseline, where bars stand).
  double plot_left = 0;
  std::vector<double> row_baseline;
  std::size_t frame_rects = 0;  // number of RectRole::Frame and RectRole::Stall rects
};

// The tallest graph each format gets: a PNG as tall as cairo's image surfaces go, an SVG about
// ten thousand rows (a day at the default scale and width; a month at --width 20000).
inline constexpr int kMaxPngSidePx = 32767;
inline constexpr int kMaxSvgHeightPx = 1'000'000;

// The size of the graph a series makes, from its frame times alone (nothing laid out, nothing
// allocated): what is checked before the layout, so memory follows the picture, not the time span
// (one frame from 0 to INT64_MAX ns would be 10^12 rows). In double: it may not fit an integer.
struct GraphExtent {
  double span_s = 0;     // session time on the axis, a stall at the end included
  double rows = 1;
  double height_px = 0;  // of the whole image
};
GraphExtent measure_frametime_graph(const analysis::FrameSeries& series, const FrameGraphOptions& options);

// "a graph of 292 years would be 9.2e+11 rows of 1200 px, 8.7e+13 px tall, more than a PNG holds
// (32767 px); ..." when extent.height_px > max_height_px; nullopt when it fits.
std::optional<std::string> graph_too_tall(const GraphExtent& extent, const FrameGraphOptions& options,
                                          int max_height_px, bool png);

// Lays out the whole session: title, legend, and the bars wrapped into rows of
// options.row_width_px with ms gridlines and time ticks; stalls as bands with their length, the one
// from the last frame to series.session_end_ns included. Throws UsageError on bad options, and
// before laying anything out when the graph would be taller than max_height_px.
GraphScene build_frametime_scene(const analysis::FrameSeries& series, const FrameGraphOptions& options,
                                 int max_height_px = kMaxSvgHeightPx);

// A moment drawn over the graph (the HTML report's): an input the client sent, as a short tick at
// the top of its row, or the start of play of a profile session, as a line over the row's height.
enum class MarkerKind { Input, PlayStart };
struct TimeMarker {
  std::int64_t t_ns = 0;  // on the series' swap clock (CLOCK_MONOTONIC for Pictor's files)
  MarkerKind kind = MarkerKind::Input;
};

// Adds markers to a scene that build_frametime_scene made from `series` and `options`. The time
// axis starts at the first swap; markers before it or after the drawn span, and every marker of a
// series without swap times, are left out. Returns how many were drawn.
std::size_t add_time_markers(GraphScene& scene, const analysis::FrameSeries& series, const FrameGraphOptions& options,
                             std::span<const TimeMarker> markers);

}  // namespace pictor::report
