// Repeated runs (`pictor run --repeat N`, `pictor suite --repeat N`): N sessions of one benchmark
// in DIR/repeat-1 … repeat-N, and the run's own run.json, summary.json (each figure with its
// interval across runs, analysis/repeat_summary.h) and report.html.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "runner/session.h"

namespace pictor::suite {

inline constexpr int kMaxRepeat = 1000;

// The sessions of one repeated benchmark as they finished.
struct RepeatedSession {
  std::string name;  // "repeat-3"
  runner::RunResult result;
};

// "repeat-K".
std::string repeat_name(int k);

// Writes DIR/run.json (`base` plus kind, repeat, sessions, status, end_time), DIR/summary.json
// and DIR/report.html; returns the summary. `planned` is N, which may exceed sessions.size()
// after an interruption.
nlohmann::json write_repeat_files(const std::string& dir, nlohmann::json base, const std::vector<RepeatedSession>& sessions,
                                  int planned);

struct RepeatResult {
  std::string dir;
  nlohmann::json summary;
  int exit_code = 0;    // 0; 1 when a run failed; 128 + N when interrupted by signal N
  std::string failure;  // one line when exit_code != 0
};

// Runs `options` `repeat` times (2..kMaxRepeat) into options.out_dir (claimed as a session
// directory would be; default pictor-out/<time>-<app>-xN), one progress line per run. Throws
// UsageError for bad options before anything runs.
RepeatResult run_repeated(const runner::RunOptions& options, int repeat);

}  // namespace pictor::suite
