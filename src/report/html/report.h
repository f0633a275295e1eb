// report.html: the self-contained HTML report of a session, a suite, a repeated run, and
// compare.html (docs/reports.md). Each page is one file with inline SVG and CSS that opens with no
// network; every figure on it comes from the directory's summary.json and recorded files.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/session_data.h"

namespace pictor::report {

// The page of one session. seen_ns: when each distinct app frame first reached the client (for
// client FPS over time; empty without a client).
std::string session_report_html(const analysis::SessionData& session, const std::vector<std::int64_t>& seen_ns);

// Reads SESSION_DIR and writes SESSION_DIR/report.html. Throws UsageError naming the cause when
// the directory cannot be read or the file written.
void write_session_report(const std::string& session_dir);

// The runner's call at the end of a session: write_session_report, returning the one-line reason
// instead of throwing ("" when written), so a report that cannot be drawn never fails a session.
std::string try_write_session_report(const std::string& session_dir);

// A suite directory's report.html from its suite.json: every benchmark with its key figures and
// a link to its own report.html.
std::string suite_report_html(const nlohmann::json& suite);
void write_suite_report(const std::string& suite_dir, const nlohmann::json& suite);

// A `--repeat N` run's report.html from its run.json and summary.json (analysis/repeat_summary.h).
std::string repeat_report_html(const nlohmann::json& run, const nlohmann::json& summary);
void write_repeat_report(const std::string& dir, const nlohmann::json& run, const nlohmann::json& summary);

// One unit of compare.json ({name, a_sessions, b_sessions, comparison}) as a page section: the
// table of figures with intervals and verdicts and the B / A chart; `level` in percent. Also
// what a campaign's report.html shows for each comparison across its plan's axes.
std::string compare_unit_section(const nlohmann::json& unit, int level);

// compare.html from compare.json's content.
std::string compare_report_html(const nlohmann::json& compare);

}  // namespace pictor::report
