// Session frame-time graph as PNG/SVG: builds the scene once and hands it to a painter.
#include "report/frametime_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "report/graph_scene.h"
#include "report/scene_render.h"

namespace pictor::report {
namespace {

std::string lower_extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// The size check with the output's name, before anything is laid out.
void check_size(const analysis::FrameSeries& series, const FrameGraphOptions& options, const std::string& path,
                bool png) {
  const int max_height = png ? kMaxPngSidePx : kMaxSvgHeightPx;
  if (const auto why = graph_too_tall(measure_frametime_graph(series, options), options, max_height, png))
    throw UsageError(path + ": " + *why);
}

}  // namespace

std::string frametime_svg(const analysis::FrameSeries& series, const FrameGraphOptions& options) {
  return scene_to_svg(build_frametime_scene(series, options, kMaxSvgHeightPx));
}

void write_frametime_png(const analysis::FrameSeries& series, const std::string& path,
                         const FrameGraphOptions& options) {
  check_size(series, options, path, true);
  write_scene_png(build_frametime_scene(series, options, kMaxPngSidePx), path);
}

void write_frametime_svg(const analysis::FrameSeries& series, const std::string& path,
                         const FrameGraphOptions& options) {
  check_size(series, options, path, false);
  write_text_file(path, frametime_svg(series, options));
}

std::optional<FrameGraphOptions> png_options_that_fit(const analysis::FrameSeries& series,
                                                      const FrameGraphOptions& options) {
  const GraphExtent e = measure_frametime_graph(series, options);
  if (!graph_too_tall(e, options, kMaxPngSidePx, true)) return options;
  // The widest rows that keep the image within a PNG's height, as few px wider as needed.
  FrameGraphOptions wider = options;
  for (int width : {2400, 4800, 9600, 20000}) {
    if (width <= options.row_width_px) continue;
    wider.row_width_px = width;
    if (!graph_too_tall(measure_frametime_graph(series, wider), wider, kMaxPngSidePx, true)) return wider;
  }
  return std::nullopt;
}

GraphFormat graph_format_for(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".png") return GraphFormat::Png;
  if (ext == ".svg") return GraphFormat::Svg;
  throw UsageError(fmt::format("{}: output must end in .png or .svg (got {})", path,
                               ext.empty() ? "no extension" : "'" + ext + "'"));
}

void write_frametime_graph(const analysis::FrameSeries& series, const std::string& path,
                           const FrameGraphOptions& options) {
  switch (graph_format_for(path)) {
    case GraphFormat::Png:
      write_frametime_png(series, path, options);
      return;
    case GraphFormat::Svg:
      write_frametime_svg(series, path, options);
      return;
  }
}

}  // namespace pictor::report
