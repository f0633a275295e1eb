#include "suite/colocate.h"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/out_dir.h"
#include "core/progress.h"
#include "core/time_text.h"
#include "runner/group_summary.h"
#include "runner/machine.h"
#include "runner/session_group.h"
#include "runner/session_plan.h"

namespace pictor::suite {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double num(const json& j, const char* key) { return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : kNaN; }

// The app's instructions per second of measured time, from counters.csv's last reading.
double instructions_per_s(const json& summary) {
  if (!summary.is_object() || !summary.contains("resources")) return kNaN;
  const json& c = summary["resources"].value("counters", json::object());
  if (!c.contains("app")) return kNaN;
  const json& ev = c["app"].value("events", json::object());
  const double v = ev.contains("instructions") ? num(ev["instructions"], "value") : kNaN;
  const double d = num(summary, "duration_s");
  return d > 0 ? v / d : kNaN;
}

std::string counter_reason(const json& summary) {
  if (!summary.is_object() || !summary.contains("resources")) return "no resources block (--no-resources)";
  const json& c = summary["resources"].value("counters", json::object());
  if (c.contains("app") && c["app"].contains("events") && c["app"]["events"].contains("instructions"))
    return c["app"]["events"]["instructions"].value("unavailable", std::string("no instructions reading"));
  return "no app counters";
}

json loss_pct(double solo, double together) {
  return number_or_null(solo > 0 && std::isfinite(together) ? 100.0 * (solo - together) / solo : kNaN);
}

std::string cell(const json& v, const char* spec) {
  return v.is_number() ? fmt::format(fmt::runtime(spec), v.get<double>()) : std::string("-");
}

}  // namespace

json colocate_loss(const json& solo, const json& together, const json& solo_summary, const json& together_summary) {
  const double rtt_s = num(solo, "rtt_ms_mean"), rtt_t = num(together, "rtt_ms_mean");
  const double cpu_s = num(solo, "cpu_pct"), cpu_t = num(together, "cpu_pct");
  json out{{"fps_server_loss_pct", loss_pct(num(solo, "fps_server"), num(together, "fps_server"))},
           {"fps_client_loss_pct", loss_pct(num(solo, "fps_client"), num(together, "fps_client"))},
           {"rtt_ms_increase", number_or_null(rtt_t - rtt_s)},
           {"rtt_increase_pct", number_or_null(rtt_s > 0 ? 100.0 * (rtt_t - rtt_s) / rtt_s : kNaN)},
           {"cpu_pct_change", number_or_null(cpu_t - cpu_s)}};
  const double ins_s = instructions_per_s(solo_summary), ins_t = instructions_per_s(together_summary);
  out["instructions_per_s_loss_pct"] = loss_pct(ins_s, ins_t);
  if (!out["instructions_per_s_loss_pct"].is_number())
    out["instructions_note"] = counter_reason(std::isfinite(ins_s) ? together_summary : solo_summary);
  return out;
}

std::vector<std::string> member_names(const std::vector<std::string>& targets) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (const std::string& t : targets) {
    std::string base = t;
    for (const char* prefix : {"builtin:", "profile:"})
      if (base.rfind(prefix, 0) == 0) base = base.substr(std::string(prefix).size());
    base = base.substr(0, base.find(':'));
    base = fs::path(base).stem().string();
    std::string clean;
    for (const char c : base) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
    std::string name = clean.empty() ? "app" : clean;
    for (int k = 2; used.count(name); ++k) name = fmt::format("{}-{}", clean, k);
    used.insert(name);
    out.push_back(name);
  }
  return out;
}

