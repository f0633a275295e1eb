// The statistics of `pictor compare` and of repeated runs: metric extraction, bootstrap intervals of
// B − A and B / A, verdicts. Definitions and the choice of bootstrap: docs/reports.md.
#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/frame_metrics.h"
#include "analysis/stats.h"
#include "core/error.h"
#include "core/json_util.h"

namespace pictor::analysis {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

nlohmann::json num(double v) { return number_or_null(v); }  // core/json_util.h
nlohmann::json interval(const Interval& i) {
  return std::isfinite(i.lo) && std::isfinite(i.hi) ? nlohmann::json::array({i.lo, i.hi}) : nlohmann::json();
}

// Independent, reproducible streams from one seed: SplitMix64 of seed + k·golden ratio.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + k * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The figures of every metric of `metrics` from a session's samples, frames taken at frame_idx
// and inputs at input_idx (nullptr: all, in order). One pass per kind, so a resample costs one
// sort of its frame times.
std::vector<double> figures(const std::vector<CompareMetric>& metrics, const SessionSamples& s,
                            const std::vector<std::size_t>* frame_idx, const std::vector<std::size_t>* input_idx) {
  const auto frame_at = [&](std::size_t k) { return frame_idx ? (*frame_idx)[k] : k; };
  const std::size_t nf = frame_idx ? frame_idx->size() : s.frame_ms.size();
  std::vector<double> dt(nf);
  double total = 0, stutter_ms = 0;
  for (std::size_t k = 0; k < nf; ++k) {
    const std::size_t i = frame_at(k);
    dt[k] = s.frame_ms[i];
    total += dt[k];
    if (s.stutter[i]) stutter_ms += dt[k];
  }
  std::sort(dt.begin(), dt.end());
  const auto input_at = [&](std::size_t k) { return input_idx ? (*input_idx)[k] : k; };
  const std::size_t ni = input_idx ? input_idx->size() : s.rtt_ms.size();
  std::vector<double> rtt;
  bool rtt_done = false;
  std::vector<double> out;
  out.reserve(metrics.size());
  for (const CompareMetric& m : metrics) {
    double v = kNan;
    if (!m.from_inputs) {
      if (!dt.empty()) {
        if (m.name == "fps") v = total > 0 ? static_cast<double>(nf) / (total / 1000.0) : kNan;
        else if (m.name == "frame_p50") v = stats::percentile_sorted(dt, 50);
        else if (m.name == "frame_p99") v = stats::percentile_sorted(dt, 99);
        else if (m.name == "low1_pct") v = low_fps_at_percentile(dt, 99);
        else if (m.name == "low1_avg") v = low_fps_average(dt, 0.01);
        else if (m.name == "low01_pct") v = low_fps_at_percentile(dt, 99.9);
        else if (m.name == "low01_avg") v = low_fps_average(dt, 0.001);
        else if (m.name == "stutter") v = total > 0 ? stutter_ms / total : kNan;
      }
    } else if (m.column.empty()) {
      if (!rtt_done) {
        for (std::size_t k = 0; k < ni; ++k)
          if (const double x = s.rtt_ms[input_at(k)]; std::isfinite(x)) rtt.push_back(x);
        std::sort(rtt.begin(), rtt.end());
        rtt_done = true;
      }
      if (!rtt.empty()) {
        if (m.name == "rtt_mean") v = stats::mean(rtt);
        else if (m.name == "rtt_p50") v = stats::percentile_sorted(rtt, 50);
        else if (m.name == "rtt_p99") v = stats::percentile_sorted(rtt, 99);
      }
    } else {
      const auto c = std::find(s.columns.begin(), s.columns.end(), m.column);
      if (c != s.columns.end()) {
        const std::vector<double>& col = s.stage_ms[static_cast<std::size_t>(c - s.columns.begin())];
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t k = 0; k < ni; ++k)
          if (const double x = col[input_at(k)]; std::isfinite(x)) {
            sum += x;
            ++n;
          }
        v = n ? sum / static_cast<double>(n) : kNan;
      }
    }
    out.push_back(v);
  }
  return out;
}

std::size_t known_count(const std::vector<double>& v) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [](double x) { return std::isfinite(x); }));
}

// How many samples stand behind a metric in one session.
std::size_t sample_count(const CompareMetric& m, const SessionSamples& s) {
  if (!m.from_inputs) return s.frame_ms.size();
  if (m.column.empty()) return known_count(s.rtt_ms);
  const auto c = std::find(s.columns.begin(), s.columns.end(), m.column);
  return c == s.columns.end() ? 0 : known_count(s.stage_ms[static_cast<std::size_t>(c - s.columns.begin())]);
}

