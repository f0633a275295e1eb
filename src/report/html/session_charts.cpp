// Charts of a session report (see session_charts.h); all through the one Chart helper.
#include "report/html/session_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/rtt_partition.h"
#include "analysis/stats.h"
#include "report/graph_scene.h"
#include "report/html/svg_chart.h"
#include "report/scene_render.h"

namespace pictor::report::html {

namespace {

constexpr double kChartNan = std::numeric_limits<double>::quiet_NaN();
// Beyond this many frames the inline SVG (one rect per frame) would make the page slow to open;
// frametime.png beside it has the graph.
constexpr std::size_t kMaxEmbeddedFrames = 250'000;
// Per-input columns drawn; a longer session shows every k-th input (said under the chart).
constexpr std::size_t kMaxInputColumns = 600;

std::string css(const Rgb& c) {
  const auto b = [](double v) { return static_cast<unsigned>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b));
}

std::string stage_colour(const std::string& column) {
  static const std::map<std::string, std::string> colours = {
      {"CS_ms", "#7e57c2"},        {"SP_ms", "#b39ddb"}, {"wait_app_ms", "#ffd54f"}, {"PS_ms", "#4fc3f7"},
      {"AL_ms", "#1e88e5"},        {"AS_ms", "#ef6c00"}, {"wait_later_frame_ms", "#ffcc80"},
      {"wait_proxy_ms", "#ce93d8"}, {"CP_ms", "#8e24aa"}, {"SS_ms", "#43a047"}, {"unattributed_ms", "#9e9e9e"}};
  const auto it = colours.find(column);
  return it == colours.end() ? "#607d8b" : it->second;
}

// Tick text of the "nines" axis: x = -log10(1 - p) → p0, p90, p99, p99.9 at whole x only.
std::string nines_label(double x) {
  if (std::fabs(x - std::round(x)) > 1e-6) return "";
  const double p = 100.0 * (1.0 - std::pow(10.0, -std::round(x)));
  return "p" + fmt::format("{:g}", p);
}

}  // namespace

std::string frametime_graph_svg(const analysis::SessionData& d, std::string& why) {
  if (!d.have_frames || d.frames.frame_ms.empty()) {
    why = "no frame times: nothing to draw";
    return "";
  }
  if (d.frames.frame_ms.size() > kMaxEmbeddedFrames) {
    why = fmt::format("{} frames are too many to draw inline; frametime.png beside this page has the graph",
                      d.frames.frame_ms.size());
    return "";
  }
  FrameGraphOptions o;
  o.title = d.run.is_object() && d.run.contains("app") ? d.run["app"].value("label", d.dir) : d.dir;
  const GraphExtent e = measure_frametime_graph(d.frames, o);
  if (const auto too_tall = graph_too_tall(e, o, kMaxSvgHeightPx, false)) {
    why = *too_tall;
    return "";
  }
  GraphScene scene = build_frametime_scene(d.frames, o);
  std::vector<TimeMarker> markers;
  for (const std::int64_t t : d.inputs.sent_ns) markers.push_back({t, MarkerKind::Input});
  if (d.launch.play_start_ns) markers.push_back({*d.launch.play_start_ns, MarkerKind::PlayStart});
  add_time_markers(scene, d.frames, o, markers);
  return scene_to_svg(scene);
}

std::string frame_percentile_chart(const analysis::FrameSeries& figure) {
  const std::vector<double> sorted = analysis::stats::sorted(analysis::stats::known(figure.frame_ms));
  Chart c("Frame time by percentile", 620, 300);
  const double n = static_cast<double>(sorted.size());
  AxisSpec x{"percentile (nearest rank; each step right is ten times rarer)"};
  x.lo = 0;
  x.hi = std::max(1.0, std::ceil(std::log10(std::max(n, 10.0))));
  x.format = nines_label;
  AxisSpec y{"frame time (ms)"};
  y.log = true;
  y.format = [](double v) { return fmt::format("{:g}", v); };
  c.x_axis(x).y_axis(y);
  if (sorted.empty()) return c.svg();
  // At most ~500 points, spaced evenly on the nines axis, each the nearest-rank value there.
  std::vector<Point> pts;
  const double xmax = std::log10(n);
  for (int k = 0; k <= 500; ++k) {
    const double xv = xmax * k / 500.0;
    const double p = 100.0 * (1.0 - std::pow(10.0, -xv));
    pts.push_back({xv, std::max(1e-3, analysis::stats::percentile_sorted(sorted, std::min(p, 100.0)))});
  }
  c.line(pts, "#1e88e5", "frame time");
  const double p50 = analysis::stats::percentile_sorted(sorted, 50), p99 = analysis::stats::percentile_sorted(sorted, 99);
  c.hrule(p50, "#43a047", "p50 " + fmt_ms(p50) + " ms");
  c.hrule(p99, "#e53935", "p99 " + fmt_ms(p99) + " ms");
  return c.svg();
}

