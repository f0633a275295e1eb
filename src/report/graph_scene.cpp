// Layout of the session frame-time graph: header, legend, rows of bars, gridlines and time ticks.
#include "report/graph_scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "core/error.h"

namespace pictor::report {
namespace {

// Layout in px. The header holds two text lines and the legend; each row is a plot area of
// max_height_px with room above for the top gridline label and below for the time ticks.
constexpr double kMargin = 16;
constexpr double kAxisWidth = 64;  // fits "66.7 ms" at kAxisFont
constexpr double kHeaderHeight = 64;
constexpr double kRowTopPad = 8;
constexpr double kRowBottom = 22;
constexpr double kTickLength = 4;
constexpr double kTitleFont = 14;
constexpr double kSubtitleFont = 11;
constexpr double kAxisFont = 10;
constexpr double kMinTickSpacingPx = 70;  // time labels closer than this would touch
constexpr double kMinGridLabelGap = 10;   // ms labels closer than this would overlap
constexpr double kLegendWidth = 180;
constexpr int kLegendSteps = 90;

constexpr Rgb hex(unsigned v) {
  return {((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0};
}
// A dark theme, like an in-game overlay: the yellow and green bars need a dark ground to read.
constexpr Rgb kBackground = hex(0x14161b);
constexpr Rgb kPanel = hex(0x1e2128);
constexpr Rgb kAxis = hex(0x505662);
constexpr Rgb kGrid = hex(0xffffff);
constexpr double kGridAlpha = 0.28;
constexpr Rgb kText = hex(0xe8eaee);
constexpr Rgb kTextDim = hex(0x9aa1ad);

std::string group_thousands(std::size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<long long>(seconds);
  return fmt::format("{} min {:02} s", whole / 60, whole % 60);
}

// Shortens a long title in the middle, where a path is least informative.
std::string ellipsize_middle(const std::string& s, std::size_t max_chars) {
  if (s.size() <= max_chars || max_chars < 8) return s;
  const std::size_t keep = max_chars - 1;
  return s.substr(0, keep / 2) + "\u2026" + s.substr(s.size() - (keep - keep / 2));
}

// Frame times worth a gridline: the thresholds themselves and every doubling of 15 FPS between
// them (with the defaults 8.3, 16.7, 33.3 and 66.7 ms).
std::vector<double> gridline_ms(const FrameGraphOptions& o) {
  std::vector<double> ms{o.fast_ms};
  for (double fps = 960; fps >= 1.875; fps /= 2) {
    const double m = 1000.0 / fps;
    if (m > o.fast_ms * 1.02 && m < o.slow_ms / 1.02) ms.push_back(m);
  }
  ms.push_back(o.slow_ms);
  return ms;
}

double pick_tick_step_s(double px_per_s) {
  constexpr std::array<double, 16> steps{0.05, 0.1, 0.25, 0.5, 1,   2,   5,    10,
                                         15,   30,  60,   120, 300, 600, 1800, 3600};
  for (double s : steps) {
    if (s * px_per_s >= kMinTickSpacingPx) return s;
  }
  return steps.back();
}

// Labels of the time axis: seconds for a session under a minute, m:ss on every row otherwise, so
// one graph never mixes "59 s" with "1:00".
struct TimeAxis {
  double step_s = 1;
  bool minutes = false;
};

std::string format_clock(double t, const TimeAxis& axis) {
  if (!axis.minutes) return fmt::format("{:g} s", std::round(t * 100) / 100);
  if (axis.step_s < 1) {
    const double whole_min = std::floor(t / 60 + 1e-9);
    return fmt::format("{:g}:{:04.1f}", whole_min, std::max(0.0, t - whole_min * 60));
  }
  const auto whole = static_cast<long long>(std::llround(t));
  return fmt::format("{}:{:02}", whole / 60, whole % 60);
}

// The figures come from analysis::summarize_frames, so the graph's header and `pictor analyze`
// can never disagree about a session.
std::string subtitle(const nlohmann::json& summary, std::size_t unknown_frames) {
  std::vector<std::string> parts;
  if (summary["frames"].is_number()) {
    parts.push_back(
        fmt::format("{} frames", group_thousands(summary["frames"].get<std::size_t>())));
  }
  if (summary["fps_avg"].is_number()) {
    parts.push_back(fmt::format("{:.1f} FPS average", summary["fps_avg"].get<double>()));
  } else {
    parts.push_back("average FPS unknown");
  }
  if (summary["duration_s"].is_number()) {
    parts.push_back(format_duration(summary["duration_s"].get<double>()));
  }
  if (unknown_frames > 0) {
    parts.push_back(fmt::format("{} frame time{} unknown, not drawn",
                                group_thousands(unknown_frames), unknown_frames == 1 ? "" : "s"));
  }
  if (const auto& source = summary["source"];
      source.is_string() && !source.get<std::string>().empty()) {
    parts.push_back(fmt::format("{} data", source.get<std::string>()));
  }
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : " \u00b7 ") + p;
  return s;
}

void add_legend(GraphScene& scene, const FrameGraphOptions& o, double right, double top) {
  const double x0 = right - kLegendWidth;
  const double step = kLegendWidth / kLegendSteps;
  for (int i = 0; i < kLegendSteps; ++i) {
    const double f = (i + 0.5) / kLegendSteps;
    scene.rects.push_back({x0 + i * step, top, step, 10, gradient_colour(f), RectRole::Legend});
  }
  scene.texts.push_back({x0 - 8, top + 9, "FPS", kAxisFont, true, TextAnchor::End, kTextDim});
  for (double ms : gridline_ms(o)) {
    const double x = x0 + frame_height_fraction(ms, o) * kLegendWidth;
    scene.lines.push_back({x + 0.5, top + 10, x + 0.5, top + 14, kTextDim, 1.0, false});
    scene.texts.push_back({x, top + 25, fmt::format("{:.3g}", 1000.0 / ms), kAxisFont, false,
                           TextAnchor::Middle, kTextDim});
  }
}

void add_row_axes(GraphScene& scene, const FrameGraphOptions& o, double baseline, double row_t0,
                  double row_t1, const TimeAxis& axis) {
  const double x0 = scene.plot_left;
  const double w = o.row_width_px;
  scene.panels.push_back({x0, baseline - o.max_height_px - kRowTopPad / 2, w,
                          o.max_height_px + kRowTopPad / 2, kPanel, RectRole::Panel});
  // Gridlines at the top of a bar of exactly that frame time, labelled on the left.
  double last_label_y = 1e300;
  for (double ms : gridline_ms(o)) {
    const double y = baseline - std::round(frame_height_px(ms, o)) + 0.5;
    scene.grid.push_back({x0, y, x0 + w, y, kGrid, kGridAlpha, true});
    if (last_label_y - y >= kMinGridLabelGap) {
      scene.texts.push_back({x0 - 6, y + 3.5, fmt::format("{:.1f} ms", ms), kAxisFont, false,
                             TextAnchor::End, kTextDim});
      last_label_y = y;
    }
  }
  scene.lines.push_back({x0, baseline + 0.5, x0 + w, baseline + 0.5, kAxis, 1.0, false});
  // Time ticks at whole multiples of the step, on the session clock.
  const double px_per_s = 1000.0 / o.fast_ms;
  // Multiples k * step, not a running sum, so 0.1 s steps do not drift over a long session.
  for (auto k = static_cast<long long>(std::max(0.0, std::ceil(row_t0 / axis.step_s - 1e-9)));;
       ++k) {
    const double t = static_cast<double>(k) * axis.step_s;
    if (t > row_t1 + 1e-9) break;
    const double x = std::round(x0 + (t - row_t0) * px_per_s);
    if (x > x0 + w) break;
    scene.lines.push_back(
        {x + 0.5, baseline + 1, x + 0.5, baseline + 1 + kTickLength, kAxis, 1.0, false});
    scene.texts.push_back({x, baseline + 1 + kTickLength + kAxisFont, format_clock(t, axis),
                           kAxisFont, false, TextAnchor::Middle, kTextDim});
  }
}

}  // namespace

GraphScene build_frametime_scene(const analysis::FrameSeries& series,
                                 const FrameGraphOptions& options) {
  validate(options);
  if (series.sampled) {
    // Bars laid end to end only show time when they are consecutive frames; samples taken every
    // ~100 ms would draw a session many times shorter than it was.
    throw UsageError(fmt::format(
        "{}: the log samples the frame time periodically instead of recording every frame; "
        "a frame-time graph needs every frame",
        series.path));
  }
  const FramePlacement placement = place_frames(series.frame_ms, options);
  const std::vector<FrameBar> bars = wrap_into_rows(placement, options);
  const int rows = row_count(placement, options);

  GraphScene scene;
  const double pitch = kRowTopPad + options.max_height_px + kRowBottom;
  scene.width = static_cast<int>(kMargin + kAxisWidth + options.row_width_px + kMargin);
  scene.height = static_cast<int>(kHeaderHeight + rows * pitch + kMargin / 2);
  scene.background = kBackground;
  scene.plot_left = kMargin + kAxisWidth;

  // Header: the source on the first line, the figures on the second, the legend on the right.
  const double title_room = scene.width - 2 * kMargin - kLegendWidth - 60;
  const auto title_chars = static_cast<std::size_t>(std::max(8.0, title_room / 8.0));
  const std::string title = options.title.empty() ? series.path : options.title;
  scene.texts.push_back({kMargin, kMargin + kTitleFont, ellipsize_middle(title, title_chars),
                         kTitleFont, true, TextAnchor::Start, kText});
  scene.texts.push_back({kMargin, kMargin + kTitleFont + 8 + kSubtitleFont,
                         subtitle(analysis::summarize_frames(series), placement.unknown_frames),
                         kSubtitleFont, false, TextAnchor::Start, kTextDim});
  add_legend(scene, options, scene.width - kMargin, kMargin + 2);

  const double px_per_s = 1000.0 / options.fast_ms;
  const double length_s = static_cast<double>(placement.length_px) / px_per_s;
  const TimeAxis axis{pick_tick_step_s(px_per_s), length_s >= 60};
  for (int r = 0; r < rows; ++r) {
    const double baseline = kHeaderHeight + r * pitch + kRowTopPad + options.max_height_px;
    scene.row_baseline.push_back(baseline);
    const double t0 = r * options.row_width_px / px_per_s;
    const double t1 = std::min(length_s, (r + 1) * options.row_width_px / px_per_s);
    add_row_axes(scene, options, baseline, t0, std::max(t0, t1), axis);
  }
  for (const FrameBar& b : bars) {
    const double baseline = scene.row_baseline[static_cast<std::size_t>(b.row)];
    scene.rects.push_back({scene.plot_left + b.x, baseline - b.height, static_cast<double>(b.width),
                           static_cast<double>(b.height), b.colour, RectRole::Frame});
  }
  scene.frame_rects = bars.size();
  return scene;
}

}  // namespace pictor::report