std::string missing_reason(const CompareMetric& m, const SessionSamples& s) {
  if (!m.from_inputs) return "no frame times";
  if (s.rtt_ms.empty()) return "no inputs tracked (run with --driver)";
  if (m.column.empty()) return "no input was matched to a frame";
  return fmt::format("no input has {}", m.column);
}

// The verdict from the interval of B − A: significant when it excludes 0.
void judge(MetricComparison& c) {
  if (!std::isfinite(c.a) || !std::isfinite(c.b)) return;
  c.diff = c.b - c.a;
  c.ratio = c.a != 0 ? c.b / c.a : kNan;
  if (!std::isfinite(c.diff_ci.lo) || !std::isfinite(c.diff_ci.hi)) {
    c.note = "too few samples to resample (fewer than 2 on a side)";
    return;
  }
  if (c.diff_ci.lo > 0 || c.diff_ci.hi < 0) {
    const bool higher = c.diff > 0;
    c.verdict = (higher == (c.metric.better == Better::Higher)) ? Verdict::Better : Verdict::Worse;
  } else {
    c.verdict = Verdict::NoSignificantDifference;
  }
}

std::vector<std::string> common_columns(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& c : a)
    if (std::find(b.begin(), b.end(), c) != b.end()) out.push_back(c);
  return out;
}

}  // namespace

std::vector<std::string> summary_stage_columns(const nlohmann::json& summary) {
  std::vector<std::string> out;
  const nlohmann::json& st = json_at(summary, {"stages_ms"});
  if (!st.is_object()) return out;
  for (auto it = st.begin(); it != st.end(); ++it)
    if (it.value().is_object() && it.value().contains("mean")) out.push_back(it.key());
  return out;
}

const std::vector<CompareMetric>& fixed_metrics() {
  static const std::vector<CompareMetric> metrics = {
      {"fps", "FPS (average)", "fps_avg", "FPS", Better::Higher, false, ""},
      {"frame_p50", "p50 frame time", "frame_ms.p50", "ms", Better::Lower, false, ""},
      {"frame_p99", "p99 frame time", "frame_ms.p99", "ms", Better::Lower, false, ""},
      {"low1_pct", "1 % low (FPS at p99, PresentMon)", "low_1pct_fps_percentile", "FPS", Better::Higher, false, ""},
      {"low1_avg", "1 % low (slowest 1 %, CapFrameX)", "low_1pct_fps_average", "FPS", Better::Higher, false, ""},
      {"low01_pct", "0.1 % low (FPS at p99.9)", "low_0_1pct_fps_percentile", "FPS", Better::Higher, false, ""},
      {"low01_avg", "0.1 % low (slowest 0.1 %)", "low_0_1pct_fps_average", "FPS", Better::Higher, false, ""},
      {"stutter", "stutter (share of time)", "stutter.time_share", "share", Better::Lower, false, ""},
      {"rtt_mean", "RTT mean", "rtt_ms.mean", "ms", Better::Lower, true, ""},
      {"rtt_p50", "RTT p50", "rtt_ms.p50", "ms", Better::Lower, true, ""},
      {"rtt_p99", "RTT p99", "rtt_ms.p99", "ms", Better::Lower, true, ""},
  };
  return metrics;
}

CompareMetric stage_metric(const std::string& column) {
  std::string name = column.ends_with("_ms") ? column.substr(0, column.size() - 3) : column;
  return {name, name + " (mean)", "stages_ms." + column + ".mean", "ms", Better::Lower, true, column};
}

std::optional<CompareMetric> find_metric(const std::string& name, const std::vector<std::string>& columns) {
  for (const CompareMetric& m : fixed_metrics())
    if (m.name == name) return m;
  for (const std::string& c : columns)
    if (stage_metric(c).name == name) return stage_metric(c);
  return std::nullopt;
}

SessionSamples session_samples(const SessionData& session) {
  SessionSamples s;
  s.dir = session.dir;
  if (session.have_frames) {
    for (const double v : session.figure.frame_ms)
      if (std::isfinite(v)) s.frame_ms.push_back(v);
    s.stutter.assign(s.frame_ms.size(), 0);
    for (const std::size_t i : find_stutters(s.frame_ms).frames) s.stutter[i] = 1;
  }
  if (session.inputs.present) {
    s.rtt_ms = session.inputs.rtt_ms;
    for (std::size_t i = 0; i < s.rtt_ms.size(); ++i)
      if (session.inputs.status[i] != "matched") s.rtt_ms[i] = kNan;
    s.columns = session.inputs.columns;
    s.stage_ms = session.inputs.values;
  }
  return s;
}

