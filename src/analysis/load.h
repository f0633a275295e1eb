// Reading frame-time data from any supported file: a Pictor session directory or frames.csv,
// a MangoHud CSV log, or a PresentMon CSV (format detected from content, not the file name).
#pragma once
#include <string>

#include "analysis/frame_series.h"

namespace pictor::analysis {

// Throws pictor::UsageError with one line naming the file, the line number and the cause when the
// file is missing, malformed or truncated. A directory means DIR/frames.csv.
FrameSeries load_frames(const std::string& path);

}  // namespace pictor::analysis
