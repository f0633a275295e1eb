// The per-format readers behind load_frames (internal to the analysis library): each turns the
// text of one file into a FrameSeries or throws UsageError naming the path, line and cause.
#pragma once
#include <string>
#include <string_view>

#include "analysis/frame_series.h"

namespace pictor::analysis {

enum class FrameFormat { pictor, mangohud, presentmon, unknown };

// Decides the format from the first lines of the text (never from the file name).
FrameFormat detect_frame_format(std::string_view text);

// The text of one frame-time file in any supported format, as load_frames reads it once the file
// is in memory (without the schema check of the JSON beside a session's frames.csv).
FrameSeries read_frames_text(std::string_view text, const std::string& path);

FrameSeries read_pictor_frames(std::string_view text, const std::string& path);
FrameSeries read_mangohud_log(std::string_view text, const std::string& path);
FrameSeries read_presentmon_csv(std::string_view text, const std::string& path);

}  // namespace pictor::analysis
