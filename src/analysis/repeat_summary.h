// The summary.json of a `--repeat N` run (DESIGN §5): every figure's value in each run, their
// mean and the across-run interval — the bootstrap of the runs' figures, which sees run-to-run
// variance that the within-session interval of one session's inputs cannot (docs/reports.md).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "analysis/compare.h"

namespace pictor::analysis {

// summaries[k] is the summary.json of session `sessions[k]` (null for a session that wrote none).
// Returns {"schema":1, "kind":"repeat", "runs", "sessions", "level", "resamples", "seed",
// "interval", "figures":[{metric, label, summary_key, unit, better, values, n, mean, sd, min, max,
// ci_across_runs, ci_within_session}], "bottleneck":{"verdicts", "verdict"}}.
nlohmann::json repeat_summary(const std::vector<nlohmann::json>& summaries, const std::vector<std::string>& sessions,
                              const CompareOptions& options = {});

// The terminal table: each figure's mean, across-run interval, spread and per-run values, then
// which interval is which.
std::string format_repeat_summary(const nlohmann::json& repeat);

// What the two intervals are, in one sentence each (the table's footer, the report's note).
extern const char* const kAcrossRunsText;
extern const char* const kWithinSessionText;

}  // namespace pictor::analysis
