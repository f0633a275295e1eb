#include "db/db_format.h"

#include <fmt/format.h>

#include <map>

#include "analysis/csv.h"

namespace pictor::db {

namespace {

using analysis::csv_field;
using nlohmann::json;

std::string cell(const std::optional<double>& v, int decimals) {
  return v ? fmt::format("{:.{}f}", *v, decimals) : std::string("-");
}

std::optional<double> first_of(const std::map<std::string, std::optional<double>>& m, const std::vector<std::string>& names) {
  for (const std::string& n : names)
    if (const auto it = m.find(n); it != m.end()) return it->second;
  return std::nullopt;
}

json text_or_null(const std::string& s) { return s.empty() ? json() : json(s); }

json parsed_or_text(const std::string& s) {
  if (s.empty()) return json();
  try {
    return json::parse(s);
  } catch (const json::exception&) {
    return s;
  }
}

const std::vector<std::string> kFpsNames{"fps_avg", "fps_avg.mean"};
const std::vector<std::string> kRttNames{"rtt_ms.mean", "rtt_ms.mean.mean"};

}  // namespace

std::vector<std::string> list_figure_names() {
  std::vector<std::string> names = kFpsNames;
  names.insert(names.end(), kRttNames.begin(), kRttNames.end());
  return names;
}

std::string format_run_list(const ResultsStore& store, const ListFilter& filter) {
  const std::vector<StoredRun> runs = store.list(filter);
  const auto figures = store.metric_values(list_figure_names(), filter);
  std::string out = fmt::format("{:>5} {:<20} {:<7} {:>6} {:<30} {:<7} {:<7} {:>9} {:>9}  {}\n", "id", "start (UTC)", "kind",
                                "parent", "app", "adapter", "status", "FPS", "RTT ms", "directory");
  for (const StoredRun& s : runs) {
    const auto it = figures.find(s.id);
    const std::map<std::string, std::optional<double>> none;
    const auto& f = it == figures.end() ? none : it->second;
    out += fmt::format("{:>5} {:<20} {:<7} {:>6} {:<30} {:<7} {:<7} {:>9} {:>9}  {}\n", s.id, s.run.start_time, s.run.kind,
                       s.run.parent_id ? std::to_string(*s.run.parent_id) : "", s.run.app.substr(0, 30),
                       s.run.adapter.empty() ? "-" : s.run.adapter, s.run.status.empty() ? "-" : s.run.status,
                       cell(first_of(f, kFpsNames), 1), cell(first_of(f, kRttNames), 2), s.run.dir);
  }
  if (runs.empty()) out += "(no run recorded matches)\n";
  return out;
}

json run_list_json(const ResultsStore& store, const ListFilter& filter) {
  json out = json::array();
  for (const StoredRun& s : store.list(filter)) out.push_back(run_json(s, {}));
  return out;
}

json run_json(const StoredRun& s, const std::vector<StoredRun>& children) {
  const RunRecord& r = s.run;
  json j{{"id", s.id},
         {"recorded_at", s.recorded_at},
         {"kind", r.kind},
         {"parent_id", r.parent_id ? json(*r.parent_id) : json()},
         {"start_time", text_or_null(r.start_time)},
         {"end_time", text_or_null(r.end_time)},
         {"command_line", parsed_or_text(r.command_line)},
         {"app", text_or_null(r.app)},
         {"adapter", text_or_null(r.adapter)},
         {"driver", text_or_null(r.driver)},
         {"options", parsed_or_text(r.options)},
         {"machine", parsed_or_text(r.machine)},
         {"host", text_or_null(r.host)},
         {"status", text_or_null(r.status)},
         {"dir", r.dir}};
  if (!r.metrics.empty()) {
    json m = json::object();
    for (const Metric& x : r.metrics) m[x.name] = x.value ? json(*x.value) : json();
    j["metrics"] = m;
  }
  if (!children.empty()) {
    j["children"] = json::array();
    for (const StoredRun& c : children) j["children"].push_back(run_json(c, {}));
  }
  return j;
}

std::string format_run(const StoredRun& s, const std::vector<StoredRun>& children) {
  const RunRecord& r = s.run;
  std::string out = fmt::format("run {} ({}{})\n", s.id, r.kind, r.parent_id ? fmt::format(", part of run {}", *r.parent_id) : "");
  const auto line = [&out](const char* name, const std::string& value) {
    out += fmt::format("  {:<13} {}\n", name, value.empty() ? "-" : value);
  };
  line("command line", r.command_line);
  line("app", r.app);
  line("adapter", r.adapter);
  line("driver", r.driver);
  line("options", r.options);
  line("host", r.host);
  line("machine", r.machine);
  line("started", r.start_time);
  line("ended", r.end_time);
  line("recorded", s.recorded_at);
  line("status", r.status);
  line("directory", r.dir);
  if (!children.empty()) {
    out += "  runs inside:\n";
    for (const StoredRun& c : children)
      out += fmt::format("    {:>5} {:<7} {:<30} {:<7} {}\n", c.id, c.run.kind, c.run.app.substr(0, 30),
                         c.run.status.empty() ? "-" : c.run.status, c.run.dir);
  }
  out += fmt::format("  figures ({}):\n", r.metrics.size());
  for (const Metric& m : r.metrics)
    out += fmt::format("    {:<50} {}\n", m.name, m.value ? fmt::format("{}", *m.value) : std::string("unknown (null)"));
  return out;
}

std::string export_csv(const ResultsStore& store, const ListFilter& filter) {
  std::string out = "id,kind,parent_id,start_time,app,adapter,driver,host,status,dir,metric,value\n";
  std::map<std::int64_t, std::vector<Metric>> metrics;
  for (auto& [id, m] : store.metrics_of(filter)) metrics[id].push_back(std::move(m));
  for (const StoredRun& s : store.list(filter)) {
    const RunRecord& r = s.run;
    const std::string head = fmt::format("{},{},{},{},{},{},{},{},{},{}", s.id, csv_field(r.kind),
                                         r.parent_id ? std::to_string(*r.parent_id) : "", csv_field(r.start_time),
                                         csv_field(r.app), csv_field(r.adapter), csv_field(r.driver), csv_field(r.host),
                                         csv_field(r.status), csv_field(r.dir));
    const auto it = metrics.find(s.id);
    if (it == metrics.end()) {
      out += head + ",,\n";
      continue;
    }
    for (const Metric& m : it->second)
      out += fmt::format("{},{},{}\n", head, csv_field(m.name), m.value ? fmt::format("{}", *m.value) : std::string());
  }
  return out;
}

}  // namespace pictor::db
