#include "db/run_record.h"

#include <filesystem>
#include <fmt/format.h>

#include "core/files.h"

namespace pictor::db {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The longest array flattened by index: an interval, a load average.
constexpr std::size_t kMaxIndexedArray = 4;

void flatten(const json& j, const std::string& path, std::vector<Metric>& out) {
  if (out.size() >= kMaxMetrics) return;
  if (j.is_number()) {
    out.push_back({path, j.get<double>()});
  } else if (j.is_null()) {
    if (!path.empty()) out.push_back({path, std::nullopt});
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (path.empty() && it.key() == "schema") continue;  // the file's version, not a figure
      flatten(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
    }
  } else if (j.is_array() && j.size() <= kMaxIndexedArray) {
    bool numbers = true;
    for (const json& v : j) numbers = numbers && (v.is_number() || v.is_null());
    if (!numbers) return;
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], fmt::format("{}.{}", path, i), out);
  }
}

json read_json(const fs::path& path) {
  try {
    return json::parse(files::read_file(path));
  } catch (const json::exception& e) {
    throw StoreError(fmt::format("{}: not JSON ({})", path.string(), e.what()));
  } catch (const std::exception& e) {
    throw StoreError(e.what());
  }
}

std::optional<json> read_json_if_exists(const fs::path& path) {
  if (!fs::exists(path)) return std::nullopt;
  return read_json(path);
}

std::string str(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return {};
  const json& v = j[key];
  return v.is_string() ? v.get<std::string>() : v.is_null() ? std::string() : v.dump();
}

std::string host_of(const json& machine) { return str(machine, "hostname"); }

std::string absolute_dir(const fs::path& p) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).string() : a.string();
}

// A status file: its name and where it keeps what every record has.
struct StatusFile {
  const char* name;
  const char* start_key;  // "start_time"; mark.json: "started_at"
  bool has_command_line;  // mark.json records none: its record's stays empty
};
constexpr StatusFile kRunJson{"run.json", "start_time", true}, kSuiteJson{"suite.json", "start_time", true},
    kMarkJson{"mark.json", "started_at", false};

// A record with the fields every status file gives alike: when it started and ended, the command
// line, the machine and its host, and the directory.
RecordTree shared_fields(const StatusFile& file, const fs::path& dir, const json& status) {
  RecordTree t;
  t.status_file = file.name;
  RunRecord& r = t.run;
  r.start_time = str(status, file.start_key);
  r.end_time = str(status, "end_time");
  if (file.has_command_line) r.command_line = status.value("command_line", json::array()).dump();
  const json machine = status.value("machine", json::object());
  r.machine = machine.dump();
  r.host = host_of(machine);
  r.dir = absolute_dir(dir);
  return t;
}

