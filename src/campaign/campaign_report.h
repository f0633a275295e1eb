// A campaign's report.html: every cell with its state and key figures (linked to its session's
// own report.html), and the comparisons across the plan's axes — each adapter against the first,
// each --net setting against the first, the other axes held — made by pictor compare's statistics
// (analysis/compare.h) and drawn by its page section (report/html/report.h).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "campaign/cells.h"

namespace pictor::campaign {

// The comparisons, as compare.json's units ({name, axis, a_sessions, b_sessions, comparison} or,
// when a pair cannot be compared, {name, axis, note}).
nlohmann::json axis_comparisons(const std::vector<Cell>& cells);

// Writes DIR/report.html (and DIR/comparisons.json, the comparisons as data); returns its path.
// Throws UsageError when DIR is not a campaign directory.
std::string write_campaign_report(const std::string& dir);

}  // namespace pictor::campaign
