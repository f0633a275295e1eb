// summary.json's resources block and analyze's table, from the series of resources.csv.
#include "resources/resource_summary.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "analysis/stats.h"

namespace pictor::resources {

namespace {

using nlohmann::json;
namespace stats = analysis::stats;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

double round_to(double v, double step) { return std::isfinite(v) ? std::round(v / step) * step : v; }

// The roles inside Pictor's own process: counted in "client" already, so not summed again.
bool inside_client(const std::string& role) { return role == "relay" || role == "sampler"; }

struct RoleFigures {
  std::vector<std::string> names;
  std::vector<int> pids;
  std::map<std::int64_t, double> cpu_at;      // sample instant → CPU seconds of the interval ending there
  std::map<std::int64_t, double> rss_at;      // sample instant → kB summed over the role's processes
  double cpu_s = 0, switches = 0;
  std::int64_t first = 0, last = 0;
  bool any_rss = false, any_switches = false;
};

json role_block(const RoleFigures& f, const std::vector<std::int64_t>& samples) {
  std::vector<double> pct;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (samples[i] <= f.first || samples[i] > f.last) continue;
    const double dt = static_cast<double>(samples[i] - samples[i - 1]) * 1e-9;
    const auto it = f.cpu_at.find(samples[i]);
    if (dt > 0) pct.push_back(100.0 * (it == f.cpu_at.end() ? 0.0 : it->second) / dt);
  }
  const double span_s = static_cast<double>(f.last - f.first) * 1e-9;
  double rss_max = NAN;
  for (const auto& [t, kb] : f.rss_at) rss_max = std::isnan(rss_max) ? kb : std::max(rss_max, kb);
  return json{{"processes", f.pids.size()},
              {"names", f.names},
              {"pids", f.pids},
              {"cpu_s", round_to(f.cpu_s, 1e-3)},
              {"cpu_mean_pct", span_s > 0 ? number_or_null(round_to(100.0 * f.cpu_s / span_s, 0.1)) : json()},
              {"cpu_p95_pct", number_or_null(round_to(stats::percentile(pct, 95), 0.1))},
              {"rss_max_kb", f.any_rss ? number_or_null(rss_max) : json()},
              {"switches_per_s", f.any_switches && span_s > 0 ? number_or_null(round_to(f.switches / span_s, 0.1)) : json()},
              {"seen_s", round_to(span_s, 1e-3)}};
}

const MetricSeries* find_metric(const ResourceSeries& s, const std::string& role, const std::string& name) {
  for (const MetricSeries& m : s.metrics)
    if (m.role == role && m.name == name) return &m;
  return nullptr;
}

// Rate of a cumulative metric over its whole series, per second.
std::optional<double> rate(const MetricSeries* m) {
  if (!m || m->points.size() < 2) return std::nullopt;
  const double dt = static_cast<double>(m->points.back().t_ns - m->points.front().t_ns) * 1e-9;
  if (dt <= 0) return std::nullopt;
  return (m->points.back().value - m->points.front().value) / dt;
}

std::string note_or(const ResourceSeries& s, const std::string& role, const std::string& fallback) {
  const auto it = s.notes.find(role);
  return it == s.notes.end() ? fallback : it->second;
}

json network_block(const ResourceSeries& s) {
  const MetricSeries* up = find_metric(s, "network", "up");
  const MetricSeries* down = find_metric(s, "network", "down");
  const auto up_rate = rate(up), down_rate = rate(down);
  if (!up_rate || !down_rate)
    return json{{"unavailable", note_or(s, "network", "unavailable: no network rows recorded")}};
  return json{{"source", note_or(s, "network", "")},
              {"bytes_up", up->points.back().value - up->points.front().value},
              {"bytes_down", down->points.back().value - down->points.front().value},
              {"mbit_s_up", round_to(*up_rate * 8e-6, 1e-3)},
              {"mbit_s_down", round_to(*down_rate * 8e-6, 1e-3)}};
}

json gauge_block(const ResourceSeries& s, const std::string& role) {
  json out = json::object();
  for (const MetricSeries& m : s.metrics) {
    if (m.role != role) continue;
    std::vector<double> v;
    for (const MetricPoint& p : m.points) v.push_back(p.value);
    if (role == "power") {
      // Cumulative µJ: watts over the session (a counter wrap shows as a negative rate: null).
      const auto r = rate(&m);
      out[m.name] = {{"mean_w", r && *r >= 0 ? number_or_null(round_to(*r * 1e-6, 1e-3)) : json()}};
    } else {
      out[m.name] = {{"mean", number_or_null(round_to(stats::mean(v), 1e-3))},
                     {"max", number_or_null(*std::max_element(v.begin(), v.end()))},
                     {"unit", m.unit}};
    }
  }
  if (out.empty()) return json{{"unavailable", note_or(s, role, "unavailable: no " + role + " rows recorded")}};
  out["source"] = note_or(s, role, "");
  return out;
}

json machine_block(const ResourceSeries& s) {
  json cores = json::array();
  json all;
  for (const MetricSeries& m : s.metrics) {
    if (m.role != "cpu" || m.points.size() < 2) continue;
    std::vector<double> pct;
    for (std::size_t i = 1; i < m.points.size(); ++i) {
      const double total = m.points[i].value - m.points[i - 1].value;
      if (total > 0) pct.push_back(100.0 * (m.points[i].busy_s - m.points[i - 1].busy_s) / total);
    }
    const double total = m.points.back().value - m.points.front().value;
    const double busy = m.points.back().busy_s - m.points.front().busy_s;
    json c{{"name", m.name},
           {"busy_mean_pct", total > 0 ? number_or_null(round_to(100.0 * busy / total, 0.1)) : json()},
           {"busy_p95_pct", number_or_null(round_to(stats::percentile(pct, 95), 0.1))}};
    if (m.name == "cpu") all = c;
    else cores.push_back(c);
  }
  json out{{"cpu", all}, {"cores", cores}};
  if (const MetricSeries* used = find_metric(s, "memory", "used")) {
    double mx = 0;
    for (const MetricPoint& p : used->points) mx = std::max(mx, p.value);
    out["memory_used_max_kb"] = mx;
  }
  if (const MetricSeries* total = find_metric(s, "memory", "total")) out["memory_total_kb"] = total->points.back().value;
  if (const MetricSeries* load = find_metric(s, "load", "load1")) {
    double mx = 0;
    for (const MetricPoint& p : load->points) mx = std::max(mx, p.value);
    out["load1_max"] = mx;
  }
  return out;
}

json counters_block(const ResourceSeries& s) {
  json out = json::object();
  for (const CounterValue& c : s.counters) {
    json& role = out[c.key];
    role["pids"].push_back(c.pid);
    std::vector<int> pids = role["pids"].get<std::vector<int>>();
    std::sort(pids.begin(), pids.end());
    pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
    role["pids"] = pids;
    json& e = role["events"][c.event];
    if (!e.is_object()) e = {{"value", nullptr}};
    if (c.value) {
      // The role's processes summed (one pid per role but app-child; children count in the app's).
      e["value"] = (e["value"].is_number() ? e["value"].get<double>() : 0.0) + *c.value;
      e.erase("unavailable");
      if (!c.note.empty()) e["note"] = c.note;
    } else if (!e["value"].is_number()) {
      e["unavailable"] = c.unavailable;
    }
  }
  for (auto& [key, role] : out.items()) {
    json& ev = role["events"];
    const auto v = [&](const char* n) -> std::optional<double> {
      if (!ev.contains(n) || !ev[n]["value"].is_number()) return std::nullopt;
      return ev[n]["value"].get<double>();
    };
    if (v("instructions") && v("cycles") && *v("cycles") > 0) role["ipc"] = round_to(*v("instructions") / *v("cycles"), 1e-3);
    else role["ipc"] = nullptr;
  }
  return out;
}

}  // namespace