double sample_figure(const CompareMetric& metric, const SessionSamples& s) { return figures({metric}, s, nullptr, nullptr)[0]; }

double summary_figure(const CompareMetric& metric, const nlohmann::json& summary) {
  const nlohmann::json* cur = &summary;
  std::size_t pos = 0;
  const std::string& key = metric.summary_key;
  while (pos <= key.size()) {
    std::size_t dot = key.find('.', pos);
    // "stages_ms.AL_ms.mean": the stage names hold no dots, so every dot is a level.
    if (dot == std::string::npos) dot = key.size();
    cur = &json_at(*cur, {std::string_view(key).substr(pos, dot - pos)});
    pos = dot + 1;
  }
  return cur->is_number() ? cur->get<double>() : kNan;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Better: return "better";
    case Verdict::Worse: return "worse";
    case Verdict::NoSignificantDifference: return "no significant difference";
    case Verdict::Unknown: break;
  }
  return "unknown";
}

double MetricComparison::worse_by() const {
  if (!std::isfinite(a) || !std::isfinite(b)) return kNan;
  const double worse = metric.better == Better::Higher ? a - b : b - a;
  if (a == 0) return worse > 0 ? std::numeric_limits<double>::infinity() : worse < 0 ? -std::numeric_limits<double>::infinity() : 0;
  return worse / std::fabs(a);
}

Comparison compare_sessions(const SessionSamples& a, const SessionSamples& b, const CompareOptions& options) {
  Comparison out{"within-session", options, {}};
  std::vector<CompareMetric> metrics = fixed_metrics();
  for (const std::string& c : common_columns(a.columns, b.columns)) metrics.push_back(stage_metric(c));
  const std::vector<double> fa = figures(metrics, a, nullptr, nullptr), fb = figures(metrics, b, nullptr, nullptr);
  std::vector<std::vector<double>> diffs(metrics.size()), ratios(metrics.size());
  std::mt19937_64 rng_a(stream_seed(options.seed, 0)), rng_b(stream_seed(options.seed, 1));
  std::vector<std::size_t> fi_a, fi_b, ii_a, ii_b;
  for (int r = 0; r < options.resamples; ++r) {
    resample_blocks(rng_a, a.frame_ms.size(), options.frame_block, fi_a);
    resample_indices(rng_a, a.rtt_ms.size(), ii_a);
    resample_blocks(rng_b, b.frame_ms.size(), options.frame_block, fi_b);
    resample_indices(rng_b, b.rtt_ms.size(), ii_b);
    const std::vector<double> ra = figures(metrics, a, &fi_a, &ii_a), rb = figures(metrics, b, &fi_b, &ii_b);
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      diffs[m].push_back(rb[m] - ra[m]);
      ratios[m].push_back(ra[m] != 0 ? rb[m] / ra[m] : kNan);
    }
  }
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    MetricComparison c;
    c.metric = metrics[m];
    c.a = fa[m];
    c.b = fb[m];
    c.diff = c.ratio = kNan;
    c.n_a = sample_count(metrics[m], a);
    c.n_b = sample_count(metrics[m], b);
    if (!std::isfinite(c.a) || !std::isfinite(c.b)) {
      c.note = !std::isfinite(c.a) ? "A: " + missing_reason(metrics[m], a) : "B: " + missing_reason(metrics[m], b);
      out.metrics.push_back(c);
      continue;
    }
    if (c.n_a >= 2 && c.n_b >= 2) {
      c.diff_ci = percentile_interval(diffs[m], options.level);
      c.ratio_ci = percentile_interval(ratios[m], options.level);
    } else {
      c.diff_ci = c.ratio_ci = {kNan, kNan};
    }
    judge(c);
    out.metrics.push_back(c);
  }
  return out;
}

