// Layout of the session frame-time graph: header, legend, rows of bars, gridlines and time ticks.
#include "report/graph_scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <unordered_map>
#include <nlohmann/json.hpp>

#include "analysis/frame_metrics.h"
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
// Stalls: violet, outside the blue → red gradient, so a hang never reads as merely a slow frame.
constexpr Rgb kStall = hex(0xa13cf0);
constexpr Rgb kStallText = hex(0xffffff);
constexpr double kStallLabelCharPx = 6.2;  // average advance of kAxisFont text, for fitting labels

// "4.0 s", "2.5 min", "3.0 h", "12.0 days", "292 years": a span of any length in a few characters.
std::string span_text(double s) {
  if (s < 120) return fmt::format("{:.1f} s", s);
  if (s < 2 * 3600) return fmt::format("{:.1f} min", s / 60);
  if (s < 2 * 86400) return fmt::format("{:.1f} h", s / 3600);
  if (s < 2 * 365.25 * 86400) return fmt::format("{:.1f} days", s / 86400);
  return fmt::format("{:.3g} years", s / (365.25 * 86400));
}

// The time from the last frame to the end of the session when that is a stall (the end is known
// and no frame came for kStallMs or more): drawn as one more frame on the time axis. NaN otherwise.
double end_stall_ms(const analysis::FrameSeries& series) {
  if (series.session_end_ns && !series.swap_ns.empty() && series.swap_ns.size() == series.frame_ms.size() + 1) {
    const double tail_ms = static_cast<double>(*series.session_end_ns - series.swap_ns.back()) / 1e6;
    if (tail_ms >= analysis::kStallMs) return tail_ms;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double row_pitch(const FrameGraphOptions& o) { return kRowTopPad + o.max_height_px + kRowBottom; }

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
  if (const auto& st = summary["stalls"]; st.is_object() && st.value("count", 0) > 0) {
    const auto n = st["count"].get<std::size_t>();
    parts.push_back(fmt::format("{} stall{} ({} without a frame)", group_thousands(n), n == 1 ? "" : "s",
                                span_text(st.value("total_s", 0.0))));
    if (st["ended_in_stall"] == true) {
      parts.push_back(fmt::format("no frame for the last {}", span_text(st.value("last_frame_to_end_s", 0.0))));
    }
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

// Under the gradient: what the violet bands are, shown only when the graph has one.
void add_stall_legend(GraphScene& scene, double right, double top) {
  const double x0 = right - kLegendWidth;
  scene.rects.push_back({x0, top + 31, 14, 9, kStall, RectRole::Legend});
  scene.texts.push_back({x0 + 20, top + 39, "stall: 1 s or more without a frame", kAxisFont, false,
                         TextAnchor::Start, kTextDim});
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

GraphExtent measure_frametime_graph(const analysis::FrameSeries& series, const FrameGraphOptions& options) {
  validate(options);
  const double length_px = placed_length_px(series.frame_ms, options, end_stall_ms(series));
  GraphExtent e;
  e.span_s = length_px * options.fast_ms / 1000.0;
  e.rows = std::max(1.0, std::ceil(length_px / options.row_width_px));
  e.height_px = kHeaderHeight + e.rows * row_pitch(options) + kMargin / 2;
  return e;
}

std::optional<std::string> graph_too_tall(const GraphExtent& e, const FrameGraphOptions& o, int max_height_px,
                                          bool png) {
  if (e.height_px <= max_height_px) return std::nullopt;
  std::string advice;
  // Would it fit as an SVG, or at the widest rows?
  const double widest_rows = std::ceil(e.rows * o.row_width_px / 20000.0);
  const bool wider_helps = o.row_width_px < 20000 && kHeaderHeight + widest_rows * row_pitch(o) + kMargin / 2 <= max_height_px;
  if (png && e.height_px <= kMaxSvgHeightPx) {
    advice = "use an .svg file or a larger --width";
  } else if (wider_helps) {
    advice = "use a larger --width (up to 20000 px)";
  } else {
    advice = "graph a shorter part of the session (the time axis keeps a constant pace: 1 s is " +
             fmt::format("{:g}", 1000.0 / o.fast_ms) + " px at --fast-ms " + fmt::format("{:g}", o.fast_ms) + ")";
  }
  return fmt::format("a graph of {} would be {:.4g} rows of {} px, {:.4g} px tall: more than {} holds here "
                     "({} px); {}",
                     span_text(e.span_s), e.rows, o.row_width_px, e.height_px, png ? "a PNG" : "an SVG",
                     max_height_px, advice);
}

GraphScene build_frametime_scene(const analysis::FrameSeries& series, const FrameGraphOptions& options,
                                 int max_height_px) {
  validate(options);
  if (series.sampled) {
    // Bars laid end to end only show time when they are consecutive frames; samples taken every
    // ~100 ms would draw a session many times shorter than it was.
    throw UsageError(fmt::format(
        "{}: the log samples the frame time periodically instead of recording every frame; "
        "a frame-time graph needs every frame",
        series.path));
  }
  // The size first, from the frame times alone: a span of years must fail here, in microseconds,
  // not after gigabytes of rows.
  if (const auto too_tall = graph_too_tall(measure_frametime_graph(series, options), options, max_height_px,
                                           max_height_px <= kMaxPngSidePx))
    throw UsageError(*too_tall);
  // The frame times on the time axis: the series', and a stall to the session's end as one more.
  const double tail_ms = end_stall_ms(series);
  const bool end_stall = std::isfinite(tail_ms);
  std::vector<double> with_tail;
  if (end_stall) {
    with_tail = series.frame_ms;
    with_tail.push_back(tail_ms);
  }
  const std::span<const double> frames = end_stall ? std::span<const double>(with_tail) : series.frame_ms;
  const FramePlacement placement = place_frames(frames, options);
  const std::vector<FrameBar> bars = wrap_into_rows(placement, options);
  const int rows = row_count(placement, options);

  GraphScene scene;
  const double pitch = row_pitch(options);
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
  // A stall is labelled once, on its widest piece (a long one continues over several rows).
  std::unordered_map<std::size_t, std::size_t> label_piece;  // stall frame -> its widest bar
  bool any_stall = false;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const FrameBar& b = bars[i];
    if (b.dt_ms < analysis::kStallMs) continue;
    const auto [it, first] = label_piece.emplace(b.frame, i);
    if (!first && bars[it->second].width < b.width) it->second = i;
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const FrameBar& b = bars[i];
    const double baseline = scene.row_baseline[static_cast<std::size_t>(b.row)];
    if (b.dt_ms < analysis::kStallMs) {
      scene.rects.push_back({scene.plot_left + b.x, baseline - b.height, static_cast<double>(b.width),
                             static_cast<double>(b.height), b.colour, RectRole::Frame});
      continue;
    }
    any_stall = true;
    // The whole height of the row: no frame at all is worse than the slowest frame.
    const double top = baseline - options.max_height_px - kRowTopPad / 2;
    scene.rects.push_back({scene.plot_left + b.x, top, static_cast<double>(b.width), baseline - top, kStall,
                           RectRole::Stall});
    if (label_piece.at(b.frame) != i) continue;
    const bool at_end = end_stall && b.frame + 1 == frames.size();
    const std::string label = at_end ? fmt::format("no frame for the last {}", span_text(b.dt_ms / 1000.0))
                                     : fmt::format("stall {}", span_text(b.dt_ms / 1000.0));
    if (static_cast<double>(label.size()) * kStallLabelCharPx + 8 <= b.width)
      scene.texts.push_back({scene.plot_left + b.x + 4, top + 4 + kAxisFont, label, kAxisFont, true,
                             TextAnchor::Start, kStallText});
  }
  if (any_stall) add_stall_legend(scene, scene.width - kMargin, kMargin + 2);
  scene.frame_rects = bars.size();
  return scene;
}

std::size_t add_time_markers(GraphScene& scene, const analysis::FrameSeries& series, const FrameGraphOptions& options,
                             std::span<const TimeMarker> markers) {
  if (series.swap_ns.empty() || scene.row_baseline.empty()) return 0;
  constexpr Rgb kInput = hex(0x4dd0e1);
  constexpr Rgb kPlay = hex(0xffffff);
  constexpr double kInputTick = 7;
  const double rows = static_cast<double>(scene.row_baseline.size());
  std::size_t drawn = 0;
  bool play_labelled = false;
  for (const TimeMarker& m : markers) {
    const double ms = static_cast<double>(m.t_ns - series.swap_ns.front()) / 1e6;
    if (ms < 0) continue;
    // The same pace as the bars: a frame of fast_ms is 1 px, rows of row_width_px.
    const double px = std::floor(ms / options.fast_ms);
    const double row = std::floor(px / options.row_width_px);
    if (row >= rows) continue;
    const double baseline = scene.row_baseline[static_cast<std::size_t>(row)];
    const double x = scene.plot_left + (px - row * options.row_width_px) + 0.5;
    const double top = baseline - options.max_height_px - kRowTopPad / 2;
    if (m.kind == MarkerKind::Input) {
      scene.lines.push_back({x, top, x, top + kInputTick, kInput, 1.0, false, LineRole::Input});
    } else {
      scene.lines.push_back({x, top, x, baseline, kPlay, 1.0, true, LineRole::PlayStart});
      if (!play_labelled)
        scene.texts.push_back({x + 4, top + 4 + kAxisFont, "play starts", kAxisFont, true, TextAnchor::Start, kPlay});
      play_labelled = true;
    }
    ++drawn;
  }
  return drawn;
}

}  // namespace pictor::report
