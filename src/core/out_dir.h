// Where a command writes its results: a directory that holds no earlier results, so the files of
// two runs never mix. One rule for run, suite, record, mark and ic eval (docs/faults.md).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace pictor {

// The files in `dir` that show it holds results of an earlier Pictor run (run.json, frames.csv,
// suite.json, mark.json, recording.json, ic_eval.json, …), at its top level or in the session
// directories below it (a suite's "01-racing/run.json"); relative paths, empty when there are none.
std::vector<std::string> earlier_results_in(const std::filesystem::path& dir);

// Returns the directory to write into, created (with its parents):
// * `out` given: refused with a UsageError that names --force when it holds earlier results; with
//   `force`, everything in it is deleted first. A directory with other files only is used as it is.
// * `out` empty: `default_path`, or `default_path-2`, `-3`, … when that exists: always a new
//   directory, created atomically, so two runs started in the same second never share one.
// Throws UsageError when the directory cannot be created or written.
std::filesystem::path claim_out_dir(const std::string& out, const std::string& default_path, bool force);

}  // namespace pictor
