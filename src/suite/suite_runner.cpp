#include "suite/suite_runner.h"

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "core/progress.h"
#include "report/html/report.h"
#include "runner/session_writes.h"
#include "runner/install_paths.h"
#include "runner/machine.h"
#include "core/time_text.h"
#include "core/json_util.h"
#include "suite/repeat_runner.h"

namespace pictor::suite {

namespace fs = std::filesystem;

namespace {

const nlohmann::json& at_path(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  static const nlohmann::json null_value;
  const nlohmann::json* cur = &j;
  for (const char* k : keys) {
    if (!cur->is_object() || !cur->contains(k)) return null_value;
    cur = &(*cur)[k];
  }
  return *cur;
}

std::string safe_name(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

}  // namespace

std::string find_launch_binary() {
  if (const char* env = std::getenv("PICTOR_LAUNCH_BIN"); env && *env) {
    if (!fs::exists(env)) throw RunError(std::string("PICTOR_LAUNCH_BIN names '") + env + "', which does not exist");
    return env;
  }
  const fs::path self = runner::self_directory();
  for (const fs::path& c : {self / "pictor-launch", self / "../libexec/pictor/pictor-launch"})
    if (fs::exists(c)) return fs::weakly_canonical(c).string();
  throw RunError("pictor-launch not found next to pictor (in " + self.string() + "); set PICTOR_LAUNCH_BIN");
}

std::vector<std::string> profile_command(const std::string& profile_path, Size size) {
  return {find_launch_binary(), "--profile", fs::absolute(profile_path).string(), "--size",
          std::to_string(size.width) + "x" + std::to_string(size.height)};
}

void apply_profile_target(const std::string& name_or_path, runner::RunOptions& o) {
  const std::string path = find_profile(name_or_path);
  const Profile p = load_profile(path);
  if (!profile_installed(p))
    throw UsageError("'" + p.command[0] + "' is not installed (scripts/install-games.sh " + p.name + ")");
  o.builtin.clear();
  o.command = profile_command(path, o.size);
  o.window_timeout_s = p.startup_timeout_s;
}

runner::RunOptions session_options(const Benchmark& b, bool quick, const std::string& dir) {
  runner::RunOptions o;
  o.size = b.size;
  o.out_dir = dir;
  o.duration_s = quick ? b.quick_duration_s : b.duration_s;
  o.driver = b.driver;
  if (b.is_profile()) {
    const Profile p = load_profile(find_profile(b.target()));
    if (!b.driver_given) o.driver = p.driver;
    if (!b.duration_given && !quick) o.duration_s = p.duration_s;
    // The game loads first; play is measured after it (launch.json says when play started).
    o.duration_s += p.load_time_s;
    o.window_timeout_s = p.startup_timeout_s;
    o.command = profile_command(find_profile(b.target()), b.size);
  } else {
    o.builtin = b.target();
  }
  return o;
}

nlohmann::json benchmark_figures(const nlohmann::json& summary) {
  // The session's summary already describes play for a profile (analysis::summarize_session_frames,
  // the one place that cuts at launch.json's play_start_ns); the suite copies it.
  const nlohmann::json& frames = summary;
  std::vector<std::string> notes;
  const std::string from = summary.is_object() && summary.value("figures_from", "") == "play" ? "play" : "session";
  if (summary.is_object() && summary.contains("play_note") && summary["play_note"].is_string())
    notes.push_back(summary["play_note"].get<std::string>());
  nlohmann::json f{{"figures_from", from},
                   {"frames", number_or_null(at_path(frames, {"frames"}))},
                   {"fps", number_or_null(at_path(frames, {"fps_avg"}))},
                   {"frame_ms_p50", number_or_null(at_path(frames, {"frame_ms", "p50"}))},
                   {"frame_ms_p99", number_or_null(at_path(frames, {"frame_ms", "p99"}))},
                   {"low_1pct_fps_percentile", number_or_null(at_path(frames, {"low_1pct_fps_percentile"}))},
                   {"low_1pct_fps_average", number_or_null(at_path(frames, {"low_1pct_fps_average"}))},
                   {"low_0_1pct_fps_percentile", number_or_null(at_path(frames, {"low_0_1pct_fps_percentile"}))},
                   {"low_0_1pct_fps_average", number_or_null(at_path(frames, {"low_0_1pct_fps_average"}))},
                   {"gpu_ms_mean", number_or_null(at_path(frames, {"gpu_ms", "mean"}))},
                   {"rtt_ms_mean", number_or_null(at_path(summary, {"rtt_ms", "mean"}))},
                   {"rtt_ms_p99", number_or_null(at_path(summary, {"rtt_ms", "p99"}))},
                   {"rtt_inputs", number_or_null(at_path(summary, {"rtt_ms", "n"}))}};
  if (!summary.contains("rtt_ms")) notes.push_back("no inputs tracked: RTT unknown");
  if (!notes.empty()) f["notes"] = notes;
  return f;
}

nlohmann::json repeat_figures(const nlohmann::json& repeat) {
  // The means over the runs, laid out as a summary.json, so a repeated benchmark's row has the
  // same figures as a single session's; each with its interval across runs beside it.
  nlohmann::json mean = nlohmann::json::object(), ci = nlohmann::json::object();
  for (const auto& f : repeat.value("figures", nlohmann::json::array())) {
    const std::string key = f.value("summary_key", "");
    nlohmann::json::json_pointer ptr("/" + [&] {
      std::string p = key;
      for (char& c : p) c = c == '.' ? '/' : c;
      return p;
    }());
    mean[ptr] = f["mean"];
  }
  nlohmann::json out = benchmark_figures(mean);
  for (const auto& f : repeat.value("figures", nlohmann::json::array())) {
    static const std::map<std::string, std::string> names = {
        {"fps", "fps"}, {"frame_p50", "frame_ms_p50"}, {"frame_p99", "frame_ms_p99"},
        {"low1_pct", "low_1pct_fps_percentile"}, {"low1_avg", "low_1pct_fps_average"},
        {"rtt_mean", "rtt_ms_mean"}, {"rtt_p99", "rtt_ms_p99"}};
    if (const auto it = names.find(f.value("metric", "")); it != names.end()) ci[it->second] = f["ci_across_runs"];
  }
  out["ci_across_runs"] = ci;
  out["runs"] = repeat.value("runs", 0);
  return out;
}

nlohmann::json run_suite(const SuiteDefinition& suite, const SuiteOptions& options) {
  if (options.repeat < 1 || options.repeat > kMaxRepeat)
    throw UsageError(fmt::format("--repeat must be 1..{} (got {})", kMaxRepeat, options.repeat));
  // A fresh directory, never one holding an earlier suite or session (their files would mix).
  const fs::path out = claim_out_dir(
      options.out_dir, (fs::path("pictor-out") / ("suite-" + local_stamp_now() + "-" + safe_name(suite.name))).string(),
      options.force);

  nlohmann::json result{{"schema", 1},
                        {"suite", suite.name},
                        {"description", suite.description},
                        {"quick", options.quick},
                        {"command_line", options.argv},
                        {"machine", runner::machine_info()},
                        {"start_time", iso_utc_now()},
                        {"benchmarks", nlohmann::json::array()}};
  if (options.repeat > 1) result["repeat"] = options.repeat;
  Progress progress(options.quiet);
  const std::size_t n = suite.benchmarks.size();
  const int rounds = options.repeat;
  // One entry per benchmark, filled as its sessions finish; a repeated suite runs the benchmarks
  // in interleaved rounds (1, 2, 3, 1, 2, 3, …), so a drift of the machine spreads over all of them.
  std::vector<nlohmann::json> entries(n);
  std::vector<bool> settled(n, false);  // skipped, or broken before a session could run
  std::vector<std::vector<RepeatedSession>> repeats(n);
  bool interrupted = false;
  const auto tag = [&](std::size_t i, int round) {
    return rounds > 1 ? fmt::format("[{}/{} round {}/{}]", i + 1, n, round, rounds) : fmt::format("[{}/{}]", i + 1, n);
  };
  for (int round = 1; round <= rounds && !interrupted; ++round) {
    for (std::size_t i = 0; i < n && !interrupted; ++i) {
      if (settled[i]) continue;
      const Benchmark& b = suite.benchmarks[i];
      const std::string dir_name = fmt::format("{:02}-{}", i + 1, safe_name(b.name));
      nlohmann::json& entry = entries[i];
      if (round == 1)
        entry = {{"name", b.name}, {"benchmark", b.text}, {"app", b.app}, {"adapter", b.adapter}, {"session_dir", dir_name}, {"status", "ok"}};
      try {
        if (b.is_profile()) {
          const Profile p = load_profile(find_profile(b.target()));
          if (!profile_installed(p)) {
            entry["status"] = "skipped";
            entry["reason"] = "'" + p.command[0] + "' is not installed (scripts/install-games.sh " + p.name + ")";
            entry["session_dir"] = nullptr;
            progress.note(fmt::format("pictor: {} {}: skipped, {}", tag(i, round), b.name, entry["reason"].get<std::string>()));
            settled[i] = true;
            continue;
          }
        }
        const fs::path session_dir = rounds > 1 ? out / dir_name / repeat_name(round) : out / dir_name;
        runner::RunOptions o = session_options(b, options.quick, session_dir.string());
        o.quiet = true;  // one progress line per benchmark is the suite's
        o.argv = options.argv;
        entry["driver"] = o.driver.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.driver);
        entry["duration_s"] = o.duration_s;
        progress.note(fmt::format("pictor: {} {}: {}{} for {:g} s", tag(i, round), b.name, b.app,
                                  o.driver.empty() ? "" : " driven by " + o.driver, o.duration_s));
        const std::int64_t t0 = monotonic_ns();
        runner::RunResult r = runner::run_session(o);
        const double wall = static_cast<double>(monotonic_ns() - t0) * 1e-9;
        entry["wall_s"] = entry.value("wall_s", 0.0) + wall;
        if (rounds == 1) entry.update(benchmark_figures(r.summary));
        if (r.exit_code != 0 && entry["status"] == "ok") {
          entry["status"] = "failed";
          entry["reason"] = rounds > 1 ? repeat_name(round) + ": " + r.failure : r.failure;
        }
        const nlohmann::json figures = benchmark_figures(r.summary);
        std::string line;
        if (figures["fps"].is_number()) line += fmt::format(", {:.1f} FPS", figures["fps"].get<double>());
        if (figures["rtt_ms_mean"].is_number()) line += fmt::format(", RTT {:.1f} ms", figures["rtt_ms_mean"].get<double>());
        progress.note(fmt::format("pictor: {} {}: {}", tag(i, round), b.name, r.exit_code == 0 ? "ok" + line : "failed: " + r.failure));
        if (r.status == "interrupted") {
          // Ctrl-C ends the suite, not just this benchmark; what ran is kept.
          result["interrupted"] = true;
          result["interrupted_exit_code"] = r.exit_code;
          interrupted = true;
        }
        repeats[i].push_back({repeat_name(round), std::move(r)});
      } catch (const UsageError& e) {
        // A broken benchmark or profile: record it, run the others.
        entry["status"] = "failed";
        entry["reason"] = e.what();
        settled[i] = true;
        progress.note(fmt::format("pictor: {} {}: failed: {}", tag(i, round), b.name, e.what()));
      } catch (const RunError& e) {
        entry["status"] = "failed";
        entry["reason"] = e.what();
        settled[i] = true;
        progress.note(fmt::format("pictor: {} {}: failed: {}", tag(i, round), b.name, e.what()));
      }
      // After every benchmark: an interrupted suite keeps its results.
      result["benchmarks"] = nlohmann::json::array();
      for (std::size_t k = 0; k < n; ++k)
        if (!entries[k].is_null()) result["benchmarks"].push_back(entries[k]);
      write_json_file(out / "suite.json", result);
    }
  }
  // A repeated benchmark's own run.json, summary.json (figures across runs) and report.html.
  if (rounds > 1) {
    for (std::size_t i = 0; i < n; ++i) {
      if (repeats[i].empty()) continue;
      const Benchmark& b = suite.benchmarks[i];
      nlohmann::json base{{"command_line", options.argv}, {"app", {{"label", b.app}}}, {"benchmark", b.text},
                          {"adapter", b.adapter}, {"machine", result["machine"]}, {"start_time", result["start_time"]}};
      const std::string dir = (out / entries[i]["session_dir"].get<std::string>()).string();
      const nlohmann::json summary = write_repeat_files(dir, base, repeats[i], rounds);
      entries[i].update(repeat_figures(summary));
      entries[i]["repeat"] = rounds;
    }
  }
  result["benchmarks"] = nlohmann::json::array();
  for (const nlohmann::json& e : entries)
    if (!e.is_null()) result["benchmarks"].push_back(e);
  int ok = 0, failed = 0, skipped = 0;
  for (const auto& e : result["benchmarks"]) {
    const std::string s = e["status"];
    (s == "ok" ? ok : s == "failed" ? failed : skipped)++;
  }
  result["counts"] = {{"ok", ok}, {"failed", failed}, {"skipped", skipped},
                      {"not_run", n - result["benchmarks"].size()}};
  result["end_time"] = iso_utc_now();
  result["dir"] = out.string();
  write_json_file(out / "suite.json", result);
  // The suite's report.html: every benchmark with its figures and a link to its own report.
  try {
    report::write_suite_report(out.string(), result);
  } catch (const std::exception& e) {
    progress.note(std::string("pictor: note: report.html not written: ") + e.what());
    runner::add_write_error(out / "suite.json", "report.html", e.what());
  }
  return result;
}

}  // namespace pictor::suite
