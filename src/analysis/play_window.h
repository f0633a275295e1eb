// The play window of a profile session: launch.json (what pictor-launch recorded) says when the
// game was in play; frame figures, the graph and the suite table are computed from there on.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/frame_series.h"

namespace pictor::analysis {

// launch.json as far as the figures need it (docs/profiles.md). Times are CLOCK_MONOTONIC ns,
// like the swaps in frames.csv.
struct LaunchRecord {
  bool present = false;  // the session has a launch.json: it ran a profile through pictor-launch
  std::string error;     // launch.json exists but cannot be read (then nothing below is known)
  std::optional<std::int64_t> start_ns, window_found_ns, first_drawn_ns, play_start_ns;
  // How the launcher's start-up ended: "play", "gave up" (no window, or a start-up input
  // failed: notes say which), "session ended" (stopped before play), "game exited"; empty
  // when the record does not say (a launcher older than this field).
  std::string startup_end;
  // The profile's own start-up waits after the first drawing (startup_wait plus its wait:
  // steps), its startup_timeout and load_time, in s; NaN when the record does not say.
  double startup_script_s = kUnknown;
  double startup_timeout_s = kUnknown;
  double load_time_s = kUnknown;
  std::vector<std::string> notes;
};

// DIR/launch.json; `present` is false when there is none.
LaunchRecord read_launch_record(const std::string& session_dir);

// The frames from `start_ns` on: swaps at or after it and the frame times between them (a frame
// time that starts before play is start-up, not play). A series without swap times is returned
// unchanged (there is nothing to cut by).
FrameSeries frames_from(const FrameSeries& series, std::int64_t start_ns);

// The series the session's figures and graph describe: play when the launcher recorded its
// start, else the whole series.
FrameSeries figure_frames(const FrameSeries& series, const LaunchRecord& launch);

// summary.json's frame part for a session: summarize_frames of figure_frames, plus
// "figures_from" ("play" or "session"), and for a profile session "play_start_ns", the whole
// session's figures as "whole_session" when the figures are play's, "play_note" when they are
// not (why they include start-up).
nlohmann::json summarize_session_frames(const FrameSeries& series, const LaunchRecord& launch);

// The one-line failure of a profile session that ended before play started ("play never started
// within the 10 s duration (the profile's start-up needs about 31 s: ...)"); nullopt when play
// started, the launcher gave up by itself, or the session has no launcher.
std::optional<std::string> play_never_started(const LaunchRecord& launch, double duration_s);

}  // namespace pictor::analysis
