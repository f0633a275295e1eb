// Reading resources.csv and counters.csv back into series (the one reader of both).
#include <algorithm>
#include <filesystem>

#include "analysis/csv.h"
#include "core/files.h"
#include "resources/resource_summary.h"

namespace pictor::resources {

namespace {

using analysis::CsvHeader;
using analysis::CsvReader;
using analysis::CsvRow;

std::string key_of(const std::string& stack, const std::string& role) { return stack.empty() ? role : stack + "/" + role; }

const std::string& field(const CsvRow& row, std::size_t column) { return row.fields[column]; }

}  // namespace

ResourceSeries parse_resources(const std::string& text, const std::string& path, const std::string& counters_text,
                               const std::string& counters_path) {
  ResourceSeries out;
  CsvReader reader(text, path);
  CsvRow row;
  if (!reader.next(row)) return out;
  const CsvHeader h(row, path);
  const std::size_t c_t = h.require("t_ns"), c_stack = h.require("stack"), c_role = h.require("role"),
                    c_pid = h.require("pid"), c_name = h.require("name"), c_user = h.require("user_s"),
                    c_sys = h.require("system_s"), c_rss = h.require("rss_kb"),
                    c_vol = h.require("voluntary_switches"), c_invol = h.require("involuntary_switches"),
                    c_value = h.require("value"), c_unit = h.require("unit"), c_note = h.require("note");
  std::map<std::pair<std::string, int>, std::size_t> process_index;
  std::map<std::pair<std::string, std::string>, std::size_t> metric_index;
  while (reader.next(row)) {
    if (!analysis::check_row_width(row, h, out.read_notes)) continue;
    const std::int64_t t = analysis::field_int64(row, h, c_t);
    if (out.samples.empty() || out.samples.back() != t) {
      if (!out.samples.empty() && t < out.samples.back()) analysis::fail_at(path, row.line, "t_ns goes backwards");
      out.samples.push_back(t);
    }
    const std::string& role = field(row, c_role);
    const std::string key = key_of(field(row, c_stack), role);
    const std::string& note = field(row, c_note);
    if (!field(row, c_pid).empty()) {
      const int pid = static_cast<int>(analysis::field_int64(row, h, c_pid));
      auto [it, fresh] = process_index.try_emplace({key, pid}, out.processes.size());
      if (fresh) out.processes.push_back({key, role, pid, field(row, c_name), {}});
      ProcessPoint p;
      p.t_ns = t;
      p.cpu_s = analysis::field_double(row, h, c_user) + analysis::field_double(row, h, c_sys);
      p.rss_kb = analysis::field_optional_double(row, h, c_rss);
      const auto vol = analysis::field_optional_double(row, h, c_vol);
      const auto invol = analysis::field_optional_double(row, h, c_invol);
      if (vol && invol) p.switches = *vol + *invol;
      out.processes[it->second].points.push_back(p);
      continue;
    }
    if (!note.empty()) {
      out.notes[key] = note;  // the source of the role's rows, or why there are none
      continue;
    }
    const auto value = analysis::field_optional_double(row, h, c_value);
    if (!value) continue;
    auto [it, fresh] = metric_index.try_emplace({key, field(row, c_name)}, out.metrics.size());
    if (fresh) out.metrics.push_back({key, field(row, c_name), field(row, c_unit), {}});
    MetricPoint m;
    m.t_ns = t;
    m.value = *value;
    if (role == "cpu")
      m.busy_s = analysis::field_double(row, h, c_user) + analysis::field_double(row, h, c_sys);
    out.metrics[it->second].points.push_back(m);
  }
  if (counters_text.empty()) return out;
  CsvReader creader(counters_text, counters_path);
  if (!creader.next(row)) return out;
  const CsvHeader ch(row, counters_path);
  const std::size_t k_stack = ch.require("stack"), k_role = ch.require("role"), k_pid = ch.require("pid"),
                    k_name = ch.require("name"), k_event = ch.require("event"), k_value = ch.require("value"),
                    k_note = ch.require("note");
  std::map<std::tuple<std::string, int, std::string>, std::size_t> counter_index;
  while (creader.next(row)) {
    if (!analysis::check_row_width(row, ch, out.read_notes)) continue;
    const std::string key = key_of(field(row, k_stack), field(row, k_role));
    const int pid = static_cast<int>(analysis::field_int64(row, ch, k_pid));
    auto [it, fresh] = counter_index.try_emplace({key, pid, field(row, k_event)}, out.counters.size());
    if (fresh) out.counters.push_back({key, field(row, k_role), field(row, k_event), pid, field(row, k_name), {}, {}, {}});
    CounterValue& c = out.counters[it->second];
    if (const auto v = analysis::field_optional_double(row, ch, k_value)) {
      c.value = *v;  // cumulative: the last counts
      c.note = field(row, k_note);
    } else if (!field(row, k_note).empty()) {
      c.unavailable = field(row, k_note);
    }
  }
  return out;
}

std::optional<ResourceSeries> load_resources(const std::string& session_dir) {
  namespace fs = std::filesystem;
  const fs::path dir(session_dir);
  const auto text = files::read_file_if_exists(dir / "resources.csv");
  if (!text) return std::nullopt;
  const auto counters = files::read_file_if_exists(dir / "counters.csv");
  return parse_resources(*text, (dir / "resources.csv").string(), counters.value_or(""),
                         (dir / "counters.csv").string());
}

}  // namespace pictor::resources
