// A campaign's cells: the plan expanded into one `pictor run` session each (benchmark × adapter ×
// net × instances × repeat, repeats in interleaved rounds), their state as the executor follows
// them, and the two tables of the campaign directory, cells.csv and attempts.csv.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "campaign/plan.h"

namespace pictor::campaign {

// A cell's life: pending → running → ok, or → failed (after its last attempt; a retried attempt
// goes back to pending), or interrupted (the campaign was stopped while it ran).
struct Cell {
  int id = 0;                          // 1, 2, … in run order
  std::size_t benchmark = 0;           // index into Plan::benchmarks
  std::string benchmark_name;
  std::string adapter;
  std::string net;                     // canonical --net text, "none"
  int instances = 1;
  int repeat = 1;
  std::string state = "pending";
  int attempts = 0;                    // attempts started
  std::string session_dir;             // the last attempt's session directory (absolute)
  std::string job_id;                  // the last attempt's Slurm job id; empty with the local executor
  std::optional<int> exit_status;      // the last attempt's pictor run exit status, when known
  std::optional<double> wall_s;        // the last attempt's wall time, when known
  std::optional<std::int64_t> run_id;  // the results database's id of the last attempt's session
  std::string note;                    // why the last attempt failed ("CANCELLED", "exit 1: …")

  // "001-racing-xvnc-delay20ms-n1-r2": the cell's folder under cells/.
  std::string folder() const;
};

// One attempt of one cell, as attempts.csv keeps it (every attempt, retries included).
struct Attempt {
  int cell = 0;
  int attempt = 0;
  std::string job_id;
  std::string state;                   // ok, failed, interrupted
  std::string scheduler_state;         // COMPLETED, FAILED, CANCELLED, NODE_FAIL, TIMEOUT, …; "" locally
  std::optional<int> exit_status;
  std::optional<double> wall_s;
  std::string session_dir;
  std::optional<std::int64_t> run_id;
  std::string note;
};

// Every cell of the plan, round by round (all of repeat 1, then all of repeat 2, …), so a drift of
// the machine spreads over every cell.
std::vector<Cell> expand_cells(const Plan& plan);

// cells.csv and attempts.csv: the header row first, unknown values empty.
std::string cells_csv(const std::vector<Cell>& cells);
std::string attempts_csv(const std::vector<Attempt>& attempts);
// Reads cells.csv back (for `pictor campaign status` and `report`). Throws UsageError naming the
// file and line for a file that is not one.
std::vector<Cell> parse_cells_csv(const std::string& text, const std::string& file);

// The terminal table of `pictor campaign status`: one row per cell and a count per state.
std::string format_status(const std::vector<Cell>& cells);

}  // namespace pictor::campaign
