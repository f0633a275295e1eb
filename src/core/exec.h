// Finding programs and running short helper commands (tc, unshare, `Xvnc -version`) whose output
// Pictor reads. Long-lived children (the app, X servers) are runner::Process's business.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace pictor {

// The path of an executable: `program` itself when it names a path, else the first match in
// $PATH, then in `also_in` (e.g. /usr/sbin for tc, which is not on every user's PATH). Only
// regular files the caller may execute count.
std::optional<std::string> find_executable(const std::string& program, const std::vector<std::string>& also_in = {});

struct CommandOutput {
  int exit_code = -1;   // 128 + signal when killed; 127 when it could not be executed
  std::string output;   // stdout and stderr together, trailing newlines and spaces removed
};

// Runs argv (argv[0] a path, see find_executable) without a shell, waits for it and returns what
// it printed. Throws RunError when it cannot be started at all.
CommandOutput run_and_capture(const std::vector<std::string>& argv);

}  // namespace pictor