AcrossRuns across_runs(const std::vector<double>& values, const CompareOptions& options) {
  AcrossRuns r;
  const std::vector<double> v = stats::known(values);
  r.n = v.size();
  r.ci = {kNan, kNan};
  if (v.empty()) {
    r.mean = r.sd = r.min = r.max = kNan;
    return r;
  }
  r.mean = stats::mean(v);
  double ss = 0;
  for (const double x : v) ss += (x - r.mean) * (x - r.mean);
  r.sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : kNan;
  r.min = *std::min_element(v.begin(), v.end());
  r.max = *std::max_element(v.begin(), v.end());
  if (v.size() < 2) return r;
  std::mt19937_64 rng(stream_seed(options.seed, 2));
  std::vector<std::size_t> idx;
  std::vector<double> means;
  means.reserve(static_cast<std::size_t>(options.resamples));
  for (int k = 0; k < options.resamples; ++k) {
    resample_indices(rng, v.size(), idx);
    double sum = 0;
    for (const std::size_t i : idx) sum += v[i];
    means.push_back(sum / static_cast<double>(v.size()));
  }
  r.ci = percentile_interval(means, options.level);
  return r;
}

Comparison compare_runs(const std::vector<nlohmann::json>& a, const std::vector<nlohmann::json>& b,
                        const CompareOptions& options) {
  Comparison out{"across-runs", options, {}};
  std::vector<CompareMetric> metrics = fixed_metrics();
  std::vector<std::string> columns;
  for (std::size_t k = 0; k < a.size() + b.size(); ++k) {
    const std::vector<std::string> cs = summary_stage_columns(k < a.size() ? a[k] : b[k - a.size()]);
    columns = k == 0 ? cs : common_columns(columns, cs);
  }
  for (const std::string& c : columns) metrics.push_back(stage_metric(c));
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> va, vb;
    for (const auto& s : a)
      if (const double v = summary_figure(metrics[m], s); std::isfinite(v)) va.push_back(v);
    for (const auto& s : b)
      if (const double v = summary_figure(metrics[m], s); std::isfinite(v)) vb.push_back(v);
    MetricComparison c;
    c.metric = metrics[m];
    c.n_a = va.size();
    c.n_b = vb.size();
    c.a = va.empty() ? kNan : stats::mean(va);
    c.b = vb.empty() ? kNan : stats::mean(vb);
    c.diff = c.ratio = kNan;
    c.diff_ci = c.ratio_ci = {kNan, kNan};
    if (va.empty() || vb.empty()) {
      c.note = fmt::format("{}: no run has this figure", va.empty() ? "A" : "B");
      out.metrics.push_back(c);
      continue;
    }
    if (va.size() >= 2 && vb.size() >= 2) {
      // Each metric its own pair of streams, so a metric's interval does not depend on the others.
      std::mt19937_64 rng_a(stream_seed(options.seed, 10 + 2 * m)), rng_b(stream_seed(options.seed, 11 + 2 * m));
      std::vector<double> diffs, ratios;
      std::vector<std::size_t> ia, ib;
      for (int r = 0; r < options.resamples; ++r) {
        resample_indices(rng_a, va.size(), ia);
        resample_indices(rng_b, vb.size(), ib);
        double sa = 0, sb = 0;
        for (const std::size_t i : ia) sa += va[i];
        for (const std::size_t i : ib) sb += vb[i];
        const double ma = sa / static_cast<double>(va.size()), mb = sb / static_cast<double>(vb.size());
        diffs.push_back(mb - ma);
        ratios.push_back(ma != 0 ? mb / ma : kNan);
      }
      c.diff_ci = percentile_interval(diffs, options.level);
      c.ratio_ci = percentile_interval(ratios, options.level);
    }
    judge(c);
    if (c.verdict == Verdict::Unknown && c.note.starts_with("too few"))
      c.note = "fewer than 2 runs with this figure on a side: no across-run interval";
    out.metrics.push_back(c);
  }
  return out;
}

nlohmann::json comparison_json(const Comparison& c) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const MetricComparison& m : c.metrics) {
    metrics.push_back({{"metric", m.metric.name},
                       {"label", m.metric.label},
                       {"summary_key", m.metric.summary_key},
                       {"unit", m.metric.unit},
                       {"better", m.metric.better == Better::Higher ? "higher" : "lower"},
                       {"a", num(m.a)},
                       {"b", num(m.b)},
                       {"n_a", m.n_a},
                       {"n_b", m.n_b},
                       {"diff", num(m.diff)},
                       {"diff_ci", interval(m.diff_ci)},
                       {"ratio", num(m.ratio)},
                       {"ratio_ci", interval(m.ratio_ci)},
                       {"verdict", verdict_name(m.verdict)},
                       {"note", m.note.empty() ? nlohmann::json() : nlohmann::json(m.note)}});
  }
  nlohmann::json out{{"method", c.method},
                     {"level", c.options.level},
                     {"resamples", c.options.resamples},
                     {"seed", c.options.seed},
                     {"metrics", metrics}};
  if (c.method == "within-session") out["frame_block"] = c.options.frame_block;
  return out;
}

