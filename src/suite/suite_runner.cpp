#include "suite/suite_runner.h"

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fmt/format.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "core/progress.h"
#include "runner/install_paths.h"
#include "runner/machine.h"
#include "core/time_text.h"
#include "core/json_util.h"

namespace pictor::suite {

namespace fs = std::filesystem;

namespace {

void write_json(const fs::path& path, const nlohmann::json& j) { files::write_file(path, j.dump(2) + "\n"); }

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

nlohmann::json run_suite(const SuiteDefinition& suite, const SuiteOptions& options) {
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
  Progress progress(options.quiet);
  const std::size_t n = suite.benchmarks.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Benchmark& b = suite.benchmarks[i];
    const std::string dir_name = fmt::format("{:02}-{}", i + 1, safe_name(b.name));
    nlohmann::json entry{{"name", b.name},
                         {"benchmark", b.text},
                         {"app", b.app},
                         {"adapter", b.adapter},
                         {"session_dir", dir_name},
                         {"status", "ok"}};
    try {
      if (b.is_profile()) {
        const Profile p = load_profile(find_profile(b.target()));
        if (!profile_installed(p)) {
          entry["status"] = "skipped";
          entry["reason"] = "'" + p.command[0] + "' is not installed (scripts/install-games.sh " + p.name + ")";
          entry["session_dir"] = nullptr;
          progress.note(fmt::format("pictor: [{}/{}] {}: skipped, {}", i + 1, n, b.name, entry["reason"].get<std::string>()));
          result["benchmarks"].push_back(entry);
          continue;
        }
      }
      runner::RunOptions o = session_options(b, options.quick, (out / dir_name).string());
      o.quiet = true;  // one progress line per benchmark is the suite's
      o.argv = options.argv;
      entry["driver"] = o.driver.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.driver);
      entry["duration_s"] = o.duration_s;
      progress.note(fmt::format("pictor: [{}/{}] {}: {}{} for {:g} s", i + 1, n, b.name, b.app,
                                o.driver.empty() ? "" : " driven by " + o.driver, o.duration_s));
      const std::int64_t t0 = monotonic_ns();
      const runner::RunResult r = runner::run_session(o);
      entry["wall_s"] = static_cast<double>(monotonic_ns() - t0) * 1e-9;
      entry.update(benchmark_figures(r.summary));
      if (r.exit_code != 0) {
        entry["status"] = "failed";
        entry["reason"] = r.failure;
      }
      std::string figures;
      if (entry["fps"].is_number()) figures += fmt::format(", {:.1f} FPS", entry["fps"].get<double>());
      if (entry["rtt_ms_mean"].is_number()) figures += fmt::format(", RTT {:.1f} ms", entry["rtt_ms_mean"].get<double>());
      progress.note(fmt::format("pictor: [{}/{}] {}: {}", i + 1, n, b.name,
                                r.exit_code == 0 ? "ok" + figures : "failed: " + r.failure));
      if (r.status == "interrupted") {
        // Ctrl-C ends the suite, not just this benchmark; what ran is kept.
        result["benchmarks"].push_back(entry);
        result["interrupted"] = true;
        result["interrupted_exit_code"] = r.exit_code;
        break;
      }
    } catch (const UsageError& e) {
      // A broken benchmark or profile: record it, run the others.
      entry["status"] = "failed";
      entry["reason"] = e.what();
      progress.note(fmt::format("pictor: [{}/{}] {}: failed: {}", i + 1, n, b.name, e.what()));
    } catch (const RunError& e) {
      entry["status"] = "failed";
      entry["reason"] = e.what();
      progress.note(fmt::format("pictor: [{}/{}] {}: failed: {}", i + 1, n, b.name, e.what()));
    }
    result["benchmarks"].push_back(entry);
    write_json(out / "suite.json", result);  // after every benchmark: an interrupted suite keeps its results
  }
  int ok = 0, failed = 0, skipped = 0;
  for (const auto& e : result["benchmarks"]) {
    const std::string s = e["status"];
    (s == "ok" ? ok : s == "failed" ? failed : skipped)++;
  }
  result["counts"] = {{"ok", ok}, {"failed", failed}, {"skipped", skipped},
                      {"not_run", n - result["benchmarks"].size()}};
  result["end_time"] = iso_utc_now();
  result["dir"] = out.string();
  write_json(out / "suite.json", result);
  return result;
}

}  // namespace pictor::suite
