// Pure geometry of the frame-time graph (DESIGN section 7): every frame is a bar whose width,
// height and colour follow from its duration. No drawing here, so every rule is unit-testable.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace pictor::report {

// The graph's scale. Widths are measured in "fast frames": a frame of fast_ms is 1 px wide.
struct FrameGraphOptions {
  // A frame this short (or shorter) is 1 px wide, drawn at the minimum height, blue (120 FPS).
  double fast_ms = 1000.0 / 120.0;
  // A frame this long (or longer) is drawn at the maximum height, red (15 FPS).
  double slow_ms = 1000.0 / 15.0;
  int min_height_px = 2;
  int max_height_px = 64;
  // Width of one row of the session graph; longer sessions wrap into more rows.
  int row_width_px = 1200;
  // Title shown above the graph; empty means the path of the series.
  std::string title;
};

// Throws pictor::UsageError naming the offending option when the options cannot make a graph.
void validate(const FrameGraphOptions& options);

// A colour in sRGB, each channel 0..1 (the encoding PNG, SVG and HTML all use).
struct Rgb {
  double r = 0;
  double g = 0;
  double b = 0;
};

// Exact (unrounded) width in px: dt / fast_ms.
double frame_width_px(double dt_ms, const FrameGraphOptions& options);
// (log2 dt - log2 fast) / (log2 slow - log2 fast), clamped to 0..1. 0 at fast_ms, 1 at slow_ms;
// with the default thresholds 60 FPS is 1/3 and 30 FPS is 2/3.
double frame_height_fraction(double dt_ms, const FrameGraphOptions& options);
// Exact (unrounded) height: min + fraction * (max - min).
double frame_height_px(double dt_ms, const FrameGraphOptions& options);
// Gradient over the height fraction: blue #3366ff (0) -> green (1/3) -> yellow (2/3) -> red (1),
// interpolated in linear light and returned sRGB-encoded, so the midpoints are not muddy.
Rgb frame_colour(double dt_ms, const FrameGraphOptions& options);
// The gradient itself, for legends: fraction 0..1 (clamped).
Rgb gradient_colour(double fraction);

// One frame placed on the session's continuous time axis, in px from the first frame's start.
struct FrameSpan {
  std::size_t frame = 0;  // index into FrameSeries::frame_ms
  int64_t left_px = 0;    // floor of the running sum before this frame
  int64_t right_px = 0;   // ceil of the running sum after it; always > left_px
  double dt_ms = 0;
};

struct FramePlacement {
  std::vector<FrameSpan> spans;  // in frame order
  // Frames whose duration is unknown (NaN, infinite or negative): not drawn and not advancing
  // the time axis, because an instrument does not guess where the time went.
  std::size_t unknown_frames = 0;
  // ceil of the total running sum: the graph's full length in px.
  int64_t length_px = 0;
};

// The length place_frames gives, ceil of the running sum (each frame at least 1 px), computed in
// double without placing anything: for checking a graph's size before any layout, when the span
// may not even fit an int64 of pixels.
// tail_ms: one more frame after them (a stall to the end of the session), NaN for none.
double placed_length_px(std::span<const double> frame_ms, const FrameGraphOptions& options,
                        double tail_ms = std::numeric_limits<double>::quiet_NaN());

// Places frames by their running sum, so the graph advances at a constant pace however long the
// frames are. Neighbouring bars may share the pixel their boundary falls in; see the docs.
FramePlacement place_frames(std::span<const double> frame_ms, const FrameGraphOptions& options);

// One drawable piece of a frame inside one row. A frame that crosses the end of a row continues
// at the start of the next one (same frame index), so time stays continuous across rows.
struct FrameBar {
  std::size_t frame = 0;
  int row = 0;
  int x = 0;  // px from the row's left edge
  int width = 0;
  int height = 0;  // rounded frame_height_px
  Rgb colour;
  double dt_ms = 0;
};

// Cuts the placed frames into rows of options.row_width_px. Bars come out in drawing order:
// shorter frames first and longer frames last, so where two bars share a pixel the slower frame
// wins and a hitch can never be painted over by its fast neighbour.
std::vector<FrameBar> wrap_into_rows(const FramePlacement& placement,
                                     const FrameGraphOptions& options);

// Number of rows a placement needs (at least 1, so an empty session still has an axis).
int row_count(const FramePlacement& placement, const FrameGraphOptions& options);

}  // namespace pictor::report
