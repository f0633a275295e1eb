// Finding the unknown figures of a summary.json and their reasons (see unknowns.h).
#include "report/html/unknowns.h"

#include <fmt/format.h>

#include <set>

#include "analysis/session_data.h"

namespace pictor::report::html {

namespace {

using analysis::json_at;

// Keys whose null means "nothing to say" or "none", not an unknown measurement.
const std::set<std::string>& not_unknown() {
  static const std::set<std::string> keys = {"note",        "play_note",   "input",        "longest_s",
                                             "failure",     "list_truncated", "start_ns",  "label",
                                             "source",      "whole_session"};
  return keys;
}

// The first note of `notes` (an array of strings) that starts with or mentions `key`.
std::string note_about(const nlohmann::json& notes, const std::string& key) {
  if (!notes.is_array()) return {};
  for (const auto& n : notes)
    if (n.is_string() && n.get<std::string>().find(key) != std::string::npos) return n.get<std::string>();
  return {};
}

std::string reason_for(const std::string& path, const std::string& key, const nlohmann::json& summary,
                       const nlohmann::json& run) {
  const auto text = [](const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : std::string(); };
  if (key == "ci95") return "fewer than 2 values to resample";
  if (path.starts_with("stages_ms.") || path == "rtt_ms") {
    if (std::string n = note_about(json_at(summary, {"rtt_notes"}), path.substr(path.find('.') + 1, 2)); !n.empty()) return n;
    return path == "rtt_ms" ? "no input was matched to a frame the client received"
                            : "no input has both timestamps of this stage";
  }
  if (path == "gpu_ms") {
    if (const std::string t = text(json_at(run, {"gl", "gpu_timer"})); !t.empty()) return "GPU timer: " + t;
    return "frames.csv has no GPU time (no timer query result)";
  }
  if (path == "fps_client" || path == "fps_client_updates") {
    if (std::string n = note_about(json_at(summary, {"rtt_notes"}), path + " unknown"); !n.empty()) return n;
  }
  if (path.starts_with("client_frames.")) return "the client read no frame number from a marker";
  if (path.starts_with("stalls.")) {
    if (const std::string n = text(json_at(summary, {"stalls", "note"})); !n.empty()) return n;
  }
  if (path.starts_with("rtt_partition.")) {
    if (key == "gl_renderer") return "hook.json names no GL renderer";
    return "no input was matched";
  }
  if (const std::string n = text(json_at(summary, {"note"})); !n.empty()) return n;
  if (std::string n = note_about(json_at(summary, {"rtt_notes"}), key); !n.empty()) return n;
  return "no reason recorded in summary.json";
}

void walk(const nlohmann::json& j, const std::string& path, const nlohmann::json& summary, const nlohmann::json& run,
          std::vector<Unknown>& out) {
  if (!j.is_object()) return;
  // An empty distribution: one entry.
  if (j.contains("n") && j["n"] == 0 && j.contains("mean")) {
    out.push_back({path, reason_for(path, path.substr(path.rfind('.') + 1), summary, run)});
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = it.key();
    const std::string p = path.empty() ? key : path + "." + key;
    if (not_unknown().contains(key) || key.ends_with("_notes") || key == "bottleneck") continue;
    if (it.value().is_null()) out.push_back({p, reason_for(p, key, summary, run)});
    else if (it.value().is_object()) walk(it.value(), p, summary, run, out);
  }
}

}  // namespace

std::vector<Unknown> find_unknowns(const nlohmann::json& summary, const nlohmann::json& run) {
  std::vector<Unknown> out;
  walk(summary, "", summary, run, out);
  return out;
}

}  // namespace pictor::report::html
