// Runs a suite: each benchmark as one `pictor run` session (runner::run_session) one after
// another with a progress line, then suite.json and a terminal table of the figures that matter.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner/session.h"
#include "suite/benchmark.h"
#include "suite/profile.h"

namespace pictor::suite {

struct SuiteOptions {
  bool quick = false;               // each benchmark's quick duration
  std::string out_dir;              // empty: pictor-out/suite-<time>-<name>, numbered if taken
  bool force = false;               // out_dir holds earlier results: delete them (core/out_dir.h)
  bool quiet = false;
  std::vector<std::string> argv;    // pictor's own command line, for suite.json
  // Each benchmark runs this many times, in interleaved rounds, into NN-name/repeat-K/; its row
  // then has the means over the runs and their interval across runs (suite/repeat_runner.h).
  int repeat = 1;
};

// The session for one benchmark. Profiles run through pictor-launch (next to pictor, or
// $PICTOR_LAUNCH_BIN); throws UsageError for a bad profile.
runner::RunOptions session_options(const Benchmark& benchmark, bool quick, const std::string& dir);
// The argv that runs a profile's game under pictor-launch, for `pictor run profile:NAME`.
std::vector<std::string> profile_command(const std::string& profile_path, Size size);
// For `pictor run profile:NAME` (NAME or a FILE.profile): sets o.command to run the profile's
// game through pictor-launch at o.size. Throws UsageError for an unknown or broken profile and
// when the game is not installed.
void apply_profile_target(const std::string& name_or_path, runner::RunOptions& o);
std::string find_launch_binary();

// Runs every benchmark (skipping profiles whose game is not installed), writes OUT/suite.json and
// OUT/report.html and returns suite.json's content. Throws UsageError before anything runs for bad input (unwritable --out).
nlohmann::json run_suite(const SuiteDefinition& suite, const SuiteOptions& options);

// The per-benchmark figures of suite.json from a session's summary.json: its frame figures (a
// profile session's describe play, see analysis/play_window.h), RTT where inputs were tracked.
nlohmann::json benchmark_figures(const nlohmann::json& summary);

// The same figures of a repeated benchmark from its repeat summary.json: the means over the
// runs, plus "ci_across_runs" (per figure) and "runs".
nlohmann::json repeat_figures(const nlohmann::json& repeat_summary);

// The terminal table of a suite.json.
std::string format_suite_table(const nlohmann::json& suite);

}  // namespace pictor::suite
