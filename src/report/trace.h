// trace.json: a session as Chrome trace-event JSON for Perfetto's UI — app frames and swaps, GPU
// time, the app's handling of each input, the client's captures, and a flow from each read to its swap.
#pragma once
#include <nlohmann/json.hpp>

#include <span>
#include <string>

#include "analysis/rtt.h"

namespace pictor::report {

// The trace of one session (schema in docs/client.md, "trace.json"). Pure: from what
// analysis::load_rtt_timeline read and analysis::match_timeline matched.
nlohmann::json build_trace(const analysis::RttTimeline& timeline,
                           std::span<const analysis::MatchedInput> inputs);

// Reads the session directory's frames.csv and, where present, the client's and the
// interposer's input files, and writes DIR/trace.json. Throws UsageError when the directory
// holds neither frames.csv nor client files, or a file is malformed; RunError when it cannot write.
void write_trace(const std::string& session_dir);

}  // namespace pictor::report
