// Every figure of a summary.json that is unknown (null), with the reason the session's own files
// give for it: the report lists them, so an empty cell is never mistaken for a zero.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pictor::report::html {

struct Unknown {
  std::string path;    // "stages_ms.CP_ms", "fps_client", "gpu_ms"
  std::string reason;  // from the summary's notes, run.json, or the rule that leaves it null
};

// A distribution with n = 0 is one entry (not one per percentile); nulls that mean "none" rather
// than "unknown" (a note that is absent, longest_s with no stall) are not listed.
std::vector<Unknown> find_unknowns(const nlohmann::json& summary, const nlohmann::json& run);

}  // namespace pictor::report::html
