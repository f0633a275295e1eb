// Reading a finished session directory for reports and comparisons (see session_data.h).
#include "analysis/session_data.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/load.h"
#include "analysis/session_end.h"
#include "core/error.h"
#include "core/files.h"

namespace pictor::analysis {

namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) { return files::read_file(path); }

bool is_comment(const CsvRow& row) { return !row.fields.empty() && !row.fields[0].empty() && row.fields[0][0] == '#'; }

// The header row of a CSV whose older versions began with a "# pictor NAME schema N" line.
std::optional<CsvHeader> read_header(CsvReader& reader, CsvRow& row) {
  while (reader.next(row)) {
    if (is_comment(row)) continue;
    return CsvHeader(row, reader.path());
  }
  return std::nullopt;
}

double optional_number(const CsvRow& row, const CsvHeader& h, std::optional<std::size_t> c) {
  if (!c) return std::numeric_limits<double>::quiet_NaN();
  return field_optional_double(row, h, *c).value_or(std::numeric_limits<double>::quiet_NaN());
}

// Stage columns end in _ms; rtt_ms is the whole.
bool is_stage_column(const std::string& name) {
  return name.size() > 3 && name.ends_with("_ms") && name != "rtt_ms";
}

}  // namespace

const std::vector<double>* InputRows::column(std::string_view name) const {
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == name) return &values[c];
  return nullptr;
}

std::size_t InputRows::matched() const {
  std::size_t n = 0;
  for (const std::string& s : status) n += s == "matched" ? 1 : 0;
  return n;
}

InputRows read_inputs_csv(const std::string& path) {
  InputRows out;
  const std::string text = read_text(path);
  CsvReader reader(text, path);
  CsvRow row;
  const std::optional<CsvHeader> header = read_header(reader, row);
  if (!header) fail_at(path, 1, "no header row");
  const std::size_t sent = header->require("sent_ns");
  const std::size_t rtt = header->require("rtt_ms");
  const std::size_t status = header->require("status");
  std::vector<std::size_t> stage_at;
  for (std::size_t c = 0; c < header->size(); ++c) {
    if (!is_stage_column(header->name(c))) continue;
    out.columns.push_back(header->name(c));
    stage_at.push_back(c);
  }
  out.values.resize(out.columns.size());
  std::vector<std::string> notes;
  while (reader.next(row)) {
    if (is_comment(row) || !check_row_width(row, *header, notes)) continue;
    out.sent_ns.push_back(field_int64(row, *header, sent));
    out.status.push_back(row.fields[status]);
    out.rtt_ms.push_back(optional_number(row, *header, rtt));
    for (std::size_t k = 0; k < stage_at.size(); ++k) out.values[k].push_back(optional_number(row, *header, stage_at[k]));
  }
  out.present = true;
  return out;
}

ResourceSamples read_resources_csv(const std::string& path) {
  // resources.csv (docs/resources.md): one row per process per sample with its role and its
  // cumulative user_s/system_s; machine rows have no pid. Each role's CPU in % of one core at a
  // sample is the sum over its processes of the CPU time since their previous sample over the
  // time between them; a process's first sample has no previous one, so it adds nothing known.
  ResourceSamples out;
  out.present = true;
  try {
    const std::string text = read_text(path);
    CsvReader reader(text, path);
    CsvRow row;
    const std::optional<CsvHeader> header = read_header(reader, row);
    if (!header) {
      out.problem = path + ": no header row";
      return out;
    }
    const auto t = header->find("t_ns"), role = header->find("role"), pid = header->find("pid");
    const auto user = header->find("user_s"), sys = header->find("system_s"), rss = header->find("rss_kb");
    if (!t || !role || !pid || !user || !sys) {
      out.problem = path + ": no t_ns, role, pid, user_s or system_s column";
      return out;
    }
    struct Last {
      std::int64_t t_ns;
      double cpu_s;
    };
    std::map<std::string, Last> last;  // by pid
    struct Sum {
      double cpu_pct = 0, rss_kib = 0;
      bool cpu_known = false, rss_known = false;
    };
    std::map<std::pair<std::int64_t, std::string>, Sum> sums;  // (t, role)
    std::vector<std::string> notes;
    while (reader.next(row)) {
      if (is_comment(row) || !check_row_width(row, *header, notes) || row.fields[*pid].empty()) continue;
      const std::int64_t at = field_int64(row, *header, *t);
      Sum& sum = sums[{at, row.fields[*role]}];
      const double u = optional_number(row, *header, user), k = optional_number(row, *header, sys);
      if (std::isfinite(u) && std::isfinite(k)) {
        const auto it = last.find(row.fields[*pid]);
        if (it != last.end() && at > it->second.t_ns) {
          sum.cpu_pct += 100.0 * (u + k - it->second.cpu_s) / (static_cast<double>(at - it->second.t_ns) * 1e-9);
          sum.cpu_known = true;
        }
        last[row.fields[*pid]] = {at, u + k};
      }
      if (const double r = optional_number(row, *header, rss); std::isfinite(r)) {
        sum.rss_kib += r;
        sum.rss_known = true;
      }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& [key, sum] : sums) {
      out.t_ns.push_back(key.first);
      out.component.push_back(key.second);
      out.cpu_pct.push_back(sum.cpu_known ? sum.cpu_pct : nan);
      out.rss_kib.push_back(sum.rss_known ? sum.rss_kib : nan);
    }
  } catch (const UsageError& e) {
    out.problem = e.what();
  }
  return out;
}

nlohmann::json read_json_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return nullptr;
  try {
    return nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("{}: not JSON: {}", path, e.what()));
  }
}

const nlohmann::json& json_at(const nlohmann::json& j, std::initializer_list<std::string_view> keys) {
  static const nlohmann::json null_value;
  const nlohmann::json* cur = &j;
  for (std::string_view k : keys) {
    if (!cur->is_object()) return null_value;
    const auto it = cur->find(k);
    if (it == cur->end()) return null_value;
    cur = &*it;
  }
  return *cur;
}

double json_number(const nlohmann::json& j, std::initializer_list<std::string_view> keys) {
  const nlohmann::json& v = json_at(j, keys);
  return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

SessionData load_session_data(const std::string& dir) {
  SessionData d;
  d.dir = dir;
  const fs::path p(dir);
  std::error_code ec;
  if (!fs::is_directory(p, ec)) throw UsageError(dir + ": not a directory");
  if (!fs::exists(p / "run.json") && !fs::exists(p / "summary.json") && !fs::exists(p / "frames.csv"))
    throw UsageError(dir + ": not a session directory (no run.json, summary.json or frames.csv)");
  d.run = read_json_file((p / "run.json").string());
  d.summary = read_json_file((p / "summary.json").string());
  d.launch = read_launch_record(dir);
  if (fs::exists(p / "frames.csv")) {
    try {
      d.frames = load_frames(dir);
      attach_session_end(d.frames, dir);
      d.figure = figure_frames(d.frames, d.launch);
      d.have_frames = true;
    } catch (const UsageError& e) {
      d.notes.push_back(std::string("frames not read: ") + e.what());
    }
  } else {
    d.notes.push_back("no frames.csv: the app presented no frame, or ran without the interposer");
  }
  if (fs::exists(p / "inputs.csv")) {
    try {
      d.inputs = read_inputs_csv((p / "inputs.csv").string());
    } catch (const UsageError& e) {
      d.notes.push_back(std::string("inputs not read: ") + e.what());
    }
  }
  if (fs::exists(p / "resources.csv")) d.resources = read_resources_csv((p / "resources.csv").string());
  return d;
}

}  // namespace pictor::analysis
