// `pictor ic eval`: runs several input drivers on the same benchmark and compares each one's RTT
// distribution and game outcome with a reference's (paper table 3). Writes ic_eval.json.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "runner/session.h"

namespace pictor::ic {

// What one session gives the comparison; read from a session directory.
struct SessionOutcome {
  std::vector<double> rtt_ms;       // inputs.csv, matched inputs only
  std::size_t inputs_sent = 0;      // tracked inputs (client_inputs.csv rows)
  std::size_t presses = 0;          // key and button presses among them
  std::size_t motions = 0;          // pointer motions (run.json client.motions_sent)
  double duration_s = NAN;          // run.json duration_measured_s
  nlohmann::json state = nullptr;   // the state log's last row, columns by name; null: no log
  std::string driver;               // run.json driver
};
// Throws UsageError naming the file when inputs.csv is missing or malformed.
SessionOutcome read_session_outcome(const std::string& session_dir);
// The last row of a game state log (docs/games.md) as {column: number or text}; null when the
// file does not exist. Throws UsageError "<path>:<line>: ..." for a malformed log.
nlohmann::json read_final_state(const std::string& state_csv);

// Actions per minute: key/button presses plus pointer motions sent, per minute of the session.
double actions_per_minute(const SessionOutcome& o);

// One row of the comparison against `reference`: n, mean, mean_error_pct (signed, % of the
// reference mean), p1/p25/p50/p75/p99, ks, wasserstein_ms, apm, state.
nlohmann::json compare_row(const std::string& label, const SessionOutcome& o, const SessionOutcome& reference);

struct EvalOptions {
  runner::RunOptions run;             // builtin or command, duration, size, adapter, net, quiet
  std::string target_label;           // "builtin:racing:seed=3"
  std::string reference;              // REC directory, or a driver spec to run first
  std::vector<std::string> drivers;   // specs; "reference" means the seeded reference player
  std::uint64_t seed = 1;             // the reference player's seed when run as a driver
  std::string out;                    // directory for the sessions and ic_eval.json (default pictor-out/ic-eval, numbered)
  bool force = false;                 // out holds earlier results: delete them (core/out_dir.h)
  int rounds = 1;                     // the whole set of sessions, this many times in turn
};

// Rows of several rounds (each an array of compare_row results, reference first) as one row per
// driver: every number is the nearest-rank median over the rounds that have it (null when none),
// `n` the matched inputs of all rounds together, `state` the median of each numeric state column
// (text columns from the last round), and `per_round` the mean, the error and the state of each
// round. `round_error` (not on the reference's row) is the mean of the per-round errors with its
// 95 % interval, mean ± t(0.975, k−1)·sd/√k over the k ≥ 2 rounds that matched inputs (null
// otherwise). Drivers keep the first round's order. Throws UsageError when rounds list other drivers.
nlohmann::json median_rows(const std::vector<nlohmann::json>& round_rows);

// A --drivers list as specs. Driver specs use ',' for their own options, so the list is split
// only at a comma followed by one of `names` (the registered drivers) and ':' or the end:
// "ic:M,act=held,replay:R" is ["ic:M,act=held", "replay:R"]. Pure.
std::vector<std::string> split_driver_specs(const std::string& list, const std::vector<std::string>& names);

// One row's session: its label in the table, its driver spec, and whether it is the reference.
struct EvalRun {
  std::string label, spec;
  bool reference = false;
};
// The rows in session order: the reference first when it is a driver (not a recording), then each
// driver labelled by its name (an ic driver with its options: "ic,act=held"); a repeated label,
// and the reference player run as a driver (the control row), are numbered "#2", "#3", ... Pure.
std::vector<EvalRun> eval_runs(const std::string& reference, const std::vector<std::string>& drivers,
                               bool reference_is_recording);

// Runs the phases: plan (options checked, OUT made, the rows, every spec made once, a recorded
// reference read) → per round, per row, one session in OUT[/rN]/NN-NAME, compared with that
// round's reference → OUT/ic_eval.json written and returned. Throws UsageError for bad options;
// a failed session stays in the table with its failure.
nlohmann::json run_ic_eval(const EvalOptions& options);

// Table 3 as text: one line per driver.
std::string format_ic_eval(const nlohmann::json& eval);

}  // namespace pictor::ic
