// What the results database records of a result directory, read from the files Pictor wrote
// there: a session (run.json + summary.json), a `--repeat` run (its run.json, summary.json and the
// repeat-K sessions), a suite (suite.json and each benchmark's directory), `pictor mark` (mark.json).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "db/results_store.h"

namespace pictor::db {

// A run and the runs inside it, and the file that reports its write errors (run.json, suite.json,
// mark.json: where a failure to record it is written).
struct RecordTree {
  RunRecord run;
  std::string status_file;
  std::vector<RecordTree> children;
};

// The most figures kept of one run: summary.json holds a few hundred; more is a runaway file.
inline constexpr std::size_t kMaxMetrics = 5000;

// Every number of `figures` by its path ("frame_ms.p99", "rtt_ms.ci95.0"): objects followed,
// short arrays of numbers by index (intervals), a null kept as unknown; text, booleans and longer
// arrays (lists of stalls, per-run values) left out. At most kMaxMetrics, in document order.
std::vector<Metric> flatten_figures(const nlohmann::json& figures);

// Reads DIR as whichever kind of result directory it is. Throws StoreError when it is none of
// them (no run.json, suite.json or mark.json), or its file is not JSON.
RecordTree read_result_dir(const std::string& dir);

}  // namespace pictor::db