namespace {

int decimals_for(const CompareMetric& m) { return m.unit == "share" ? 4 : m.unit == "FPS" ? 1 : 2; }

std::string cell(double v, int d) { return std::isfinite(v) ? fmt::format("{:.{}f}", v, d) : "-"; }

std::string with_ci(double v, const Interval& ci, int d) {
  if (!std::isfinite(v)) return "-";
  if (!std::isfinite(ci.lo)) return cell(v, d);
  return fmt::format("{} [{} .. {}]", cell(v, d), cell(ci.lo, d), cell(ci.hi, d));
}

double parse_percent(const std::string& text, const std::string& what) {
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  if (!t.empty() && t.back() == '%') t.pop_back();
  std::size_t used = 0;
  double v = kNan;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (t.empty() || used != t.size() || !std::isfinite(v)) throw UsageError(fmt::format("{}: '{}' is not a percentage", what, text));
  return v / 100.0;
}

}  // namespace

std::string format_comparison(const Comparison& c) {
  const int level = static_cast<int>(std::lround(c.options.level * 100));
  std::string out = fmt::format("{:<34} {:>10} {:>10} {:>28} {:>24}  {}\n", "figure", "A", "B",
                                fmt::format("B - A [{} % CI]", level), fmt::format("B / A [{} % CI]", level), "verdict");
  for (const MetricComparison& m : c.metrics) {
    const int d = decimals_for(m.metric);
    out += fmt::format("{:<34} {:>10} {:>10} {:>28} {:>24}  {}{}\n", m.metric.label, cell(m.a, d), cell(m.b, d),
                       with_ci(m.diff, m.diff_ci, d), with_ci(m.ratio, m.ratio_ci, 3), verdict_name(m.verdict),
                       m.note.empty() ? "" : " (" + m.note + ")");
  }
  if (c.method == "within-session")
    out += fmt::format("  intervals: within-session bootstrap ({} resamples, seed {}): each session's frame times resampled in "
                       "circular blocks of {} frames, its inputs one by one; it does not see run-to-run variance (compare "
                       "repeated runs, A1,A2,A3 B1,B2,B3, for that)\n",
                       c.options.resamples, c.options.seed, c.options.frame_block);
  else
    out += fmt::format("  intervals: across-run bootstrap ({} resamples, seed {}): the runs' figures resampled, the mean over "
                       "runs compared\n",
                       c.options.resamples, c.options.seed);
  out += "  verdict: better/worse when the interval of B - A excludes 0 (higher is better for FPS and lows, lower for the rest)\n";
  return out;
}

Gate parse_gate(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format("--fail-if-worse '{}': expected METRIC=PERCENT, e.g. fps=5%", text));
  Gate g{text.substr(0, eq), parse_percent(text.substr(eq + 1), "--fail-if-worse " + text)};
  if (g.threshold < 0) throw UsageError(fmt::format("--fail-if-worse '{}': the percentage must not be negative", text));
  return g;
}

std::optional<GateResult> check_gate(const Gate& gate, const Comparison& c) {
  for (const MetricComparison& m : c.metrics) {
    if (m.metric.name != gate.metric) continue;
    GateResult r;
    if (m.verdict == Verdict::Unknown) {
      r.undecidable = true;
      r.text = "unknown: " + m.note;
      return r;
    }
    const double by = m.worse_by();
    if (m.verdict == Verdict::Worse && by > gate.threshold) {
      r.failed = true;
      r.text = std::isfinite(by) ? fmt::format("worse by {:.1f} % (more than {:g} %)", by * 100, gate.threshold * 100)
                                 : fmt::format("worse (A is 0: more than {:g} %)", gate.threshold * 100);
    } else if (m.verdict == Verdict::Worse) {
      r.text = fmt::format("worse by {:.1f} % (within {:g} %)", by * 100, gate.threshold * 100);
    } else {
      r.text = verdict_name(m.verdict);
    }
    return r;
  }
  return std::nullopt;
}

double parse_level(const std::string& text) {
  double v = parse_percent(text, "--level");
  // "0.95" is a fraction already; "95" and "95%" are percentages.
  if (text.find('%') == std::string::npos && v * 100 <= 1.0) v *= 100;
  if (!(v >= 0.5 && v <= 0.999)) throw UsageError(fmt::format("--level '{}': must be between 50 % and 99.9 %", text));
  return v;
}

}  // namespace pictor::analysis
