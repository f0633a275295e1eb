// The terminal table of a suite.json: one row per benchmark, unknown figures as "-".
#include <fmt/format.h>

#include "suite/suite_runner.h"

namespace pictor::suite {

namespace {

std::string cell(const nlohmann::json& e, const char* key, const char* format) {
  if (!e.contains(key) || !e[key].is_number()) return "-";
  return fmt::format(fmt::runtime(format), e[key].get<double>());
}

}  // namespace

std::string format_suite_table(const nlohmann::json& suite) {
  std::string out;
  const auto& counts = suite.value("counts", nlohmann::json::object());
  out += fmt::format("Suite {}{}: {} ok, {} failed, {} skipped{}  ({})\n", suite.value("suite", "?"),
                     suite.value("quick", false) ? " (quick)" : "", counts.value("ok", 0), counts.value("failed", 0),
                     counts.value("skipped", 0),
                     counts.value("not_run", 0) > 0 ? fmt::format(", {} not run (interrupted)", counts.value("not_run", 0)) : "",
                     suite.value("dir", ""));
  out += fmt::format("{:<16} {:<7} {:>7} {:>7} {:>7} {:>15} {:>15} {:>8} {:>8} {:>6}\n", "benchmark", "status", "FPS",
                     "p50 ms", "p99 ms", "1% low pct/avg", "0.1% low p/a", "RTT ms", "RTT p99", "inputs");
  for (const auto& e : suite.value("benchmarks", nlohmann::json::array())) {
    const std::string lows = cell(e, "low_1pct_fps_percentile", "{:.1f}") + "/" + cell(e, "low_1pct_fps_average", "{:.1f}");
    const std::string lows01 =
        cell(e, "low_0_1pct_fps_percentile", "{:.1f}") + "/" + cell(e, "low_0_1pct_fps_average", "{:.1f}");
    out += fmt::format("{:<16} {:<7} {:>7} {:>7} {:>7} {:>15} {:>15} {:>8} {:>8} {:>6}\n", e.value("name", "?"),
                       e.value("status", "?"), cell(e, "fps", "{:.1f}"), cell(e, "frame_ms_p50", "{:.2f}"),
                       cell(e, "frame_ms_p99", "{:.2f}"), lows, lows01, cell(e, "rtt_ms_mean", "{:.1f}"),
                       cell(e, "rtt_ms_p99", "{:.1f}"), cell(e, "rtt_inputs", "{:.0f}"));
  }
  for (const auto& e : suite.value("benchmarks", nlohmann::json::array()))
    if (e.contains("reason") && e["reason"].is_string())
      out += fmt::format("  {} {}: {}\n", e.value("name", "?"), e.value("status", "?"), e["reason"].get<std::string>());
  bool repeated = false;
  for (const auto& e : suite.value("benchmarks", nlohmann::json::array())) {
    const auto& ci = e.value("ci_across_runs", nlohmann::json::object());
    const auto range = [&](const char* key, const char* what) -> std::string {
      if (!ci.contains(key) || !ci[key].is_array()) return "";
      return fmt::format(" {} {:.1f} .. {:.1f}", what, ci[key][0].get<double>(), ci[key][1].get<double>());
    };
    if (!e.contains("runs")) continue;
    repeated = true;
    out += fmt::format("  {}: means of {} runs; 95 % CI across runs:{}{}\n", e.value("name", "?"), e.value("runs", 0),
                       range("fps", "FPS"), range("rtt_ms_mean", "RTT ms"));
  }
  if (repeated)
    out += "  (across runs: the runs' figures resampled; each session's own summary.json ci95 is within that session)\n";
  out += "  1% low: FPS at the 99th frame-time percentile (PresentMon) / average FPS of the slowest 1 % (CapFrameX)\n";
  return out;
}

}  // namespace pictor::suite
