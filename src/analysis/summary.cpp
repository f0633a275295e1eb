// summarize_frames: the frame figures of DESIGN 6 as the frame part of summary.json (schema 1).
// Every definition is in docs/metrics.md; the arithmetic lives in stats.h and frame_metrics.h.
#include "analysis/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/bottleneck.h"
#include "analysis/frame_metrics.h"
#include "analysis/stats.h"

namespace pictor::analysis {

namespace {

constexpr int kSummarySchema = 1;

// A number, or null when it is not one: an unknown figure is never written as 0.
nlohmann::json number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

nlohmann::json frame_time_figures(std::span<const double> frame_ms,
                                  std::span<const double> sorted) {
  return {
      {"n", frame_ms.size()},
      {"mean", number(stats::mean(frame_ms))},
      {"min", number(sorted.front())},
      {"p50", number(stats::percentile_sorted(sorted, 50))},
      {"p90", number(stats::percentile_sorted(sorted, 90))},
      {"p95", number(stats::percentile_sorted(sorted, 95))},
      {"p99", number(stats::percentile_sorted(sorted, 99))},
      {"p999", number(stats::percentile_sorted(sorted, 99.9))},
      {"max", number(sorted.back())},
  };
}

nlohmann::json gpu_figures(const FrameSeries& series) {
  const std::vector<double> known = stats::known(series.gpu_ms);
  if (known.empty()) return nullptr;
  const std::vector<double> sorted = stats::sorted(known);
  return {
      {"n", known.size()},
      {"mean", number(stats::mean(known))},
      {"p50", number(stats::percentile_sorted(sorted, 50))},
      {"p99", number(stats::percentile_sorted(sorted, 99))},
      {"max", number(sorted.back())},
      {"kind", series.gpu_kind},
  };
}

// One per-frame duration of the frame copy (fc_ms or as_ms) as summary.json holds it; null when
// no frame has one.
nlohmann::json copy_figures(std::span<const double> per_frame) {
  const std::vector<double> known = stats::known(per_frame);
  if (known.empty()) return nullptr;
  const std::vector<double> sorted = stats::sorted(known);
  return {
      {"n", known.size()},
      {"mean", number(stats::mean(known))},
      {"min", number(sorted.front())},
      {"p50", number(stats::percentile_sorted(sorted, 50))},
      {"p90", number(stats::percentile_sorted(sorted, 90))},
      {"p99", number(stats::percentile_sorted(sorted, 99))},
      {"max", number(sorted.back())},
  };
}

// Why fc_ms or as_ms is null, or that they cover only some frames; null when every frame has both.
nlohmann::json copy_note(const FrameSeries& series) {
  if (series.fc_ms.empty() && series.as_ms.empty())
    return "the input has no fc_ms/as_ms columns (not a Pictor frames.csv, or one written before --render "
           "offload existed): the frame copy is unknown";
  const std::size_t fc = stats::known(series.fc_ms).size(), as = stats::known(series.as_ms).size();
  const std::size_t frames = series.swap_ns.size();
  if (fc == 0 && as == 0)
    return "no frame was copied: the app rendered natively (without --render offload its frames reach the X "
           "server without a copy, and frames.csv leaves fc_ms and as_ms empty)";
  if (fc == frames && as == frames) return nullptr;
  return fmt::format("{} of {} frames have an fc_ms, {} an as_ms: the others were not copied", fc, frames, as);
}

// A session that stalls every second lists at most this many stalls (the count and total stay exact).
constexpr std::size_t kMaxListedStalls = 1000;

// The stall part of summary.json: every time of >= 1 s without a frame, the one from the last
// frame to the end of the session included, so a hang is never hidden by a shorter measured span.
nlohmann::json stall_figures(const FrameSeries& series) {
  const bool timed = !series.swap_ns.empty() && series.swap_ns.size() == series.frame_ms.size() + 1;
  double tail_ms = kUnknown;
  std::string end_note = series.session_end_note;
  if (series.session_end_ns && timed) {
    // Frames presented while Pictor was stopping the app come after the end: no time without frames.
    tail_ms = std::max(0.0, static_cast<double>(*series.session_end_ns - series.swap_ns.back()) / 1e6);
  } else if (series.session_end_ns && series.swap_ns.empty()) {
    end_note = series.frame_ms.empty() ? "no frame was presented: there is no last frame to time the end from"
                                       : "the input has no swap timestamps to place the end of the session by";
  } else if (!series.session_end_ns && end_note.empty()) {
    end_note = "the input does not say when the session ended: a stall after the last frame cannot be seen";
  }
  const std::vector<Stall> stalls = find_stalls(series.frame_ms, tail_ms);
  double total_ms = 0.0, longest_ms = 0.0;
  nlohmann::json list = nlohmann::json::array();
  for (const Stall& st : stalls) {
    total_ms += st.duration_ms;
    longest_ms = std::max(longest_ms, st.duration_ms);
    if (list.size() >= kMaxListedStalls) continue;
    list.push_back({{"start_s", st.start_ms / 1000.0},
                    {"start_ns", timed ? nlohmann::json(series.swap_ns[st.interval]) : nlohmann::json(nullptr)},
                    {"duration_s", st.duration_ms / 1000.0},
                    {"at_end", st.at_end}});
  }
  const bool end_known = std::isfinite(tail_ms);
  return {
      {"threshold_s", kStallMs / 1000.0},
      {"count", stalls.size()},
      {"total_s", total_ms / 1000.0},
      {"longest_s", stalls.empty() ? nlohmann::json(nullptr) : nlohmann::json(longest_ms / 1000.0)},
      {"ended_in_stall", end_known ? nlohmann::json(tail_ms >= kStallMs) : nlohmann::json(nullptr)},
      {"last_frame_to_end_s", end_known ? nlohmann::json(tail_ms / 1000.0) : nlohmann::json(nullptr)},
      {"list", list},
      {"list_truncated", stalls.size() > list.size()},
      {"note", end_note.empty() ? nlohmann::json(nullptr) : nlohmann::json(end_note)},
  };
}

}  // namespace

nlohmann::json summarize_frames(const FrameSeries& series) {
  nlohmann::json out = {
      {"schema", kSummarySchema},
      {"source", series.source},
      {"input", series.path},
      {"sampled", series.sampled},
      {"frames", nullptr},
      {"duration_s", nullptr},
      {"fps_avg", nullptr},
      {"frame_ms", nullptr},
      {"low_1pct_fps_percentile", nullptr},
      {"low_0_1pct_fps_percentile", nullptr},
      {"low_1pct_fps_average", nullptr},
      {"low_0_1pct_fps_average", nullptr},
      {"stutter", nullptr},
      {"stalls", nullptr},
      {"gpu_ms", nullptr},
      {"fc_ms", copy_figures(series.fc_ms)},
      {"as_ms", copy_figures(series.as_ms)},
      {"frame_copy_note", copy_note(series)},
      {"note", nullptr},
      {"input_notes", series.notes},
  };
  const std::span<const double> frame_ms = series.frame_ms;

  if (!series.sampled) {
    // Frames are swaps: one more than the intervals between them.
    out["frames"] = frame_ms.empty() ? series.swap_ns.size() : frame_ms.size() + 1;
  }
  if (!series.sampled) out["stalls"] = stall_figures(series);
  if (frame_ms.empty()) {
    out["note"] = series.sampled ? "no frame-time samples in the input"
                                 : "fewer than 2 frames: there is no frame interval to measure";
    return out;
  }

  double duration_s = std::numeric_limits<double>::quiet_NaN();
  if (series.sampled) {
    duration_s = series.span_s;
  } else if (series.swap_ns.size() == frame_ms.size() + 1) {
    duration_s = static_cast<double>(series.swap_ns.back() - series.swap_ns.front()) / 1e9;
  } else {
    duration_s = stats::sum(frame_ms) / 1000.0;
  }
  out["duration_s"] = number(duration_s);
  if (!series.sampled && duration_s > 0.0) {
    out["fps_avg"] = static_cast<double>(frame_ms.size()) / duration_s;
  }

  const std::vector<double> sorted = stats::sorted(frame_ms);
  out["frame_ms"] = frame_time_figures(frame_ms, sorted);
  out["low_1pct_fps_percentile"] = number(low_fps_at_percentile(sorted, 99));
  out["low_0_1pct_fps_percentile"] = number(low_fps_at_percentile(sorted, 99.9));
  out["low_1pct_fps_average"] = number(low_fps_average(sorted, 0.01));
  out["low_0_1pct_fps_average"] = number(low_fps_average(sorted, 0.001));

  if (series.sampled) {
    out["note"] =
        "rows are periodic samples of the frame time, not every frame: frames, fps_avg and "
        "stutter are unknown; frame_ms and the lows describe the samples";
  } else {
    const Stutters stutters = find_stutters(frame_ms);
    const double total_ms = stats::sum(frame_ms);
    out["stutter"] = {
        {"count", stutters.frames.size()},
        {"time_share", number(total_ms > 0.0 ? stutters.time_ms / total_ms : kUnknown)},
        {"window", kStutterWindow},
        {"factor", kStutterFactor},
    };
    if (!(duration_s > 0.0)) out["note"] = "all swaps at the same time: average FPS is undefined";
  }
  out["gpu_ms"] = gpu_figures(series);
  return out;
}

void add_bottleneck(nlohmann::json& summary, const nlohmann::json& run, const std::string& session_dir) {
  if (!summary.is_object()) return;
  try {
    summary["bottleneck"] = judge_bottleneck(bottleneck_evidence(summary, run, session_dir));
  } catch (const std::exception& e) {
    // The figures stand without a verdict; the block says why there is none.
    summary["bottleneck"] = {{"verdict", "undetermined"}, {"text", std::string("undetermined (") + e.what() + ")"},
                             {"evidence", nlohmann::json::array()}, {"missing", nlohmann::json::array()}};
  }
}

}  // namespace pictor::analysis
