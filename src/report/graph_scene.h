// A backend-neutral drawing of the frame-time graph: rectangles, lines and text in pixel
// coordinates. Built once from the data, then painted by the PNG (cairo) and SVG backends alike.
#pragma once
#include <string>
#include <vector>

#include "analysis/frame_series.h"
#include "report/frametime_geometry.h"

namespace pictor::report {

// What a rectangle stands for; the SVG backend writes it as the rect's class.
enum class RectRole { Panel, Frame, Legend };

struct SceneRect {
  double x = 0, y = 0, width = 0, height = 0;
  Rgb fill;
  RectRole role = RectRole::Panel;
};

struct SceneLine {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  Rgb stroke;
  double alpha = 1.0;
  bool dashed = false;
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
  std::size_t frame_rects = 0;  // number of RectRole::Frame rects
};

// Lays out the whole session: title, legend, and the bars wrapped into rows of
// options.row_width_px with ms gridlines and time ticks. Throws UsageError on bad options.
GraphScene build_frametime_scene(const analysis::FrameSeries& series,
                                 const FrameGraphOptions& options);

}  // namespace pictor::report
