// The play window of a profile session (play_window.h): launch.json read once, the cut at play
// start, and the summary that says which frames its figures describe.
#include "analysis/play_window.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "analysis/summary.h"

namespace pictor::analysis {

namespace fs = std::filesystem;

namespace {

std::optional<std::int64_t> time_field(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number_integer()) return j[key].get<std::int64_t>();
  return std::nullopt;
}

double seconds_field(const nlohmann::json& j, const char* key) {
  if (j.contains(key) && j[key].is_number()) return j[key].get<double>();
  return kUnknown;
}

double seconds_between(std::int64_t from_ns, std::int64_t to_ns) { return static_cast<double>(to_ns - from_ns) * 1e-9; }

// Why a profile session's figures are not play's, for "play_note".
std::string why_no_play(const LaunchRecord& l) {
  if (!l.error.empty()) return "launch.json cannot be read (" + l.error + ")";
  std::string why = "launch.json has no play_start_ns";
  if (l.startup_end == "session ended") return why + ": the session ended before play started";
  if (l.startup_end == "game exited") return why + ": the game exited during its start-up";
  if (!l.notes.empty()) return why + ": " + l.notes.front();
  return why;
}

}  // namespace

LaunchRecord read_launch_record(const std::string& session_dir) {
  LaunchRecord l;
  const fs::path path = fs::path(session_dir) / "launch.json";
  if (!fs::exists(path)) return l;
  l.present = true;
  nlohmann::json j;
  try {
    std::ifstream in(path);
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    l.error = e.what();
    return l;
  }
  if (!j.is_object()) {
    l.error = "not a JSON object";
    return l;
  }
  l.start_ns = time_field(j, "start_ns");
  l.window_found_ns = time_field(j, "window_found_ns");
  l.first_drawn_ns = time_field(j, "first_drawn_ns");
  l.play_start_ns = time_field(j, "play_start_ns");
  if (j.contains("startup_end") && j["startup_end"].is_string()) l.startup_end = j["startup_end"];
  l.startup_script_s = seconds_field(j, "startup_script_s");
  l.startup_timeout_s = seconds_field(j, "startup_timeout_s");
  l.load_time_s = seconds_field(j, "load_time_s");
  if (j.contains("notes") && j["notes"].is_array())
    for (const auto& n : j["notes"])
      if (n.is_string()) l.notes.push_back(n);
  return l;
}

FrameSeries frames_from(const FrameSeries& series, std::int64_t start_ns) {
  FrameSeries out = series;
  if (series.swap_ns.empty()) return out;
  std::size_t k = 0;
  while (k < series.swap_ns.size() && series.swap_ns[k] < start_ns) ++k;
  // frame_ms[i] (and gpu_ms[i]) is the interval from swap i to swap i + 1: the first k start
  // before play.
  const auto cut = [k](auto& v) { v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size()))); };
  cut(out.swap_ns);
  cut(out.frame_ms);
  cut(out.gpu_ms);
  // fc_ms and as_ms are per frame like swap_ns: the first k frames were copied before play.
  cut(out.fc_ms);
  cut(out.as_ms);
  return out;
}

FrameSeries figure_frames(const FrameSeries& series, const LaunchRecord& launch) {
  if (launch.play_start_ns && !series.swap_ns.empty()) return frames_from(series, *launch.play_start_ns);
  return series;
}

nlohmann::json summarize_session_frames(const FrameSeries& series, const LaunchRecord& launch) {
  if (launch.play_start_ns && !series.swap_ns.empty()) {
    const std::int64_t play = *launch.play_start_ns;
    nlohmann::json out = summarize_frames(frames_from(series, play));
    out["figures_from"] = "play";
    out["play_start_ns"] = play;
    // Seconds from the launcher starting the game to play: the start-up the figures leave out.
    out["play_start_s"] = launch.start_ns ? nlohmann::json(seconds_between(*launch.start_ns, play)) : nlohmann::json(nullptr);
    nlohmann::json whole = summarize_frames(series);
    // What describes the input is said once, at the top.
    for (const char* k : {"schema", "source", "input", "sampled", "input_notes"}) whole.erase(k);
    out["whole_session"] = std::move(whole);
    return out;
  }
  nlohmann::json out = summarize_frames(series);
  out["figures_from"] = "session";
  if (launch.present) {
    out["play_start_ns"] = nullptr;
    out["play_note"] = launch.play_start_ns ? std::string("the frames have no swap times to cut at play start")
                                            : why_no_play(launch) + ": the figures cover the whole session, start-up included";
  }
  return out;
}

std::optional<std::string> play_never_started(const LaunchRecord& l, double duration_s) {
  if (!l.present || l.play_start_ns || l.startup_end != "session ended") return std::nullopt;
  const bool script_known = std::isfinite(l.startup_script_s);
  const std::string then = script_known ? fmt::format(", then {:g} s of startup_wait and start-up steps", l.startup_script_s) : "";
  std::string startup;
  if (l.start_ns && l.first_drawn_ns) {
    const double drawn = seconds_between(*l.start_ns, *l.first_drawn_ns);
    startup = script_known ? fmt::format("the profile's start-up needs about {:.0f} s: first drawn {:.1f} s after launch{}",
                                         drawn + l.startup_script_s, drawn, then)
                           : fmt::format("the game was first drawn {:.1f} s after launch", drawn);
  } else if (l.start_ns && l.window_found_ns) {
    const double found = seconds_between(*l.start_ns, *l.window_found_ns);
    startup = fmt::format("the profile's start-up needs more than {:.0f} s: the window appeared {:.1f} s after launch "
                          "and was not drawn yet{}",
                          found + (script_known ? l.startup_script_s : 0.0), found, then);
  } else {
    startup = fmt::format("the profile's start-up needs more than {:.0f} s: no game window yet{}{}",
                          duration_s + (script_known ? l.startup_script_s : 0.0),
                          std::isfinite(l.startup_timeout_s) ? fmt::format(" (startup_timeout {:g} s)", l.startup_timeout_s) : "",
                          then);
  }
  if (std::isfinite(l.load_time_s)) startup += fmt::format("; load_time {:g} s", l.load_time_s);
  return fmt::format("play never started within the {:g} s duration ({})", duration_s, startup);
}

}  // namespace pictor::analysis
