// Child processes that Pictor starts and must always stop: spawn with an environment, in their own
// process group, killed with the group on stop; the parent's death takes them down too.
#pragma once
#include <sys/types.h>

#include <cstdint>

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

// Who ended a process, as far as Pictor can tell: its own stop, the process itself (an exit, or a
// crash signal such as SIGSEGV or SIGABRT), or a signal Pictor did not send (another process, the
// kernel's OOM killer).
enum class EndedBy { running, pictor, itself, outside };
const char* ended_by_name(EndedBy e);  // "pictor", "itself", "outside" ("running" while it runs)
// True for the signals a process raises on itself when it crashes (SIGSEGV, SIGBUS, SIGABRT, …).
bool is_crash_signal(int sig);
// "SIGKILL"
std::string signal_name(int sig);

struct SpawnOptions {
  std::vector<std::string> argv;
  // Variables set (or overridden) on top of the current environment; an empty value unsets.
  std::map<std::string, std::string> env;
  // Redirect stdout/stderr to these files (append); empty = inherit.
  std::string stdout_path, stderr_path;
  // Extra file descriptor (child side) kept open, e.g. for Xvfb's -displayfd.
  int keep_fd = -1;
  // >= 0: keep_fd is moved to this number in the child (a container engine passes fds from 3 on).
  int keep_fd_as = -1;
  // The process's name for run.json and messages; empty: argv[0] (a container's `podman exec`
  // names the program it runs inside).
  std::string name;
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

  // The process's pid as the host sees it: the program inside a container once adopt_inner()
  // named it, else the spawned child.
  pid_t pid() const { return inner_ > 0 ? inner_ : pid_; }
  // A spawned launcher (`podman exec`) that runs the real program elsewhere and does not pass
  // signals on: from now on pid(), suspended() and every signal of stop() go to `inner` (its host
  // pid) too; the launcher's exit is still the process's end.
  void adopt_inner(pid_t inner) { inner_ = inner; }
  bool running();
  // Waits up to timeout_s (negative: forever); returns the status once exited.
  std::optional<ExitStatus> wait_for(double timeout_s);
  // SIGTERM to the group, then SIGKILL after grace_s; returns the final status. A process that had
  // already ended is only reaped (and its group's leftovers killed): it was not Pictor's stop.
  ExitStatus stop(double grace_s = 2.0);
  // Sends a signal to the whole group.
  void signal_group(int sig);
  const std::optional<ExitStatus>& status() const { return status_; }
  const std::string& name() const { return name_; }
  // Suspended (SIGSTOP, SIGTSTP, a debugger): it runs no code, answers nothing, yet is not dead.
  bool suspended() const;

  // How it ended (see EndedBy), from what Pictor sent it and how it ended.
  EndedBy ended_by() const;
  // CLOCK_MONOTONIC ns when Pictor saw it had ended (it was reaped); 0 while it runs.
  std::int64_t ended_ns() const { return ended_ns_; }
  // The last signal Pictor's stop sent it before it ended (SIGTERM, SIGKILL), 0 when none.
  int stop_signal() const { return stop_signal_; }
  double stop_grace_s() const { return grace_s_; }
  // Seen suspended when Pictor began to stop it.
  bool was_suspended() const { return was_suspended_; }

 private:
  void reaped(int raw);
  pid_t pid_ = -1;
  pid_t inner_ = -1;
  std::string name_;
  std::optional<ExitStatus> status_;
  std::int64_t ended_ns_ = 0;
  int stop_signal_ = 0;
  double grace_s_ = 0;
  bool was_suspended_ = false;
};

using pictor::find_executable;  // core/exec.h

}  // namespace pictor::runner