json summarize_resources(const ResourceSeries& s) {
  std::map<std::string, RoleFigures> roles;
  std::vector<std::string> order;
  for (const ProcessSeries& p : s.processes) {
    if (p.points.empty()) continue;
    auto [it, fresh] = roles.try_emplace(p.key);
    if (fresh) order.push_back(p.key);
    RoleFigures& f = it->second;
    f.pids.push_back(p.pid);
    if (std::find(f.names.begin(), f.names.end(), p.name) == f.names.end()) f.names.push_back(p.name);
    f.first = f.first == 0 ? p.points.front().t_ns : std::min(f.first, p.points.front().t_ns);
    f.last = std::max(f.last, p.points.back().t_ns);
    for (std::size_t i = 0; i < p.points.size(); ++i) {
      const ProcessPoint& pt = p.points[i];
      if (pt.rss_kb) {
        f.rss_at[pt.t_ns] += *pt.rss_kb;
        f.any_rss = true;
      }
      if (i == 0) continue;
      const double d = pt.cpu_s - p.points[i - 1].cpu_s;
      f.cpu_at[pt.t_ns] += d;
      f.cpu_s += d;
      if (pt.switches && p.points[i - 1].switches) {
        f.switches += *pt.switches - *p.points[i - 1].switches;
        f.any_switches = true;
      }
    }
  }
  json processes = json::object();
  double sum_mean = 0;
  bool any_mean = false;
  for (const std::string& key : order) {
    json b = role_block(roles[key], s.samples);
    if (!inside_client(key.substr(key.rfind('/') + 1)) && b["cpu_mean_pct"].is_number()) {
      sum_mean += b["cpu_mean_pct"].get<double>();
      any_mean = true;
    }
    processes[key] = std::move(b);
  }
  std::vector<double> intervals;
  for (std::size_t i = 1; i < s.samples.size(); ++i) intervals.push_back(static_cast<double>(s.samples[i] - s.samples[i - 1]) * 1e-6);
  json sampler{{"samples", s.samples.size()},
               {"interval_median_ms", number_or_null(round_to(stats::percentile(intervals, 50), 0.01))}};
  const MetricSeries* own = find_metric(s, "sampler", "thread_cpu_s");
  if (own && !own->points.empty() && !s.samples.empty()) {
    sampler["thread_cpu_s"] = own->points.back().value;
    sampler["cpu_per_sample_ms"] = round_to(own->points.back().value * 1e3 / static_cast<double>(s.samples.size()), 1e-4);
  } else if (processes.contains("sampler") && !s.samples.empty())
    sampler["cpu_per_sample_ms"] = round_to(processes["sampler"]["cpu_s"].get<double>() * 1e3 / static_cast<double>(s.samples.size()), 1e-3);
  json out{{"schema", 1},
           {"processes", processes},
           {"cpu_sum_mean_pct", any_mean ? json(round_to(sum_mean, 0.1)) : json()},
           {"machine", machine_block(s)},
           {"network", network_block(s)},
           {"gpu", gauge_block(s, "gpu")},
           {"power", gauge_block(s, "power")},
           {"counters", counters_block(s)},
           {"sampler", sampler}};
  if (!s.read_notes.empty()) out["notes"] = s.read_notes;
  return out;
}

