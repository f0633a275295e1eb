#include "runner/group_summary.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>

#include "analysis/stats.h"
#include "core/json_util.h"

namespace pictor::runner {

namespace {

using nlohmann::json;
namespace stats = analysis::stats;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The number at a path of keys, NaN when any step is missing or not a number.
double at(const json& j, std::initializer_list<const char*> keys) {
  const json* cur = &j;
  for (const char* k : keys) {
    if (!cur->is_object() || !cur->contains(k)) return kNaN;
    cur = &(*cur)[k];
  }
  return cur->is_number() ? cur->get<double>() : kNaN;
}

// Roles that are threads inside Pictor's own process: their CPU is already in `client`'s.
bool inside_client(const std::string& role) { return role == "relay" || role == "sampler"; }

double mean_known(const std::vector<double>& v) { return stats::mean(stats::known(v)); }
double max_known(const std::vector<double>& v) {
  const std::vector<double> k = stats::known(v);
  return k.empty() ? kNaN : stats::percentile(k, 100);
}
double sum_known(const std::vector<double>& v) {
  const std::vector<double> k = stats::known(v);
  return k.empty() ? kNaN : stats::sum(k);
}

std::string cell(const json& v, const char* spec) {
  return v.is_number() ? fmt::format(fmt::runtime(spec), v.get<double>()) : std::string("-");
}

}  // namespace

json member_figures(const GroupMemberFigures& m) {
  const json& s = m.summary;
  json row{{"name", m.name},
           {"status", m.status},
           {"fps_server", number_or_null(at(s, {"fps_avg"}))},
           {"fps_client", number_or_null(at(s, {"fps_client"}))},
           {"frame_ms_p50", number_or_null(at(s, {"frame_ms", "p50"}))},
           {"frame_ms_p99", number_or_null(at(s, {"frame_ms", "p99"}))},
           {"rtt_ms_mean", number_or_null(at(s, {"rtt_ms", "mean"}))},
           {"rtt_ms_p99", number_or_null(at(s, {"rtt_ms", "p99"}))}};
  const double sent = at(s, {"inputs", "sent"}), matched = at(s, {"inputs", "matched"});
  row["inputs_matched_pct"] = number_or_null(sent > 0 ? 100.0 * matched / sent : kNaN);
  json stages = json::object();
  if (s.is_object() && s.contains("stages_ms") && s["stages_ms"].is_object())
    for (const auto& [stage, fig] : s["stages_ms"].items()) stages[stage] = number_or_null(at(fig, {"mean"}));
  row["stages_ms"] = stages;
  // The stack's processes (app and its children, X server, proxy): what the server pays for it.
  double cpu = kNaN, rss_kb = kNaN;
  if (s.is_object() && s.contains("resources") && s["resources"].contains("processes"))
    for (const auto& [role, p] : s["resources"]["processes"].items()) {
      if (inside_client(role) || role == "client") continue;
      if (const double c = at(p, {"cpu_mean_pct"}); std::isfinite(c)) cpu = (std::isfinite(cpu) ? cpu : 0) + c;
      if (const double r = at(p, {"rss_max_kb"}); std::isfinite(r)) rss_kb = (std::isfinite(rss_kb) ? rss_kb : 0) + r;
    }
  row["cpu_pct"] = number_or_null(cpu);
  row["rss_mb"] = number_or_null(rss_kb / 1024.0);
  const double down = at(m.run, {"net", "bytes_down"}), measured = at(m.run, {"duration_measured_s"});
  // The stack's own network rows when the sampler had them (its summary's resources), else its
  // relay's bytes over the measured time.
  const double own = at(m.summary, {"resources", "network", "mbit_s_down"});
  row["net_mbit_s_down"] = number_or_null(std::isfinite(own) ? own : measured > 0 ? down * 8 / measured / 1e6 : kNaN);
  return row;
}

json group_summary(const std::vector<GroupMemberFigures>& members, const json& resources) {
  json rows = json::array();
  std::vector<double> fps, fps_client, p99, rtt, rtt_p99, cpu, rss;
  std::map<std::string, std::vector<double>> stages;
  for (const GroupMemberFigures& m : members) {
    json r = member_figures(m);
    fps.push_back(at(r, {"fps_server"}));
    fps_client.push_back(at(r, {"fps_client"}));
    p99.push_back(at(r, {"frame_ms_p99"}));
    rtt.push_back(at(r, {"rtt_ms_mean"}));
    rtt_p99.push_back(at(r, {"rtt_ms_p99"}));
    cpu.push_back(at(r, {"cpu_pct"}));
    rss.push_back(at(r, {"rss_mb"}));
    for (const auto& [stage, v] : r["stages_ms"].items()) stages[stage].push_back(v.is_number() ? v.get<double>() : kNaN);
    rows.push_back(std::move(r));
  }
  json stage_means = json::object();
  for (const auto& [stage, v] : stages) stage_means[stage] = number_or_null(mean_known(v));
  const double cpu_sum = sum_known(cpu);
  json aggregate{{"members", members.size()},
                 {"fps_server_sum", number_or_null(sum_known(fps))},
                 {"fps_server_mean", number_or_null(mean_known(fps))},
                 {"fps_client_mean", number_or_null(mean_known(fps_client))},
                 {"frame_ms_p99_max", number_or_null(max_known(p99))},
                 {"rtt_ms_mean", number_or_null(mean_known(rtt))},
                 {"rtt_ms_p99_max", number_or_null(max_known(rtt_p99))},
                 {"stages_ms", stage_means},
                 {"cpu_pct_sum", number_or_null(cpu_sum)},
                 {"cpu_pct_per_member", number_or_null(members.empty() ? kNaN : cpu_sum / static_cast<double>(members.size()))},
                 {"rss_mb_sum", number_or_null(sum_known(rss))},
                 {"client_cpu_pct", number_or_null(at(resources, {"processes", "client", "cpu_mean_pct"}))},
                 {"machine_cpu_busy_pct", number_or_null(at(resources, {"machine", "cpu", "busy_mean_pct"}))}};
  return json{{"schema", 1}, {"members", rows}, {"aggregate", aggregate}, {"resources", resources}};
}

std::string format_group_table(const json& summary) {
  std::string out = fmt::format("{:<16} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}\n", "stack", "FPS srv",
                                "FPS cli", "p50 ms", "p99 ms", "RTT ms", "RTT p99", "matched", "CPU %", "RSS MB");
  for (const json& r : summary.value("members", json::array()))
    out += fmt::format("{:<16} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}{}\n", r.value("name", ""),
                       cell(r["fps_server"], "{:.1f}"), cell(r["fps_client"], "{:.1f}"), cell(r["frame_ms_p50"], "{:.2f}"),
                       cell(r["frame_ms_p99"], "{:.2f}"), cell(r["rtt_ms_mean"], "{:.1f}"), cell(r["rtt_ms_p99"], "{:.1f}"),
                       r["inputs_matched_pct"].is_number() ? cell(r["inputs_matched_pct"], "{:.0f}") + "%" : "-",
                       cell(r["cpu_pct"], "{:.0f}"), cell(r["rss_mb"], "{:.0f}"),
                       r.value("status", "ok") == "ok" ? "" : "  (" + r.value("status", "") + ")");
  const json& a = summary.value("aggregate", json::object());
  out += fmt::format("all {:>2}: server FPS {} in all ({} each), client FPS {} each, RTT {} ms mean, p99 up to {} ms; "
                     "stacks' CPU {} % of a core ({} per stack), Pictor's client {} %, machine busy {} %\n",
                     a.value("members", 0), cell(a["fps_server_sum"], "{:.1f}"), cell(a["fps_server_mean"], "{:.1f}"),
                     cell(a["fps_client_mean"], "{:.1f}"), cell(a["rtt_ms_mean"], "{:.1f}"),
                     cell(a["rtt_ms_p99_max"], "{:.1f}"), cell(a["cpu_pct_sum"], "{:.0f}"),
                     cell(a["cpu_pct_per_member"], "{:.0f}"), cell(a["client_cpu_pct"], "{:.0f}"),
                     cell(a["machine_cpu_busy_pct"], "{:.0f}"));
  return out;
}

json sweep_row(int count, const json& group) {
  const json& a = group.value("aggregate", json::object());
  auto per = [&](const char* key) {
    const double v = at(a, {key});
    return number_or_null(count > 0 ? v / count : kNaN);
  };
  return json{{"instances", count},
              {"fps_server_per_instance", number_or_null(a.value("fps_server_mean", json()))},
              {"fps_client_per_instance", number_or_null(a.value("fps_client_mean", json()))},
              {"rtt_ms_mean", number_or_null(a.value("rtt_ms_mean", json()))},
              {"rtt_ms_p99_max", number_or_null(a.value("rtt_ms_p99_max", json()))},
              {"frame_ms_p99_max", number_or_null(a.value("frame_ms_p99_max", json()))},
              {"cpu_pct_per_instance", number_or_null(a.value("cpu_pct_per_member", json()))},
              {"rss_mb_per_instance", per("rss_mb_sum")},
              {"client_cpu_pct", number_or_null(a.value("client_cpu_pct", json()))},
              {"machine_cpu_busy_pct", number_or_null(a.value("machine_cpu_busy_pct", json()))},
              // The paper's figure 11: each RTT stage's mean over the instances (null when unknown).
              {"stages_ms", a.contains("stages_ms") && a["stages_ms"].is_object() ? a["stages_ms"] : json::object()}};
}

namespace {
constexpr const char* kSweepColumns[] = {"instances",      "fps_server_per_instance", "fps_client_per_instance",
                                         "rtt_ms_mean",    "rtt_ms_p99_max",          "frame_ms_p99_max",
                                         "cpu_pct_per_instance", "rss_mb_per_instance", "client_cpu_pct",
                                         "machine_cpu_busy_pct"};
}  // namespace

// The RTT stages any row has, in the pipeline's order (DESIGN's CS SP PS AL RD FC AS CP SS with
// the waits where they fall), then any other in the order it first appears.
std::vector<std::string> sweep_stages(const std::vector<json>& rows) {
  static const std::vector<std::string> kOrder = {"CS_ms", "SP_ms", "PS_ms", "wait_app_ms", "AL_ms", "RD_ms", "FC_ms",
                                                  "AS_ms", "wait_proxy_ms", "CP_ms", "SS_ms", "wait_later_frame_ms",
                                                  "unattributed_ms"};
  std::vector<std::string> stages;
  for (const json& r : rows)
    if (r.contains("stages_ms") && r["stages_ms"].is_object())
      for (const auto& [stage, v] : r["stages_ms"].items())
        if (std::find(stages.begin(), stages.end(), stage) == stages.end()) stages.push_back(stage);
  const auto rank = [](const std::string& s) {
    return static_cast<std::size_t>(std::find(kOrder.begin(), kOrder.end(), s) - kOrder.begin());
  };
  std::stable_sort(stages.begin(), stages.end(), [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return stages;
}

std::string sweep_csv(const std::vector<json>& rows) {
  std::string out;
  const std::vector<std::string> stages = sweep_stages(rows);
  for (const char* c : kSweepColumns) out += std::string(out.empty() ? "" : ",") + c;
  for (const std::string& stage : stages) out += ",stage_" + stage;
  out += "\n";
  // An unknown figure is an empty cell, never 0.
  const auto value = [](const json& v) {
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    return v.is_number() ? fmt::format("{:.3f}", v.get<double>()) : std::string();
  };
  for (const json& r : rows) {
    bool first = true;
    for (const char* c : kSweepColumns) {
      if (!first) out += ",";
      first = false;
      out += value(r.contains(c) ? r[c] : json());
    }
    for (const std::string& stage : stages)
      out += "," + value(r.contains("stages_ms") ? r["stages_ms"].value(stage, json()) : json());
    out += "\n";
  }
  return out;
}

std::string format_sweep_table(const std::vector<json>& rows) {
  std::string out = fmt::format("{:>9} {:>12} {:>12} {:>8} {:>9} {:>9} {:>13} {:>12} {:>10} {:>9}\n", "instances",
                                "FPS srv/inst", "FPS cli/inst", "RTT ms", "RTT p99", "p99 ms", "CPU %/inst", "RSS MB/inst",
                                "client %", "machine %");
  for (const json& r : rows)
    out += fmt::format("{:>9} {:>12} {:>12} {:>8} {:>9} {:>9} {:>13} {:>12} {:>10} {:>9}\n", r.value("instances", 0),
                       cell(r["fps_server_per_instance"], "{:.1f}"), cell(r["fps_client_per_instance"], "{:.1f}"),
                       cell(r["rtt_ms_mean"], "{:.1f}"), cell(r["rtt_ms_p99_max"], "{:.1f}"),
                       cell(r["frame_ms_p99_max"], "{:.2f}"), cell(r["cpu_pct_per_instance"], "{:.0f}"),
                       cell(r["rss_mb_per_instance"], "{:.0f}"), cell(r["client_cpu_pct"], "{:.0f}"),
                       cell(r["machine_cpu_busy_pct"], "{:.0f}"));
  const std::vector<std::string> stages = sweep_stages(rows);
  if (stages.empty()) return out;
  out += "\nRTT stages, mean ms per instance:\n" + fmt::format("{:>9}", "instances");
  for (std::string stage : stages) {
    if (stage.ends_with("_ms")) stage.resize(stage.size() - 3);
    out += fmt::format(" {:>10}", stage.substr(0, 10));
  }
  out += "\n";
  for (const json& r : rows) {
    out += fmt::format("{:>9}", r.value("instances", 0));
    for (const std::string& stage : stages)
      out += fmt::format(" {:>10}", cell(r.contains("stages_ms") ? r["stages_ms"].value(stage, json()) : json(), "{:.1f}"));
    out += "\n";
  }
  return out;
}

}  // namespace pictor::runner
