// When a session ended, for the stall from its last frame to that end (DESIGN 6): run.json's
// end_ns for a session directory; for a bare file the series says that the end is unknown.
#pragma once
#include <string>

#include "analysis/frame_series.h"

namespace pictor::analysis {

// Sets series.session_end_ns from PATH/run.json when PATH is a session directory whose run.json
// has `end_ns`; otherwise leaves it unset and sets series.session_end_note to why (a bare file,
// no run.json, a session still running, a run.json older than end_ns).
void attach_session_end(FrameSeries& series, const std::string& path);

}  // namespace pictor::analysis
