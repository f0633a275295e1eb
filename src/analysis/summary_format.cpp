// format_frame_summary: the terminal table of a frame summary (the JSON of summarize_frames), with
// summary.json's notes (the adapter's, one line each).
#include <fmt/format.h>

#include <string>
#include <utility>

#include "analysis/summary.h"
#include "core/text.h"

namespace pictor::analysis {

namespace {

// One figure of the JSON, or "unknown" for null/missing: the table never shows a guessed 0.
std::string figure(const nlohmann::json& j, const char* key, const char* spec = "{:.2f}") {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "unknown";
  const nlohmann::json& v = j[key];
  if (v.is_number_integer() || v.is_number_unsigned()) return fmt::format("{}", v.get<int64_t>());
  if (v.is_number()) return fmt::format(fmt::runtime(spec), v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

// A figure of the frame-time row, at most 8 characters so that the 9-wide columns keep a space
// between them whatever the file held (1e300 ms is "1.0e+300", not 300 digits).
std::string cell(const nlohmann::json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j[key].is_number_float()) return fit_number(j[key].get<double>(), 8, 2);
  return figure(j, key);
}

// "at 2.0 s for 4.0 s, at 9.1 s for 1.2 s, …": where the stalls are, on the clock of the first frame.
std::string stall_places(const nlohmann::json& list) {
  constexpr std::size_t kShown = 4;
  std::string out;
  for (std::size_t i = 0; i < list.size() && i < kShown; ++i) {
    const nlohmann::json& st = list[i];
    out += fmt::format("{}at {:.1f} s for {:.1f} s{}", i ? ", " : "", st.value("start_s", 0.0),
                       st.value("duration_s", 0.0), st.value("at_end", false) ? " (to the end)" : "");
  }
  if (list.size() > kShown) out += ", …";
  return out;
}

// The stall lines: how many, where, and whether the session ended in one, or why that is unknown.
void stall_lines(std::string& out, const nlohmann::json& st) {
  auto line = [&out](std::string_view label, const std::string& value) {
    out += fmt::format("{:<20}{}\n", label, value);
  };
  if (!st.is_object()) {
    line("Stalls", "unknown");
    return;
  }
  const std::size_t count = st.value("count", std::size_t{0});
  const nlohmann::json to_end = st.value("last_frame_to_end_s", nlohmann::json());
  const nlohmann::json note = st.value("note", nlohmann::json());
  const std::string threshold = figure(st, "threshold_s", "{:g}");
  std::string text;
  if (count == 0) {
    text = fmt::format("none (no {} s without a frame", threshold);
    if (to_end.is_number()) text += fmt::format("; the last frame {:.2f} s before the end", to_end.get<double>());
    text += ")";
  } else {
    text = fmt::format("{} ({:.1f} s in all, longest {:.1f} s): {}", count, st.value("total_s", 0.0),
                       st.value("longest_s", 0.0), stall_places(st.value("list", nlohmann::json::array())));
  }
  line("Stalls", text);
  if (st.value("ended_in_stall", nlohmann::json()) == true && to_end.is_number())
    line("", fmt::format("the app stopped presenting: no frame for the last {:.1f} s of the session",
                         to_end.get<double>()));
  else if (note.is_string())
    line("", note.get<std::string>());
}

}  // namespace

std::string format_frame_summary(const nlohmann::json& s) {
  std::string out;
  auto line = [&out](std::string_view label, const std::string& value) {
    out += fmt::format("{:<20}{}\n", label, value);
  };
  line("Source", fmt::format("{} ({})", figure(s, "source"), figure(s, "input")));
  // A profile session: say which frames the figures describe, and the whole session's beside them.
  if (s.value("figures_from", "") == "play") {
    const nlohmann::json& w = s.value("whole_session", nlohmann::json::object());
    const std::string after = figure(s, "play_start_s", "{:.1f}");
    line("Figures from", fmt::format("play: the frames after play start ({})",
                                     after == "unknown" ? "launch.json play_start_ns" : after + " s after launch"));
    line("Whole session", fmt::format("{} frames, {} FPS, 1% low {} / {} (start-up included)", figure(w, "frames"),
                                      figure(w, "fps_avg"), figure(w, "low_1pct_fps_percentile", "{:.1f}"),
                                      figure(w, "low_1pct_fps_average", "{:.1f}")));
  } else if (s.contains("play_note") && s["play_note"].is_string()) {
    line("Figures from", "the whole session: " + s["play_note"].get<std::string>());
  }
  line("Frames", figure(s, "frames"));
  const std::string duration = figure(s, "duration_s", "{:.3f}");
  line("Duration", duration == "unknown" ? duration : duration + " s");
  line("Average FPS", figure(s, "fps_avg"));

  const nlohmann::json& ft = s.value("frame_ms", nlohmann::json());
  if (ft.is_object()) {
    out += fmt::format("{:<20}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}\n", "Frame time (ms)", "mean",
                       "min", "p50", "p90", "p95", "p99", "p99.9", "max");
    out += fmt::format("{:<20}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}\n",
                       fmt::format("  n = {}", figure(ft, "n")), cell(ft, "mean"),
                       cell(ft, "min"), cell(ft, "p50"), cell(ft, "p90"), cell(ft, "p95"),
                       cell(ft, "p99"), cell(ft, "p999"), cell(ft, "max"));
  } else {
    line("Frame time (ms)", "unknown");
  }
  line("1% low FPS", fmt::format("{} at p99 frame time, {} average of slowest 1%",
                                 figure(s, "low_1pct_fps_percentile", "{:.1f}"),
                                 figure(s, "low_1pct_fps_average", "{:.1f}")));
  line("0.1% low FPS", fmt::format("{} at p99.9 frame time, {} average of slowest 0.1%",
                                   figure(s, "low_0_1pct_fps_percentile", "{:.1f}"),
                                   figure(s, "low_0_1pct_fps_average", "{:.1f}")));

  const nlohmann::json& st = s.value("stutter", nlohmann::json());
  if (st.is_object()) {
    const std::string share = st["time_share"].is_number()
                                  ? fmt::format("{:.2f}%", 100.0 * st["time_share"].get<double>())
                                  : std::string("unknown");
    line("Stutter", fmt::format("{} frame(s), {} of the time (> {}x median of previous {} frames)",
                                figure(st, "count"), share, figure(st, "factor", "{:g}"),
                                figure(st, "window")));
  } else {
    line("Stutter", "unknown");
  }
  stall_lines(out, s.value("stalls", nlohmann::json()));

  const nlohmann::json& gpu = s.value("gpu_ms", nlohmann::json());
  if (gpu.is_object()) {
    line("GPU time (ms)", fmt::format("mean {}  p50 {}  p99 {}  max {}  (n = {}, {})",
                                      figure(gpu, "mean"), figure(gpu, "p50"), figure(gpu, "p99"),
                                      figure(gpu, "max"), figure(gpu, "n"), figure(gpu, "kind")));
  } else {
    line("GPU time (ms)", "unknown (not measured)");
  }
  // The offloaded frames' copy (FC) and put into X (AS); one line saying why when there is none.
  for (const auto& [key, label] : {std::pair{"fc_ms", "Frame copy FC (ms)"}, std::pair{"as_ms", "Put AS (ms)"}}) {
    const nlohmann::json& c = s.value(key, nlohmann::json());
    if (c.is_object())
      line(label, fmt::format("mean {}  p50 {}  p90 {}  p99 {}  max {}  (n = {})", figure(c, "mean"), figure(c, "p50"),
                              figure(c, "p90"), figure(c, "p99"), figure(c, "max"), figure(c, "n")));
  }
  if (!s.value("fc_ms", nlohmann::json()).is_object() && s.contains("frame_copy_note") &&
      s["frame_copy_note"].is_string() && s.contains("render") && s["render"].is_object() && s["render"].value("mode", "") == "offload")
    line("Frame copy", "unknown: " + s["frame_copy_note"].get<std::string>());
  if (s.contains("note") && s["note"].is_string()) line("Note", s["note"].get<std::string>());
  // What the adapter changes in how the figures read (a proxy's cap reached, a stock viewer's share).
  if (const nlohmann::json notes = s.value("adapter_notes", nlohmann::json()); notes.is_array())
    for (const nlohmann::json& n : notes)
      if (n.is_string()) line("Adapter note", n.get<std::string>());
  return out;
}

}  // namespace pictor::analysis
