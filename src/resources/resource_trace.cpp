// trace.json's counter tracks from resources.csv: one "resources" process with CPU % and RSS per
// role and the network rate each way, on the trace's clock.
#include <algorithm>
#include <map>

#include "resources/resource_summary.h"

namespace pictor::resources {

namespace {

using nlohmann::json;

// Beside build_trace's app (1) and client (2) processes.
constexpr int kResourcesPid = 3;

}  // namespace

void add_resource_tracks(json& trace, const ResourceSeries& s) {
  if (s.samples.empty() || !trace.contains("traceEvents")) return;
  json& events = trace["traceEvents"];
  std::int64_t origin = trace["otherData"].value("monotonic_origin_ns", std::int64_t{0});
  if (s.samples.front() < origin) {
    // The sampler starts with the app, before its first frame: the trace begins there instead.
    const double shift_us = static_cast<double>(origin - s.samples.front()) / 1e3;
    for (json& e : events)
      if (e.contains("ts")) e["ts"] = e["ts"].get<double>() + shift_us;
    origin = s.samples.front();
    trace["otherData"]["monotonic_origin_ns"] = origin;
  }
  const auto us = [&](std::int64_t t) { return static_cast<double>(t - origin) / 1e3; };
  events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", kResourcesPid}, {"tid", 0}, {"args", {{"name", "resources"}}}});
  events.push_back({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", kResourcesPid}, {"tid", 0}, {"args", {{"sort_index", 3}}}});
  // Per role and sample: CPU seconds of the interval and RSS, summed over the role's processes.
  std::map<std::string, std::map<std::int64_t, double>> cpu, rss;
  for (const ProcessSeries& p : s.processes) {
    for (std::size_t i = 0; i < p.points.size(); ++i) {
      if (p.points[i].rss_kb) rss[p.key][p.points[i].t_ns] += *p.points[i].rss_kb / 1024.0;
      if (i > 0) cpu[p.key][p.points[i].t_ns] += p.points[i].cpu_s - p.points[i - 1].cpu_s;
    }
  }
  for (std::size_t i = 1; i < s.samples.size(); ++i) {
    const std::int64_t t = s.samples[i];
    const double dt = static_cast<double>(t - s.samples[i - 1]) * 1e-9;
    if (dt <= 0) continue;
    json cpu_args = json::object(), rss_args = json::object();
    for (const auto& [role, at] : cpu)
      if (const auto it = at.find(t); it != at.end()) cpu_args[role] = 100.0 * it->second / dt;
    for (const auto& [role, at] : rss)
      if (const auto it = at.find(t); it != at.end()) rss_args[role] = it->second;
    if (!cpu_args.empty())
      events.push_back({{"ph", "C"}, {"name", "CPU % of one core"}, {"pid", kResourcesPid}, {"ts", us(t)}, {"args", cpu_args}});
    if (!rss_args.empty())
      events.push_back({{"ph", "C"}, {"name", "RSS MB"}, {"pid", kResourcesPid}, {"ts", us(t)}, {"args", rss_args}});
  }
  const MetricSeries* up = nullptr;
  const MetricSeries* down = nullptr;
  for (const MetricSeries& m : s.metrics) {
    if (m.role == "network" && m.name == "up") up = &m;
    if (m.role == "network" && m.name == "down") down = &m;
  }
  if (up && down && up->points.size() == down->points.size()) {
    for (std::size_t i = 1; i < up->points.size(); ++i) {
      const double dt = static_cast<double>(up->points[i].t_ns - up->points[i - 1].t_ns) * 1e-9;
      if (dt <= 0) continue;
      events.push_back({{"ph", "C"},
                        {"name", "network Mbit/s"},
                        {"pid", kResourcesPid},
                        {"ts", us(up->points[i].t_ns)},
                        {"args",
                         {{"up", (up->points[i].value - up->points[i - 1].value) * 8e-6 / dt},
                          {"down", (down->points[i].value - down->points[i - 1].value) * 8e-6 / dt}}}});
    }
  }
}

}  // namespace pictor::resources