std::string format_resources(const json& b) {
  if (!b.is_object() || !b.contains("processes")) return "";
  auto num = [](const json& v, const char* fmtspec) {
    return v.is_number() ? fmt::format(fmt::runtime(fmtspec), v.get<double>()) : std::string("-");
  };
  // A two-host session's block is the render host's (docs/two-hosts.md "Resources").
  std::string out = b.contains("host") && b["host"].is_string()
                        ? "\nResources on the " + b["host"].get<std::string>() + " (per role; CPU in % of one core)\n"
                        : "\nResources (per role; CPU in % of one core)\n";
  out += fmt::format("  {:<16} {:>5} {:>9} {:>8} {:>11} {:>10}\n", "role", "procs", "CPU mean", "CPU p95", "RSS max MB",
                     "ctx sw/s");
  for (const auto& [role, p] : b["processes"].items()) {
    const json rss = p["rss_max_kb"].is_number() ? json(p["rss_max_kb"].get<double>() / 1024.0) : json();
    out += fmt::format("  {:<16} {:>5} {:>9} {:>8} {:>11} {:>10}\n", role, p["processes"].get<int>(),
                       num(p["cpu_mean_pct"], "{:.1f}"), num(p["cpu_p95_pct"], "{:.1f}"), num(rss, "{:.1f}"),
                       num(p["switches_per_s"], "{:.0f}"));
  }
  const json& m = b["machine"];
  if (m.contains("cpu") && m["cpu"].is_object())
    out += fmt::format("  machine CPU busy: mean {} %, p95 {} % ({} cores)\n", num(m["cpu"]["busy_mean_pct"], "{:.1f}"),
                       num(m["cpu"]["busy_p95_pct"], "{:.1f}"), m["cores"].size());
  const json& n = b["network"];
  out += n.contains("unavailable") ? "  network: " + n["unavailable"].get<std::string>() + "\n"
                                   : fmt::format("  network ({}): up {} Mbit/s, down {} Mbit/s\n",
                                                 n.value("source", ""), num(n["mbit_s_up"], "{:.3f}"),
                                                 num(n["mbit_s_down"], "{:.3f}"));
  for (const char* what : {"gpu", "power"}) {
    const json& g = b[what];
    if (g.contains("unavailable")) {
      out += fmt::format("  {}: {}\n", what, g["unavailable"].get<std::string>());
      continue;
    }
    for (const auto& [name, v] : g.items()) {
      if (name == "source") continue;
      out += v.contains("mean_w") ? fmt::format("  {}: {} W\n", name, num(v["mean_w"], "{:.2f}"))
                                  : fmt::format("  {}: mean {} {}, max {}\n", name, num(v["mean"], "{:.1f}"),
                                                v.value("unit", ""), num(v["max"], "{:.1f}"));
    }
  }
  // Counters: the software ones with values, the first reason a hardware one is missing.
  for (const auto& [role, c] : b["counters"].items()) {
    std::string line, missing;
    for (const auto& [event, e] : c["events"].items()) {
      if (e["value"].is_number()) line += fmt::format(" {}={:.0f}", event, e["value"].get<double>());
      else if (missing.empty()) missing = e.value("unavailable", "");
    }
    out += fmt::format("  counters {}:{}{}\n", role, line, missing.empty() ? "" : "; hardware " + missing);
  }
  return out;
}

}  // namespace pictor::resources