ColocateResult run_colocate(const std::vector<ColocateMember>& members, const ColocateOptions& options) {
  if (members.size() < 2) throw UsageError("colocate needs at least two benchmarks");
  std::set<std::string> names;
  for (const ColocateMember& m : members) {
    if (!names.insert(m.name).second) throw UsageError("two benchmarks are named '" + m.name + "'");
    runner::plan_session(m.options);  // every member checked before anything runs
  }
  const fs::path dir = claim_out_dir(options.out_dir, runner::default_session_dir(options.pairs ? "colocate-pairs" : "colocate"),
                                     options.force);
  Progress progress(options.quiet);
  ColocateResult out;
  out.dir = dir.string();
  json report{{"schema", 1},
              {"kind", "colocate"},
              {"mode", options.pairs ? "pairs" : "together"},
              {"command_line", options.argv.empty() ? runner::own_command_line() : options.argv},
              {"machine", runner::machine_info()},
              {"start_time", iso_utc_now()}};
  std::map<std::string, json> solo_rows, solo_summaries;
  auto note_failure = [&out](int code, const std::string& what) {
    if (code > out.exit_code || (code != 0 && out.exit_code == 0)) out.exit_code = code;
    if (out.failure.empty() && code != 0) out.failure = what;
  };
  bool interrupted = false;
  // Alone first: each member's own figures on this machine.
  for (const ColocateMember& m : members) {
    runner::RunOptions o = m.options;
    o.out_dir = (dir / ("solo-" + m.name)).string();
    o.force = false;
    o.quiet = true;
    progress.note(fmt::format("pictor: colocate: {} alone for {:g} s", m.name, o.duration_s));
    const runner::RunResult r = runner::run_session(o);
    json run;
    try {
      run = json::parse(files::read_file(fs::path(o.out_dir) / "run.json"));
    } catch (const std::exception&) {
    }
    solo_rows[m.name] = runner::member_figures({m.name, r.status, r.summary, run});
    solo_summaries[m.name] = r.summary;
    note_failure(r.exit_code, "solo-" + m.name + ": " + r.failure);
    if (r.status == "interrupted") {
      interrupted = true;
      break;
    }
  }
  report["solo"] = solo_rows;
  // Then together: all at once, or every pair.
  std::vector<std::vector<std::size_t>> groups;
  if (options.pairs) {
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j) groups.push_back({i, j});
  } else {
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < members.size(); ++i) all.push_back(i);
    groups.push_back(all);
  }
  json group_list = json::array();
  json matrix = json::object();
  for (const auto& g : groups) {
    if (interrupted) break;
    std::vector<runner::GroupMember> gm;
    std::string gname = options.pairs ? "pair-" : "together";
    for (std::size_t k = 0; k < g.size(); ++k) {
      gm.push_back({members[g[k]].name, members[g[k]].options});
      if (options.pairs) gname += (k ? "+" : "") + members[g[k]].name;
    }
    runner::GroupOptions go;
    go.kind = "colocate";
    go.out_dir = (dir / gname).string();
    go.quiet = true;
    go.argv = report["command_line"].get<std::vector<std::string>>();
    progress.note(fmt::format("pictor: colocate: {} together for {:g} s", gname, gm.front().options.duration_s));
    const runner::GroupResult r = runner::run_group(gm, go);
    note_failure(r.exit_code, gname + ": " + r.failure);
    json entry{{"dir", gname}, {"status", r.status}, {"members", json::array()}};
    for (std::size_t k = 0; k < g.size(); ++k) {
      const std::string& name = members[g[k]].name;
      const json& together = r.summary["members"][k];
      const json loss = colocate_loss(solo_rows[name], together, solo_summaries[name], r.members[k].summary);
      entry["members"].push_back({{"name", name}, {"solo", solo_rows[name]}, {"together", together}, {"loss", loss}});
      if (options.pairs) matrix[name][members[g[1 - k]].name] = loss;
    }
    group_list.push_back(entry);
    if (r.status == "interrupted") interrupted = true;
  }
  report["groups"] = group_list;
  if (options.pairs) report["matrix"] = matrix;
  report["status"] = interrupted ? "interrupted" : out.exit_code ? "failed" : "ok";
  report["end_time"] = iso_utc_now();
  out.report = report;
  write_json_file(dir / "colocate.json", report);
  return out;
}

std::string format_colocate(const json& report) {
  std::string out = fmt::format("{:<14} {:<22} {:>9} {:>9} {:>10} {:>10} {:>9} {:>9} {:>9}\n", "benchmark", "with",
                                "FPS alone", "FPS with", "FPS loss", "cli loss", "RTT alone", "RTT with", "CPU +%");
  for (const json& g : report.value("groups", json::array()))
    for (const json& m : g["members"]) {
      std::string with;
      for (const json& o : g["members"])
        if (o["name"] != m["name"]) with += (with.empty() ? "" : "+") + o["name"].get<std::string>();
      const json& l = m["loss"];
      out += fmt::format("{:<14} {:<22} {:>9} {:>9} {:>10} {:>10} {:>9} {:>9} {:>9}\n", m["name"].get<std::string>(),
                         with.substr(0, 22), cell(m["solo"]["fps_server"], "{:.1f}"), cell(m["together"]["fps_server"], "{:.1f}"),
                         l["fps_server_loss_pct"].is_number() ? cell(l["fps_server_loss_pct"], "{:.1f}") + "%" : "-",
                         l["fps_client_loss_pct"].is_number() ? cell(l["fps_client_loss_pct"], "{:.1f}") + "%" : "-",
                         cell(m["solo"]["rtt_ms_mean"], "{:.1f}"), cell(m["together"]["rtt_ms_mean"], "{:.1f}"),
                         cell(l["cpu_pct_change"], "{:+.0f}"));
    }
  if (report.contains("matrix") && report["matrix"].is_object() && !report["matrix"].empty()) {
    std::vector<std::string> names;
    for (const auto& [name, row] : report["solo"].items()) names.push_back(name);
    out += "\nFPS loss beside each partner (client FPS, else server FPS; row: the benchmark measured)\n";
    out += fmt::format("{:<14}", "");
    for (const std::string& n : names) out += fmt::format(" {:>12}", n.substr(0, 12));
    out += "\n";
    for (const std::string& row : names) {
      out += fmt::format("{:<14}", row.substr(0, 14));
      for (const std::string& col : names) {
        const json& m = report["matrix"];
        if (row == col || !m.contains(row) || !m[row].contains(col)) {
          out += fmt::format(" {:>12}", "");
          continue;
        }
        const json& l = m[row][col];
        const json v = l["fps_client_loss_pct"].is_number() ? l["fps_client_loss_pct"] : l["fps_server_loss_pct"];
        out += fmt::format(" {:>12}", v.is_number() ? cell(v, "{:.1f}") + "%" : "-");
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace pictor::suite
