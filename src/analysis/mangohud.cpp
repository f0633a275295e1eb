// Reader for MangoHud CSV logs, every version seen in the wild: preamble lines (system info, and
// with log_versioning a version block) before the "fps,frametime,..." header; frametime in ms in
// current versions but in µs in older ones such as Debian 12's 0.6.8; rows either one per frame
// (log_interval=0) or periodic samples of the current frame time (older default: every 100 ms).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/csv.h"
#include "analysis/importers.h"
#include "analysis/stats.h"

namespace pictor::analysis {

namespace {

// fps * frametime is ~1000 when frametime is in ms and ~1e6 when it is in µs. The geometric middle
// of the two, sqrt(1e3 * 1e6), keeps a factor of ~30 of margin either way, far more than the
// disagreement between a per-row fps averaged over an interval and one frame's time.
constexpr double kMicrosecondRatioThreshold = 31622.8;

// Rows are one per frame when the time between rows matches the frame time; outside this band
// the logger ran on its own clock (log_interval > 0) and each row is a sample.
constexpr double kPerFrameBandLow = 0.5;
constexpr double kPerFrameBandHigh = 1.5;

struct Sample {
  double fps = 0.0;
  double frametime = 0.0;  // in the file's unit
  std::optional<int64_t> elapsed_ns;
  std::size_t line = 0;
};

}  // namespace

FrameSeries read_mangohud_log(std::string_view text, const std::string& path) {
  FrameSeries series;
  series.source = "mangohud";
  series.path = path;

  CsvReader reader(text, path);
  CsvRow row;
  std::optional<CsvHeader> header;
  // Everything before the "fps,..." header is preamble: "v1", the version, "---" rulers, the
  // os,cpu,gpu,... line and its values (which MangoHud writes unquoted, commas and all).
  while (reader.next(row)) {
    if (!row.fields.empty() && fold(row.fields[0]) == "fps") {
      header.emplace(row, path);
      break;
    }
  }
  if (!header) fail_at(path, 1, "MangoHud log has no 'fps,frametime,...' header row");
  const std::size_t c_fps = header->require("fps");
  const std::size_t c_frametime = header->require("frametime");
  const auto c_elapsed = header->find("elapsed");

  std::vector<Sample> samples;
  while (reader.next(row)) {
    if (!check_row_width(row, *header, series.notes)) continue;
    Sample s;
    s.line = row.line;
    // A rate and a time: a negative one is a damaged file, not a frame to leave out.
    s.fps = field_nonnegative(row, *header, c_fps);
    s.frametime = field_nonnegative(row, *header, c_frametime);
    // Time since logging started is never negative; refusing it keeps differences in int64.
    if (c_elapsed) s.elapsed_ns = field_nonnegative_int64(row, *header, *c_elapsed);
    if (!samples.empty() && s.elapsed_ns && samples.back().elapsed_ns &&
        *s.elapsed_ns < *samples.back().elapsed_ns) {
      fail_at(path, s.line,
              fmt::format("elapsed {} is earlier than {} on line {}", *s.elapsed_ns,
                          *samples.back().elapsed_ns, samples.back().line));
    }
    samples.push_back(s);
  }
  if (samples.empty()) return series;

  // Unit of frametime, from the rows where both figures are known; a median so that rows whose
  // fps is an average over a longer interval (older versions) cannot tip the decision.
  std::vector<double> ratios;
  for (const Sample& s : samples) {
    if (s.fps > 0.0 && s.frametime > 0.0) ratios.push_back(s.fps * s.frametime);
  }
  if (ratios.empty()) {
    fail_at(path, header->line(),
            "cannot tell the unit of 'frametime': no row has both fps and frametime above 0");
  }
  const bool microseconds = stats::percentile(ratios, 50) > kMicrosecondRatioThreshold;
  const double to_ms = microseconds ? 1e-3 : 1.0;
  if (microseconds) {
    series.notes.push_back(
        "frametime is in microseconds (older MangoHud, e.g. 0.6.8; detected from fps x frametime): "
        "converted to ms");
  }

  // A frametime of 0 is MangoHud's value before the first frame was measured: not a frame time.
  std::size_t unmeasured = 0;
  std::vector<int64_t> elapsed;
  for (const Sample& s : samples) {
    if (s.frametime == 0.0) {
      ++unmeasured;
      continue;
    }
    series.frame_ms.push_back(s.frametime * to_ms);
    if (s.elapsed_ns) elapsed.push_back(*s.elapsed_ns);
  }
  if (unmeasured > 0) {
    series.notes.push_back(
        fmt::format("{} row(s) with frametime 0 (nothing measured yet) dropped", unmeasured));
  }

  if (!c_elapsed) {
    series.sampled = true;
    series.notes.push_back(
        "no 'elapsed' column: rows are taken as periodic samples of the frame time (as older "
        "MangoHud writes them), so frame count, average FPS and stutter are unknown");
    return series;
  }
  if (elapsed.size() < 2) return series;
  std::vector<double> gaps_ms;
  gaps_ms.reserve(elapsed.size() - 1);
  for (std::size_t i = 1; i < elapsed.size(); ++i) {
    gaps_ms.push_back(static_cast<double>(elapsed[i] - elapsed[i - 1]) / 1e6);
  }
  const double row_gap_ms = stats::percentile(gaps_ms, 50);
  const double frame_ms = stats::percentile(series.frame_ms, 50);
  const double ratio = row_gap_ms / frame_ms;
  if (ratio < kPerFrameBandLow || ratio > kPerFrameBandHigh) {
    series.sampled = true;
    series.span_s = static_cast<double>(elapsed.back() - elapsed.front()) / 1e9;
    series.notes.push_back(fmt::format(
        "rows are samples every ~{:.0f} ms (MangoHud log_interval), not one per frame: frame "
        "count, average FPS and stutter are unknown; frame-time figures describe the samples",
        row_gap_ms));
  }
  return series;
}

}  // namespace pictor::analysis