// A session's or a repeat run's run.json; the figures from summary.json beside it.
RecordTree from_run_json(const fs::path& dir, const json& run) {
  RecordTree t = shared_fields(kRunJson, dir, run);
  RunRecord& r = t.run;
  // A group of stacks run together (`--instances`, colocate's together/pair-*) keeps its kind; its
  // members are its children, like a repeat run's sessions.
  const std::string kind = str(run, "kind");
  const bool group = run.contains("members") && run["members"].is_array() && !kind.empty() && kind != "repeat";
  r.kind = kind == "repeat" ? "repeat" : group ? kind : "session";
  r.app = run.contains("app") ? str(run["app"], "label") : std::string();
  r.adapter = str(run, "adapter");
  r.driver = str(run, "driver");
  json options = json::object();
  for (const char* key : {"size", "duration_requested_s", "net", "benchmark", "repeat", "interposer", "display"})
    if (run.contains(key)) options[key] = run[key];
  if (run.contains("proxy") && run["proxy"].is_object() && run["proxy"].contains("frame_rate_cap"))
    options["vnc_frame_rate_cap"] = run["proxy"]["frame_rate_cap"];
  r.options = options.dump();
  r.status = str(run, "status");
  if (const auto summary = read_json_if_exists(dir / "summary.json")) {
    if (r.kind == "repeat" && summary->contains("figures") && (*summary)["figures"].is_array()) {
      // A repeat run's figures are a list (analysis/repeat_summary.h): keyed here by the session
      // figure each summarises, "fps_avg.mean", "frame_ms.p99.ci_across_runs.0".
      json by_key = json::object();
      for (const json& f : (*summary)["figures"]) {
        const std::string key = str(f, "summary_key");
        if (key.empty()) continue;
        for (const char* field : {"n", "mean", "sd", "min", "max", "ci_across_runs"})
          if (f.contains(field)) by_key[key][field] = f[field];
      }
      r.metrics = flatten_figures(by_key);
    } else {
      r.metrics = flatten_figures(*summary);
    }
  }
  if (r.kind == "repeat" || group)
    for (const json& s : run.value(group ? "members" : "sessions", json::array())) {
      const fs::path sub = dir / str(s, "dir");
      if (!str(s, "dir").empty() && fs::exists(sub / "run.json")) t.children.push_back(from_run_json(sub, read_json(sub / "run.json")));
    }
  return t;
}

RecordTree from_suite_json(const fs::path& dir, const json& suite) {
  RecordTree t = shared_fields(kSuiteJson, dir, suite);
  RunRecord& r = t.run;
  r.kind = "suite";
  r.app = str(suite, "suite");
  json options = json::object();
  for (const char* key : {"quick", "repeat", "description"})
    if (suite.contains(key)) options[key] = suite[key];
  r.options = options.dump();
  const json counts = suite.value("counts", json::object());
  r.status = suite.value("interrupted", false) ? "interrupted" : counts.value("failed", 0) > 0 ? "failed" : "ok";
  r.metrics = flatten_figures(json{{"counts", counts}});
  for (const json& b : suite.value("benchmarks", json::array())) {
    const std::string sub = str(b, "session_dir");
    if (sub.empty() || !fs::exists(dir / sub / "run.json")) continue;
    RecordTree child = from_run_json(dir / sub, read_json(dir / sub / "run.json"));
    if (child.run.adapter.empty()) child.run.adapter = str(b, "adapter");
    t.children.push_back(std::move(child));
  }
  return t;
}

RecordTree from_mark_json(const fs::path& dir, const json& mark) {
  RecordTree t = shared_fields(kMarkJson, dir, mark);
  RunRecord& r = t.run;
  r.kind = "mark";
  r.app = "mark";
  json tests = json::array();
  json figures = json::object();
  figures["suite"] = mark.value("suite", json::object());
  for (const json& test : mark.value("tests", json::array())) {
    const std::string name = str(test, "name");
    tests.push_back(name);
    for (const char* key : {"score", "lower", "upper", "spread", "frames", "fps"})
      if (test.contains(key)) figures["tests"][name][key] = test[key];
  }
  json options = mark.value("options", json::object());
  options["tests"] = tests;
  r.options = options.dump();
  r.adapter = str(options, "display");
  r.status = "ok";
  r.metrics = flatten_figures(figures);
  return t;
}

}  // namespace

std::vector<Metric> flatten_figures(const json& figures) {
  std::vector<Metric> out;
  flatten(figures, "", out);
  return out;
}

RecordTree read_result_dir(const std::string& dir_text) {
  const fs::path dir(dir_text);
  if (fs::exists(dir / "suite.json")) return from_suite_json(dir, read_json(dir / "suite.json"));
  if (fs::exists(dir / "run.json")) return from_run_json(dir, read_json(dir / "run.json"));
  if (fs::exists(dir / "mark.json")) return from_mark_json(dir, read_json(dir / "mark.json"));
  throw StoreError(dir_text + ": no run.json, suite.json or mark.json: not a Pictor result directory");
}

}  // namespace pictor::db
