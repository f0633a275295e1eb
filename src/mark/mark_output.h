// What `pictor mark` writes: mark.json (schema 1, MARK.md §8), DIR/<test>/frames.csv in the Pictor
// frames.csv format, DIR/<test>/samples.json (re-scorable input), and the terminal table.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mark/harness.h"

namespace pictor::mark {

inline constexpr int kMarkSchema = 1;

nlohmann::json mark_to_json(const MarkResult& result, const MarkOptions& options);
// Writes mark.json and the per-test files into `dir` (created if missing); throws RunError.
void write_mark_outputs(const std::string& dir, const MarkResult& result, const MarkOptions& options);
// Frames of one test as frames.csv text (the header row first, as a session's frames.csv; schema in mark.json).
std::string frames_csv(const TestResult& test);
// Human table: one row per test with score and bounds, then the suite line.
std::string format_mark_table(const MarkResult& result);

// `--iterations N` (N > 1): each iteration is a complete result of its own in DIR/iteration-K/
// (mark.json with the bootstrap intervals, per-test files), and DIR/mark.json holds every
// iteration's scores, and per test and for the suite the mean over the iterations with its
// run-to-run interval (Student t, 95 %) beside each iteration's bootstrap interval. The summary
// is built once (iterations_to_json) and then written, printed (--json) or tabulated.
nlohmann::json iterations_to_json(const std::vector<MarkResult>& iterations, const MarkOptions& options);
void write_iteration_outputs(const std::string& dir, const std::vector<MarkResult>& iterations,
                             const MarkOptions& options, const nlohmann::json& summary);
std::string format_iterations_table(const nlohmann::json& summary);

// What the two intervals of an iterated run are (the table's footer, mark.json's "intervals").
extern const char* const kRunToRunText;

}  // namespace pictor::mark