std::string frame_histogram_chart(const analysis::FrameSeries& figure) {
  const std::vector<double> known = analysis::stats::known(figure.frame_ms);
  Chart c("Frame-time distribution", 620, 300);
  AxisSpec x{"frame time (ms, log scale; colour as in the graph)"};
  x.log = true;
  c.x_axis(x).y_axis(AxisSpec{"share of frames (%)"});
  std::vector<double> pos;
  for (const double v : known)
    if (v > 0) pos.push_back(v);
  if (pos.empty()) return c.svg();
  const double lo = *std::min_element(pos.begin(), pos.end()), hi = *std::max_element(pos.begin(), pos.end());
  const double l0 = std::log10(lo), l1 = std::max(std::log10(hi), l0 + 0.05);
  constexpr int kBins = 36;
  std::vector<double> counts(kBins, 0.0);
  for (const double v : pos) {
    const int b = std::clamp(static_cast<int>((std::log10(v) - l0) / (l1 - l0) * kBins), 0, kBins - 1);
    counts[static_cast<std::size_t>(b)] += 1;
  }
  const FrameGraphOptions o;
  for (int b = 0; b < kBins; ++b) {
    const double e0 = std::pow(10.0, l0 + (l1 - l0) * b / kBins), e1 = std::pow(10.0, l0 + (l1 - l0) * (b + 1) / kBins);
    const double share = counts[static_cast<std::size_t>(b)] / static_cast<double>(pos.size()) * 100;
    if (share <= 0) continue;
    c.bar(e0, e1, 0, share, css(frame_colour(std::sqrt(e0 * e1), o)),
          fmt::format("{}–{} ms: {:.0f} frames ({:.1f} %)", fmt_ms(e0), fmt_ms(e1), counts[static_cast<std::size_t>(b)], share));
  }
  return c.svg();
}

std::string rtt_histogram_chart(const analysis::SessionData& d) {
  const std::vector<double> rtt = analysis::stats::sorted(analysis::stats::known(d.inputs.rtt_ms));
  Chart c("Round-trip time distribution", 620, 300);
  c.x_axis(AxisSpec{"RTT (ms)"}).y_axis(AxisSpec{"inputs"});
  if (rtt.empty()) return c.svg();
  const double lo = rtt.front(), hi = std::max(rtt.back(), lo + 1e-3);
  const int bins = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(rtt.size())) * 2), 8, 48);
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (const double v : rtt)
    counts[static_cast<std::size_t>(std::clamp(static_cast<int>((v - lo) / (hi - lo) * bins), 0, bins - 1))] += 1;
  for (int b = 0; b < bins; ++b) {
    const double e0 = lo + (hi - lo) * b / bins, e1 = lo + (hi - lo) * (b + 1) / bins;
    const double n = counts[static_cast<std::size_t>(b)];
    if (n > 0) c.bar(e0, e1, 0, n, "#5c6bc0", fmt::format("{}–{} ms: {:.0f} inputs", fmt_ms(e0), fmt_ms(e1), n));
  }
  const double mean = analysis::stats::mean(rtt);
  c.vrule(mean, "#e53935", "mean " + fmt_ms(mean));
  c.vrule(analysis::stats::percentile_sorted(rtt, 99), "#6d4c41", "p99 " + fmt_ms(analysis::stats::percentile_sorted(rtt, 99)));
  return c.svg();
}

std::vector<StageColumn> stage_columns(const analysis::SessionData& d) {
  std::vector<StageColumn> out;
  const bool rd_as = analysis::json_at(d.summary, {"stages_ms", "AS_ms", "label"}) == "RD+AS";
  for (const analysis::ColumnInfo& c : analysis::partition_columns()) {
    const std::vector<double>* v = d.inputs.column(c.name);
    if (!v || analysis::stats::known(*v).empty()) continue;
    std::string label = c.label;
    if (std::string(c.name) == "AS_ms" && rd_as) label = "RD+AS";
    out.push_back({c.name, label, stage_colour(c.name)});
  }
  return out;
}

std::string stage_mean_chart(const analysis::SessionData& d) {
  const std::vector<StageColumn> cols = stage_columns(d);
  Chart c("Mean RTT cut into its stages (matched inputs; the columns sum to the RTT)", 1240, 150);
  AxisSpec y;
  y.categories = {"RTT"};
  c.x_axis(AxisSpec{"ms"}).y_axis(y);
  std::vector<Series> series;
  const std::size_t matched = d.inputs.matched();
  for (const StageColumn& s : cols) {
    const std::vector<double>& v = *d.inputs.column(s.column);
    double sum = 0;
    // An empty column of a matched input is time the partition put in unattributed: 0 here.
    for (std::size_t i = 0; i < v.size(); ++i)
      if (d.inputs.status[i] == "matched" && std::isfinite(v[i])) sum += v[i];
    series.push_back({s.label, s.colour, {matched ? sum / static_cast<double>(matched) : kChartNan}});
  }
  c.stacked(series, true);
  return c.svg();
}

