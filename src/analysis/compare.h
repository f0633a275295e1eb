// A/B comparison of sessions (DESIGN §6, docs/reports.md): for each figure, B − A and B / A with a
// bootstrap confidence interval and a verdict (better / worse / no significant difference). Pure:
// samples and summary.json figures in, numbers out; session_data.h reads them from directories.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bootstrap.h"
#include "analysis/session_data.h"

namespace pictor::analysis {

enum class Better { Higher, Lower };

// One figure compare knows: its command-line name, where summary.json keeps it and which way is
// better. Stage metrics (one per stage column of inputs.csv, e.g. "AL") are made by stage_metric.
struct CompareMetric {
  std::string name;         // fps, frame_p50, …, rtt_mean, AL, wait_app, …
  std::string label;        // "FPS", "p99 frame time", "AL (mean)"
  std::string summary_key;  // "fps_avg", "frame_ms.p99", "stages_ms.AL_ms.mean" (dots: nesting)
  std::string unit;         // "FPS", "ms", "share"
  Better better = Better::Lower;
  bool from_inputs = false;  // an RTT or stage figure (resampled per input), else a frame figure
  std::string column;        // inputs.csv column of a stage metric ("AL_ms")
};

// The fixed metrics, in table order: FPS, p50 and p99 frame time, both 1 % lows (and 0.1 %),
// stutter time share, RTT mean, p50 and p99.
const std::vector<CompareMetric>& fixed_metrics();
// The mean of one stage column ("AL_ms" → metric "AL"); lower is better.
CompareMetric stage_metric(const std::string& column);
// A metric by its name among the fixed ones and the stages of `columns`; nullopt when unknown.
std::optional<CompareMetric> find_metric(const std::string& name, const std::vector<std::string>& columns = {});

// What one session contributes to a within-session bootstrap: its frame times (those its figures
// describe) with each frame's stutter flag, and every input's RTT (NaN unless matched) and stage
// values (NaN where unknown), rows kept together so RTT and stages resample jointly.
struct SessionSamples {
  std::string dir;
  std::vector<double> frame_ms;
  std::vector<char> stutter;
  std::vector<double> rtt_ms;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> stage_ms;  // [column][input]
};
SessionSamples session_samples(const SessionData& session);

// The figure of one metric computed from samples (all of them, or a resample's indices): the
// same definitions as summary.json (analysis/summary.h, rtt.h); NaN when the samples lack it.
double sample_figure(const CompareMetric& metric, const SessionSamples& s);

// The stage columns a summary.json reports a mean for (stages_ms), in its order.
std::vector<std::string> summary_stage_columns(const nlohmann::json& summary);

// The figure as summary.json holds it (summary_key); NaN when null or absent.
double summary_figure(const CompareMetric& metric, const nlohmann::json& summary);

struct CompareOptions {
  double level = 0.95;          // of the confidence intervals; a verdict needs the CI of B − A to exclude 0
  int resamples = 2000;
  std::uint64_t seed = 20240601;
  // Within one session, frame times are resampled in circular blocks of this many consecutive
  // frames: 30 is the stutter window (half a second at 60 FPS), long enough to keep the
  // correlation of a slow passage inside a block.
  std::size_t frame_block = 30;
};

enum class Verdict { Better, Worse, NoSignificantDifference, Unknown };
const char* verdict_name(Verdict v);  // "better", "worse", "no significant difference", "unknown"

struct MetricComparison {
  CompareMetric metric;
  double a = 0, b = 0;         // A's and B's figure (a session's, or the mean of the runs')
  double diff = 0, ratio = 0;  // B − A, B / A (NaN when A is 0)
  // NaN (null in compare.json) until resampled: an unknown interval is never [0, 0].
  Interval diff_ci{kUnknown, kUnknown}, ratio_ci{kUnknown, kUnknown};
  std::size_t n_a = 0, n_b = 0;  // samples (frames or inputs) or runs behind each side
  Verdict verdict = Verdict::Unknown;
  std::string note;  // why the verdict is unknown
  // (B − A) / |A| in the direction of worse: > 0 when B is worse; +inf when A is 0 and B worse.
  double worse_by() const;
};

struct Comparison {
  // "within-session": two single sessions, the per-frame and per-input samples of each resampled
  // (frames in circular blocks, inputs one by one); "across-runs": repeated runs A1..An vs
  // B1..Bm, the runs' figures resampled.
  std::string method;
  CompareOptions options;
  std::vector<MetricComparison> metrics;
};

// Two single sessions: every fixed metric and the mean of every stage column both have.
Comparison compare_sessions(const SessionSamples& a, const SessionSamples& b, const CompareOptions& options = {});

// Repeated runs: each run's summary.json figures are one sample per side (at least 2 per side);
// the statistic is the mean over runs. Stages: the columns in every run's stages_ms.
Comparison compare_runs(const std::vector<nlohmann::json>& a, const std::vector<nlohmann::json>& b,
                        const CompareOptions& options = {});

// The across-run interval of one figure: mean of `values` and the percentile bootstrap of that
// mean (runs resampled); NaN values are left out. What `--repeat N` reports for each figure.
struct AcrossRuns {
  std::size_t n = 0;
  double mean = 0, sd = 0, min = 0, max = 0;
  Interval ci{kUnknown, kUnknown};
};
AcrossRuns across_runs(const std::vector<double>& values, const CompareOptions& options = {});

// compare.json's part for one comparison (schema in docs/reports.md).
nlohmann::json comparison_json(const Comparison& c);

// The terminal table of one comparison: each figure's A, B, B − A and B / A with their intervals
// and the verdict, then how the intervals were made.
std::string format_comparison(const Comparison& c);

// --fail-if-worse METRIC=5%: B fails when the metric is significantly worse (its verdict is
// "worse") and worse by more than `threshold` of A's value.
struct Gate {
  std::string metric;
  double threshold = 0;  // 0.05 for "5%"
};
// "fps=5%" or "rtt_p99=10"; throws UsageError naming the text when it is neither.
Gate parse_gate(const std::string& text);
struct GateResult {
  bool failed = false;
  bool undecidable = false;  // the metric is unknown on a side: the gate cannot be checked
  std::string text;          // "worse by 23.4 % (more than 5 %)", "no significant difference", …
};
// nullopt when the comparison has no such metric.
std::optional<GateResult> check_gate(const Gate& gate, const Comparison& c);

// Reads a confidence level: "0.95", "95%" or "95"; throws UsageError outside 50 %..99.9 %.
double parse_level(const std::string& text);

}  // namespace pictor::analysis
