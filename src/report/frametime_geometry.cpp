// Geometry of the frame-time graph: width, height, colour and placement of every frame's bar.
#include "report/frametime_geometry.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/error.h"

namespace pictor::report {
namespace {

// Running sums of doubles drift by a few ulps (16.666 ms frames add up to 1.9999999 px), and a
// plain ceil would then widen an exactly-2-px frame to 3 px. Positions within this distance of a
// whole pixel count as on it; it is far below anything a frame time can resolve.
constexpr double kSnapPx = 1e-6;

// Gradient stops of the article, at equal steps of the log2 frame time: with the default
// thresholds exactly 120, 60, 30 and 15 FPS. The blue is lifted from pure #0000ff, which has too
// little luminance to read as a 2-px bar on the graph's dark ground.
constexpr std::array<Rgb, 4> kStops{{
    {0.2, 0.4, 1.0},  // blue #3366ff
    {0.0, 1.0, 0.0},  // green
    {1.0, 1.0, 0.0},  // yellow
    {1.0, 0.0, 0.0},  // red
}};

double srgb_to_linear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linear_to_srgb(double c) {
  return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

bool known_duration(double dt_ms) { return std::isfinite(dt_ms) && dt_ms >= 0.0; }

// A frame from sum_px to end_px covers [floor, ceil), and at least its one pixel.
struct Edges {
  double left = 0, right = 0;
};
Edges edges_of(double sum_px, double end_px) {
  const double left = std::floor(sum_px + kSnapPx);
  // A zero-length (or sub-snap) frame still happened: give it its one pixel.
  return {left, std::max(std::ceil(end_px - kSnapPx), left + 1)};
}

}  // namespace

void validate(const FrameGraphOptions& o) {
  if (!(std::isfinite(o.fast_ms) && o.fast_ms > 0.0)) {
    throw UsageError(fmt::format("--fast-ms must be a positive number of ms, got {:g}", o.fast_ms));
  }
  if (!(std::isfinite(o.slow_ms) && o.slow_ms > o.fast_ms)) {
    throw UsageError(fmt::format("--slow-ms ({:g}) must be greater than --fast-ms ({:g})",
                                 o.slow_ms, o.fast_ms));
  }
  if (o.min_height_px < 1 || o.min_height_px > 1000) {
    throw UsageError(fmt::format("--min-height must be 1..1000 px, got {}", o.min_height_px));
  }
  if (o.max_height_px < o.min_height_px || o.max_height_px > 1000) {
    throw UsageError(
        fmt::format("--max-height must be {}..1000 px (not below --min-height), got {}",
                    o.min_height_px, o.max_height_px));
  }
  // Below this the row would be narrower than its own axis labels.
  if (o.row_width_px < 100 || o.row_width_px > 20000) {
    throw UsageError(fmt::format("--width must be 100..20000 px, got {}", o.row_width_px));
  }
}

double frame_width_px(double dt_ms, const FrameGraphOptions& options) {
  return dt_ms / options.fast_ms;
}

double frame_height_fraction(double dt_ms, const FrameGraphOptions& options) {
  if (!(dt_ms > 0.0)) return 0.0;  // log2(0) = -inf: as fast as it gets
  const double f = (std::log2(dt_ms) - std::log2(options.fast_ms)) /
                   (std::log2(options.slow_ms) - std::log2(options.fast_ms));
  return std::clamp(f, 0.0, 1.0);
}

double frame_height_px(double dt_ms, const FrameGraphOptions& options) {
  const double f = frame_height_fraction(dt_ms, options);
  return options.min_height_px + f * (options.max_height_px - options.min_height_px);
}

Rgb gradient_colour(double fraction) {
  const double f = std::clamp(fraction, 0.0, 1.0);
  const double pos = f * static_cast<double>(kStops.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(pos), kStops.size() - 2);
  const double t = pos - static_cast<double>(i);
  const Rgb& a = kStops[i];
  const Rgb& b = kStops[i + 1];
  auto mix = [t](double ca, double cb) {
    const double la = srgb_to_linear(ca);
    const double lb = srgb_to_linear(cb);
    return linear_to_srgb(la + (lb - la) * t);
  };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

Rgb frame_colour(double dt_ms, const FrameGraphOptions& options) {
  return gradient_colour(frame_height_fraction(dt_ms, options));
}

double placed_length_px(std::span<const double> frame_ms, const FrameGraphOptions& options, double tail_ms) {
  double sum_px = 0.0, length = 0.0;
  const auto add = [&](double dt) {
    if (!known_duration(dt)) return;
    const double end_px = sum_px + frame_width_px(dt, options);
    length = std::max(length, edges_of(sum_px, end_px).right);
    sum_px = end_px;
  };
  for (const double dt : frame_ms) add(dt);
  add(tail_ms);
  return length;
}

FramePlacement place_frames(std::span<const double> frame_ms, const FrameGraphOptions& options) {
  FramePlacement out;
  out.spans.reserve(frame_ms.size());
  double sum_px = 0.0;
  for (std::size_t i = 0; i < frame_ms.size(); ++i) {
    const double dt = frame_ms[i];
    if (!known_duration(dt)) {
      ++out.unknown_frames;
      continue;
    }
    const double end_px = sum_px + frame_width_px(dt, options);
    FrameSpan span;
    span.frame = i;
    span.dt_ms = dt;
    const Edges e = edges_of(sum_px, end_px);
    span.left_px = static_cast<int64_t>(e.left);
    span.right_px = static_cast<int64_t>(e.right);
    out.length_px = std::max(out.length_px, span.right_px);
    out.spans.push_back(span);
    sum_px = end_px;
  }
  return out;
}

int row_count(const FramePlacement& placement, const FrameGraphOptions& options) {
  const int64_t w = options.row_width_px;
  return static_cast<int>(std::max<int64_t>(1, (placement.length_px + w - 1) / w));
}

std::vector<FrameBar> wrap_into_rows(const FramePlacement& placement,
                                     const FrameGraphOptions& options) {
  const int64_t w = options.row_width_px;
  std::vector<FrameBar> bars;
  bars.reserve(placement.spans.size() + placement.spans.size() / 64 + 1);
  for (const FrameSpan& s : placement.spans) {
    const int height = static_cast<int>(std::lround(frame_height_px(s.dt_ms, options)));
    const Rgb colour = frame_colour(s.dt_ms, options);
    for (int64_t row = s.left_px / w; row * w < s.right_px; ++row) {
      const int64_t left = std::max(s.left_px, row * w);
      const int64_t right = std::min(s.right_px, (row + 1) * w);
      FrameBar bar;
      bar.frame = s.frame;
      bar.row = static_cast<int>(row);
      bar.x = static_cast<int>(left - row * w);
      bar.width = static_cast<int>(right - left);
      bar.height = height;
      bar.colour = colour;
      bar.dt_ms = s.dt_ms;
      bars.push_back(bar);
    }
  }
  std::stable_sort(bars.begin(), bars.end(),
                   [](const FrameBar& a, const FrameBar& b) { return a.dt_ms < b.dt_ms; });
  return bars;
}

}  // namespace pictor::report