namespace pictor::resources {

ResourceSeries stack_series(const ResourceSeries& all, const std::string& stack, const std::string& network_reason) {
  const std::string prefix = stack + "/";
  auto own = [&prefix](const std::string& key) { return key.rfind(prefix, 0) == 0; };
  ResourceSeries out;
  out.samples = all.samples;
  out.read_notes = all.read_notes;
  for (const ProcessSeries& p : all.processes)
    if (own(p.key)) {
      out.processes.push_back(p);
      out.processes.back().key = p.key.substr(prefix.size());
    }
  bool own_network = false;
  for (const MetricSeries& m : all.metrics) {
    if (m.role == prefix + "network") {
      // The stack's own network rows (ResourceSampler::add_stack_network) stand for its network.
      out.metrics.push_back(m);
      out.metrics.back().role = "network";
      own_network = true;
    } else if (m.role != "network" && m.role.find('/') == std::string::npos) {  // not another stack's
      out.metrics.push_back(m);
    }
  }
  for (const CounterValue& c : all.counters)
    if (own(c.key)) {
      out.counters.push_back(c);
      out.counters.back().key = c.key.substr(prefix.size());
    }
  out.notes = all.notes;
  if (own_network && all.notes.count(prefix + "network")) out.notes["network"] = all.notes.at(prefix + "network");
  else if (!own_network) out.notes["network"] = network_reason;
  return out;
}

}  // namespace pictor::resources
