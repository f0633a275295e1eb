// N sessions of one benchmark and the run's own files (see repeat_runner.h).
#include "suite/repeat_runner.h"

#include <ctime>
#include <filesystem>
#include <fmt/format.h>

#include "analysis/repeat_summary.h"
#include "analysis/session_data.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/out_dir.h"
#include "core/progress.h"
#include "core/time_text.h"
#include "report/html/report.h"
#include "runner/machine.h"
#include "runner/session_writes.h"

namespace pictor::suite {

namespace {

namespace fs = std::filesystem;

// Whole or absent (core/files.h).

std::string app_label(const runner::RunOptions& o) {
  if (!o.builtin.empty()) return "builtin:" + o.builtin;
  std::string s;
  for (const std::string& a : o.command) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::string figures_line(const nlohmann::json& summary) {
  std::string s;
  if (const auto& f = summary.is_object() ? summary.value("fps_avg", nlohmann::json()) : nlohmann::json(); f.is_number())
    s += fmt::format(", {:.1f} FPS", f.get<double>());
  if (summary.is_object() && summary.contains("rtt_ms") && summary["rtt_ms"].value("mean", nlohmann::json()).is_number())
    s += fmt::format(", RTT {:.1f} ms", summary["rtt_ms"]["mean"].get<double>());
  return s;
}

}  // namespace

std::string repeat_name(int k) { return fmt::format("repeat-{}", k); }

nlohmann::json write_repeat_files(const std::string& dir, nlohmann::json base, const std::vector<RepeatedSession>& sessions,
                                  int planned) {
  std::vector<nlohmann::json> summaries;
  std::vector<std::string> names;
  nlohmann::json list = nlohmann::json::array();
  int failed = 0;
  bool interrupted = false;
  for (const RepeatedSession& s : sessions) {
    summaries.push_back(s.result.summary);
    names.push_back(s.name);
    list.push_back({{"dir", s.name}, {"status", s.result.status}, {"exit_code", s.result.exit_code},
                    {"failure", s.result.failure.empty() ? nlohmann::json() : nlohmann::json(s.result.failure)}});
    failed += s.result.status == "failed" ? 1 : 0;
    interrupted = interrupted || s.result.status == "interrupted";
  }
  const nlohmann::json summary = analysis::repeat_summary(summaries, names);
  base["schema"] = 1;
  base["kind"] = "repeat";
  base["repeat"] = planned;
  base["sessions"] = list;
  base["status"] = interrupted ? "interrupted" : failed ? "failed" : "ok";
  base["end_time"] = iso_utc_now();
  write_json_file(fs::path(dir) / "run.json", base);
  write_json_file(fs::path(dir) / "summary.json", summary);
  // A page that cannot be drawn or written never fails the runs: it is run.json's write error.
  try {
    report::write_repeat_report(dir, base, summary);
  } catch (const std::exception& e) {
    runner::add_write_error(fs::path(dir) / "run.json", "report.html", e.what());
  }
  return summary;
}

RepeatResult run_repeated(const runner::RunOptions& options, int repeat) {
  if (repeat < 2 || repeat > kMaxRepeat) throw UsageError(fmt::format("--repeat must be 2..{} (got {})", kMaxRepeat, repeat));
  const std::string label = app_label(options);
  std::string clean;
  for (const char c : fs::path(options.builtin.empty() && !options.command.empty() ? options.command[0] : options.builtin)
                          .filename()
                          .string())
    clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  const fs::path dir = claim_out_dir(
      options.out_dir, fmt::format("pictor-out/{}-{}-x{}", local_stamp_now(), clean.substr(0, 40), repeat),
      options.force);
  nlohmann::json base{{"command_line", options.argv},
                      {"app", {{"label", label}}},
                      {"adapter", options.adapter},
                      {"driver", options.driver.empty() ? nlohmann::json() : nlohmann::json(options.driver)},
                      {"duration_requested_s", options.duration_s},
                      {"machine", runner::machine_info()},
                      {"start_time", iso_utc_now()}};
  Progress progress(options.quiet);
  std::vector<RepeatedSession> sessions;
  RepeatResult out;
  out.dir = dir.string();
  for (int k = 1; k <= repeat; ++k) {
    runner::RunOptions o = options;
    o.out_dir = (dir / repeat_name(k)).string();
    o.force = false;
    o.quiet = true;  // one line per run is the repeat's progress
    progress.note(fmt::format("pictor: [{}/{}] {} for {:g} s", k, repeat, label, o.duration_s));
    runner::RunResult r = runner::run_session(o);
    progress.note(fmt::format("pictor: [{}/{}] {}", k, repeat, r.exit_code == 0 ? "ok" + figures_line(r.summary) : r.status + ": " + r.failure));
    // The command line as the session recorded it (pictor's own argv).
    if (k == 1 && base["command_line"].empty()) {
      try {
        base["command_line"] = analysis::read_json_file((dir / repeat_name(1) / "run.json").string()).value("command_line", nlohmann::json());
      } catch (const std::exception&) {
      }
    }
    sessions.push_back({repeat_name(k), std::move(r)});
    if (sessions.back().result.status == "interrupted") break;
  }
  out.summary = write_repeat_files(out.dir, base, sessions, repeat);
  for (const RepeatedSession& s : sessions) {
    if (s.result.status == "interrupted") {
      out.exit_code = s.result.exit_code;
      out.failure = fmt::format("{} (run {} of {}); results so far are in {}", s.result.failure, sessions.size(), repeat, out.dir);
      return out;
    }
  }
  int failed = 0;
  for (const RepeatedSession& s : sessions) failed += s.result.exit_code != 0 ? 1 : 0;
  if (failed) {
    out.exit_code = 1;
    for (const RepeatedSession& s : sessions)
      if (s.result.exit_code != 0) {
        out.failure = fmt::format("{} of {} runs failed, first {}: {}", failed, repeat, s.name, s.result.failure);
        break;
      }
  }
  return out;
}

}  // namespace pictor::suite