std::string stage_per_input_chart(const analysis::SessionData& d) {
  const std::vector<StageColumn> cols = stage_columns(d);
  std::vector<std::size_t> matched;
  for (std::size_t i = 0; i < d.inputs.status.size(); ++i)
    if (d.inputs.status[i] == "matched") matched.push_back(i);
  const std::size_t every = matched.size() > kMaxInputColumns ? (matched.size() + kMaxInputColumns - 1) / kMaxInputColumns : 1;
  Chart c("RTT of each matched input, stacked by stage", 1240, 320);
  AxisSpec x{"matched input (in the order sent)"};
  for (std::size_t k = 0; k < matched.size(); k += every) x.categories.push_back(std::to_string(k + 1));
  c.x_axis(x).y_axis(AxisSpec{"ms"});
  std::vector<Series> series;
  for (const StageColumn& s : cols) {
    Series se{s.label, s.colour, {}};
    for (std::size_t k = 0; k < matched.size(); k += every) se.values.push_back((*d.inputs.column(s.column))[matched[k]]);
    series.push_back(std::move(se));
  }
  c.stacked(series, false);
  if (every > 1) c.note(fmt::format("every {}th of {} matched inputs", every, matched.size()));
  return c.svg();
}

std::string fps_over_time_chart(const analysis::SessionData& d, const std::vector<std::int64_t>& seen_ns) {
  Chart c("Frames per second: app (server) and client", 620, 300);
  c.x_axis(AxisSpec{"session time (s, from the first frame)"}).y_axis(AxisSpec{"frames in each second"});
  const std::vector<std::int64_t>& swaps = d.frames.swap_ns;
  if (swaps.size() < 2) return c.svg();
  const std::int64_t t0 = swaps.front();
  const auto per_second = [&](const std::vector<std::int64_t>& ts) {
    std::map<std::int64_t, double> bins;
    for (const std::int64_t t : ts)
      if (t >= t0) bins[(t - t0) / 1'000'000'000] += 1;
    std::vector<Point> pts;
    if (bins.empty()) return pts;
    // The last second is partial: left out, so it does not read as a drop.
    for (std::int64_t s = 0; s < bins.rbegin()->first; ++s) pts.push_back({static_cast<double>(s) + 0.5, bins.count(s) ? bins[s] : 0.0});
    return pts;
  };
  c.line(per_second(swaps), "#1e88e5", "app frames (swaps)");
  if (!seen_ns.empty()) c.line(per_second(seen_ns), "#43a047", "frames the client received (distinct)");
  if (d.launch.play_start_ns) c.vrule(static_cast<double>(*d.launch.play_start_ns - t0) / 1e9, "#ef6c00", "play starts");
  return c.svg();
}

std::string frame_fate_chart(const analysis::SessionData& d) {
  const double app = analysis::json_number(d.summary, {"client_frames", "app_frames"});
  const double seen = analysis::json_number(d.summary, {"client_frames", "seen"});
  const double never = analysis::json_number(d.summary, {"client_frames", "never_seen"});
  Chart c("What became of the app's frames", 1240, 140);
  AxisSpec y;
  y.categories = {"frames"};
  c.x_axis(AxisSpec{"app frames"}).y_axis(y);
  if (!std::isfinite(app)) return c.svg();
  c.stacked({{"delivered (seen by the client)", "#43a047", {seen}}, {"never seen (dropped or merged away)", "#e53935", {never}}},
            true);
  return c.svg();
}

std::string resources_chart(const analysis::ResourceSamples& r) {
  Chart c("CPU per component (resources.csv)", 1240, 300);
  c.x_axis(AxisSpec{"time (s, from the first sample)"}).y_axis(AxisSpec{"% of one core"});
  if (r.t_ns.empty()) return c.svg();
  const std::int64_t t0 = *std::min_element(r.t_ns.begin(), r.t_ns.end());
  std::map<std::string, std::vector<Point>> lines;
  for (std::size_t i = 0; i < r.t_ns.size(); ++i)
    if (std::isfinite(r.cpu_pct[i])) lines[r.component[i]].push_back({static_cast<double>(r.t_ns[i] - t0) / 1e9, r.cpu_pct[i]});
  static const char* palette[] = {"#1e88e5", "#e53935", "#43a047", "#8e24aa", "#ef6c00", "#00897b", "#6d4c41", "#546e7a"};
  std::size_t k = 0;
  for (auto& [name, pts] : lines) c.line(pts, palette[k++ % std::size(palette)], name);
  return c.svg();
}

}  // namespace pictor::report::html
