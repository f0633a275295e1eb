// What a session could not write, and the one line that says so: pictor's own files after the
// run (summary.json, trace.json, …) and the rows the interposer and the proxy hook lost, as their
// hook.json / proxy.json `write_errors` report them. A full disk is named as the cause.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/files.h"

namespace pictor::runner {

// run.json keeps room for its last, larger version: on a full disk it is rewritten in place
// (docs/faults.md "Full disk").
inline constexpr files::WriteOptions kRunJsonWrite{.sync = true, .keep_room = 64 * 1024, .in_place_when_full = true};

class SessionWrites {
 public:
  explicit SessionWrites(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // A file pictor could not write (`what` names it: "summary.json", "frametime.png", …).
  void failed(const std::string& what, int error);
  void failed(const files::WriteError& e);
  // Writes a derived JSON file of the session; a failure is recorded, not thrown.
  bool json(const std::string& name, const nlohmann::json& j);

  // Reads the `write_errors` of a recorder's status file (hook.json, proxy.json).
  void add_recorder(const std::string& status_file, const nlohmann::json& status);
  // hook.json and every proxy*.json of the directory; `hook` when the interposer ran (a full disk
  // with no hook.json then leaves the frame rows lost unknown).
  void read_recorders(bool hook);

  // "the disk holding DIR is full (No space left on device): summary.json, trace.json not written,
  // 40 gpu.csv rows lost, 1234 frame rows lost" — or nullopt when every write went through.
  std::optional<std::string> verdict() const;
  // run.json `write_errors`: {"summary.json": {"error": "…"}, "frames.csv": {…from hook.json}}.
  nlohmann::json to_json() const;

 private:
  struct Lost {
    std::string file;
    std::string error;
    std::uint64_t rows = 0;
    nlohmann::json detail;
  };
  std::filesystem::path dir_;
  std::vector<std::pair<std::string, int>> own_;  // files pictor could not write
  std::vector<Lost> recorded_;                    // rows the recorders lost
  int first_error_ = 0;
  bool hook_ = false, hook_status_ = false;
};

// A derived file or record made after the status file (run.json, suite.json, mark.json) was
// written — report.html, the results database — that failed: adds {"error": ERROR, "written_by":
// "pictor"} under write_errors[WHAT] of STATUS_FILE and rewrites it. False when that cannot be
// done either (the file unreadable, the disk full): the caller's warning line is then all.
bool add_write_error(const std::filesystem::path& status_file, const std::string& what, const std::string& error);

}  // namespace pictor::runner
