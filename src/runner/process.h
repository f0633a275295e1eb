// Child processes that Pictor starts and must always stop: spawn with an environment, in their own
// process group, killed with the group on stop; the parent's death takes them down too.
#pragma once
#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec.h"

namespace pictor::runner {

struct ExitStatus {
  bool exited = false;     // normal exit (code valid)
  int code = 0;            // exit code when exited
  int signal = 0;          // terminating signal when !exited
  std::string describe() const;  // "exit 0", "killed by SIGKILL"
};

struct SpawnOptions {
  std::vector<std::string> argv;
  // Variables set (or overridden) on top of the current environment; an empty value unsets.
  std::map<std::string, std::string> env;
  // Redirect stdout/stderr to these files (append); empty = inherit.
  std::string stdout_path, stderr_path;
  // Extra file descriptor (child side) kept open, e.g. for Xvfb's -displayfd.
  int keep_fd = -1;
};

class Process {
 public:
  // Throws pictor::RunError with the cause when the program cannot be started (not found, not
  // executable): the check happens in the child and is reported back through a pipe.
  static Process spawn(const SpawnOptions& options);
  Process() = default;
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();  // stops the process group if still running

  pid_t pid() const { return pid_; }
  bool running();
  // Waits up to timeout_s (negative: forever); returns the status once exited.
  std::optional<ExitStatus> wait_for(double timeout_s);
  // SIGTERM to the group, then SIGKILL after grace_s; returns the final status.
  ExitStatus stop(double grace_s = 2.0);
  // Sends a signal to the whole group.
  void signal_group(int sig);
  const std::optional<ExitStatus>& status() const { return status_; }
  const std::string& name() const { return name_; }

 private:
  pid_t pid_ = -1;
  std::string name_;
  std::optional<ExitStatus> status_;
};

using pictor::find_executable;  // core/exec.h

}  // namespace pictor::runner
