// Figures of repeated runs with their across-run intervals (see repeat_summary.h).
#include "analysis/repeat_summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "analysis/session_data.h"
#include "core/json_util.h"

namespace pictor::analysis {

const char* const kAcrossRunsText =
    "across runs: percentile bootstrap of the mean of the N runs' figures (runs resampled): it includes run-to-run "
    "variance";
const char* const kWithinSessionText =
    "within one session: summary.json ci95 of each repeat-K session, the bootstrap of that session's own inputs: it "
    "cannot see run-to-run variance";

namespace {

nlohmann::json num(double v) { return number_or_null(v); }  // core/json_util.h

std::string cell(const nlohmann::json& v, int decimals) {
  return v.is_number() ? fmt::format("{:.{}f}", v.get<double>(), decimals) : "-";
}

int decimals_for(const std::string& unit) { return unit == "share" ? 4 : unit == "FPS" ? 1 : 2; }

}  // namespace

nlohmann::json repeat_summary(const std::vector<nlohmann::json>& summaries, const std::vector<std::string>& sessions,
                              const CompareOptions& options) {
  std::vector<CompareMetric> metrics = fixed_metrics();
  std::vector<std::string> columns;
  bool first = true;
  for (const nlohmann::json& s : summaries) {
    if (!s.is_object()) continue;
    const std::vector<std::string> cs = summary_stage_columns(s);
    if (first) columns = cs;
    else std::erase_if(columns, [&](const std::string& c) { return std::find(cs.begin(), cs.end(), c) == cs.end(); });
    first = false;
  }
  for (const std::string& c : columns) metrics.push_back(stage_metric(c));

  nlohmann::json figures = nlohmann::json::array();
  for (const CompareMetric& m : metrics) {
    std::vector<double> values;
    nlohmann::json per_run = nlohmann::json::array(), within = nlohmann::json::array();
    for (const nlohmann::json& s : summaries) {
      const double v = s.is_object() ? summary_figure(m, s) : std::numeric_limits<double>::quiet_NaN();
      values.push_back(v);
      per_run.push_back(num(v));
      // Only a mean has a within-session interval in summary.json (RTT and stages).
      if (m.summary_key.ends_with(".mean")) {
        std::string base = m.summary_key.substr(0, m.summary_key.size() - 5);
        const nlohmann::json* cur = &s;
        for (std::size_t b = 0; b <= base.size();) {
          const std::size_t e = std::min(base.find('.', b), base.size());
          cur = &json_at(*cur, {std::string_view(base).substr(b, e - b)});
          b = e + 1;
        }
        within.push_back(json_at(*cur, {"ci95"}));
      }
    }
    const AcrossRuns r = across_runs(values, options);
    nlohmann::json f{{"metric", m.name},     {"label", m.label},  {"summary_key", m.summary_key}, {"unit", m.unit},
                     {"better", m.better == Better::Higher ? "higher" : "lower"},
                     {"values", per_run},    {"n", r.n},          {"mean", num(r.mean)},          {"sd", num(r.sd)},
                     {"min", num(r.min)},    {"max", num(r.max)},
                     {"ci_across_runs", std::isfinite(r.ci.lo) ? nlohmann::json::array({r.ci.lo, r.ci.hi}) : nlohmann::json()}};
    if (!within.empty()) f["ci_within_session"] = within;
    figures.push_back(f);
  }
  nlohmann::json verdicts = nlohmann::json::array();
  std::string common;
  bool agree = true;
  for (const nlohmann::json& s : summaries) {
    const nlohmann::json& v = json_at(s, {"bottleneck", "verdict"});
    verdicts.push_back(v);
    if (!v.is_string()) continue;
    if (common.empty()) common = v.get<std::string>();
    else if (common != v.get<std::string>()) agree = false;
  }
  return {{"schema", 1},
          {"kind", "repeat"},
          {"runs", summaries.size()},
          {"sessions", sessions},
          {"level", options.level},
          {"resamples", options.resamples},
          {"seed", options.seed},
          {"interval", {{"ci_across_runs", kAcrossRunsText}, {"ci_within_session", kWithinSessionText}}},
          {"figures", figures},
          {"bottleneck", {{"verdicts", verdicts},
                          {"verdict", common.empty() ? nlohmann::json() : nlohmann::json(agree ? common : "differs between runs")}}}};
}

std::string format_repeat_summary(const nlohmann::json& repeat) {
  const int level = static_cast<int>(std::lround(repeat.value("level", 0.95) * 100));
  std::string out = fmt::format("{} runs ({})\n", repeat.value("runs", 0), fmt::join(repeat.value("sessions", std::vector<std::string>{}), ", "));
  out += fmt::format("{:<34} {:>10} {:>23} {:>10} {:>10}  {}\n", "figure", "mean", fmt::format("{} % CI across runs", level), "min",
                     "max", "per run");
  for (const auto& f : repeat["figures"]) {
    if (f.value("n", 0) == 0) continue;
    const int d = decimals_for(f.value("unit", ""));
    const nlohmann::json& ci = f["ci_across_runs"];
    std::vector<std::string> runs;
    for (const auto& v : f["values"]) runs.push_back(cell(v, d));
    out += fmt::format("{:<34} {:>10} {:>23} {:>10} {:>10}  {}\n", f.value("label", "?"), cell(f["mean"], d),
                       ci.is_array() ? cell(ci[0], d) + " .. " + cell(ci[1], d) : "-", cell(f["min"], d), cell(f["max"], d),
                       fmt::join(runs, " "));
  }
  if (const auto& v = json_at(repeat, {"bottleneck", "verdict"}); v.is_string()) out += "Bottleneck: " + v.get<std::string>() + "\n";
  out += fmt::format("  interval {}\n  not to be confused with: {}\n", kAcrossRunsText, kWithinSessionText);
  return out;
}

}  // namespace pictor::analysis
