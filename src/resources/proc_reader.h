// Reads the /proc files of the processes a session watches, tolerating what /proc does while
// processes come and go: a process that exits between two reads is "gone", not an error; its
// children are found through /proc/PID/task/TID/children (or, on kernels without that file, a
// scan of every /proc/PID/stat for its ppid). The root is a parameter so tests read fixtures.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "resources/proc_parse.h"

namespace pictor::resources {

// One process (or one thread) as read at one instant: cumulative counters as the kernel keeps them.
struct ProcessReading {
  PidStat stat;
  PidStatus status;
  PidIo io;
};

class ProcFs {
 public:
  explicit ProcFs(std::string root = "/proc");
  const std::string& root() const { return root_; }

  // The text of ROOT/RELATIVE, or nullopt when it cannot be read (it vanished, it is not ours).
  // At most 64 KiB: every file read here is far smaller.
  std::optional<std::string> read(const std::string& relative) const;

  // pid's stat, status and io; nullopt when the process is gone (its stat unreadable or cut short).
  // A status or io that vanished after the stat leaves those fields empty.
  std::optional<ProcessReading> process(pid_t pid) const;
  // One thread of pid (ROOT/PID/task/TID/…); io is the process's (the kernel keeps no per-thread io
  // in older kernels): left empty.
  std::optional<ProcessReading> thread(pid_t pid, pid_t tid) const;
  // The thread ids of pid (empty when it is gone).
  std::vector<pid_t> threads(pid_t pid) const;
  // Every descendant of pid, parents before their children (pid itself not included).
  std::vector<pid_t> descendants(pid_t pid) const;

  std::vector<CpuTimes> cpus() const;
  MemInfo memory() const;
  std::optional<LoadAvg> load() const;

 private:
  std::vector<pid_t> children(pid_t pid) const;
  std::vector<pid_t> children_by_scan(pid_t pid) const;
  std::string root_;
};

}  // namespace pictor::resources
