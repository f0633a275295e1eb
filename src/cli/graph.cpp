// `pictor graph PATH -o FILE.png|FILE.svg`: the frame-time graph of DESIGN 7 for a whole session
// (every frame a bar: width by duration, height and colour by log2 of it; a profile session's from
// play start), drawn by pictor::report.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "analysis/load.h"
#include "analysis/play_window.h"
#include "analysis/session_end.h"
#include "cli/commands.h"
#include "report/frametime_graph.h"

namespace pictor::cli {

void add_graph(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand(
      "graph", "Draw the frame-time graph of a session as PNG or SVG (docs/frametime-graph.md)");
  struct Options {
    std::string path;
    std::string output;
    report::FrameGraphOptions graph;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("PATH", opts->path,
                  "Session directory, Pictor frames.csv, MangoHud CSV log or PresentMon CSV")
      ->required();
  cmd->add_option("-o,--output", opts->output, "Output file; the format follows its extension")
      ->required();
  cmd->add_option("--width", opts->graph.row_width_px,
                  "Width of one row in px; longer sessions wrap into more rows")
      ->capture_default_str();
  cmd->add_option("--min-height", opts->graph.min_height_px,
                  "Bar height in px of a frame at --fast-ms or faster")
      ->capture_default_str();
  cmd->add_option("--max-height", opts->graph.max_height_px,
                  "Bar height in px of a frame at --slow-ms or slower")
      ->capture_default_str();
  cmd->add_option("--fast-ms", opts->graph.fast_ms,
                  "Frame time drawn 1 px wide, at minimum height, blue (default 120 FPS)")
      ->capture_default_str();
  cmd->add_option("--slow-ms", opts->graph.slow_ms,
                  "Frame time from which bars are full height and red (default 15 FPS)")
      ->capture_default_str();
  cmd->add_option("--title", opts->graph.title, "Title line (default: the input path)");
  cmd->callback([opts, &ctx] {
    // Check the cheap things first: a bad extension or scale should not wait for a large load.
    report::graph_format_for(opts->output);
    report::validate(opts->graph);
    analysis::FrameSeries series = analysis::load_frames(opts->path);
    // The session's end (run.json) places a stall after the last frame on the graph.
    analysis::attach_session_end(series, opts->path);
    // A profile session's graph is of play, like its frametime.png.
    if (std::filesystem::is_directory(opts->path))
      series = analysis::figure_frames(series, analysis::read_launch_record(opts->path));
    report::write_frametime_graph(series, opts->output, opts->graph);
    if (!ctx.quiet) std::fprintf(stderr, "pictor: wrote %s\n", opts->output.c_str());
  });
}

}  // namespace pictor::cli
