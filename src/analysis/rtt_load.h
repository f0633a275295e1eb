// load_rtt_timeline over any source of a session's files: the directory form (rtt.h) reads them
// from the session directory through it, the fuzz target from memory.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "analysis/rtt.h"

namespace pictor::analysis {

// One file of a session by name ("frames.csv", "hook.json", ...): its whole text, nullopt when
// the session has none; throws files::ReadError when it cannot be read.
using SessionFileReader = std::function<std::optional<std::string>(const std::string& name)>;

// load_rtt_timeline on the files `read` gives; `session_dir` is only where messages say they are.
RttTimeline load_rtt_timeline(const SessionFileReader& read, const std::string& session_dir, bool require_client);

}  // namespace pictor::analysis
