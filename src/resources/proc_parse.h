// Parsers of the /proc files the resource sampler reads (proc(5)): pure functions of the text, so
// a file cut short by a process that exited mid-read, or a comm full of spaces and parentheses,
// is a unit test, not a race. Each returns what it could read; a file too short for its fields
// gives nullopt or empty fields, never a zero that was not in it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pictor::resources {

// /proc/PID/stat (or /proc/PID/task/TID/stat): the fields the sampler uses. Times in clock ticks
// (sysconf(_SC_CLK_TCK)).
struct PidStat {
  int pid = 0;
  std::string comm;            // between the first '(' and the last ')': it may hold both, and spaces
  char state = '?';
  int ppid = 0;
  std::uint64_t minor_faults = 0, major_faults = 0;
  std::uint64_t utime_ticks = 0, stime_ticks = 0;
  std::int64_t threads = 0;
  std::uint64_t start_ticks = 0;  // since boot: tells a reused pid from the process first seen
  std::int64_t rss_pages = 0;
};
// nullopt when the text is not a whole stat line (empty: the process vanished; cut short).
std::optional<PidStat> parse_pid_stat(std::string_view text);

// /proc/PID/status: the lines the sampler uses; each nullopt when absent (a kernel thread has no
// VmRSS; a file cut short lacks its tail).
struct PidStatus {
  std::optional<std::int64_t> rss_kb, threads, voluntary_switches, involuntary_switches;
};
PidStatus parse_pid_status(std::string_view text);

// /proc/PID/io: storage bytes (read_bytes, write_bytes) and all bytes through read/write (rchar,
// wchar). Only the owner (or CAP_SYS_PTRACE) may read it: the caller keeps the fields empty then.
struct PidIo {
  std::optional<std::uint64_t> read_bytes, write_bytes, rchar, wchar;
};
PidIo parse_pid_io(std::string_view text);

// One cpu line of /proc/stat, in ticks.
struct CpuTimes {
  std::string name;  // "cpu" (all), "cpu0", …
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  std::uint64_t busy() const { return user + nice + system + irq + softirq; }
  std::uint64_t total() const { return busy() + idle + iowait + steal; }
};
// Every cpu line, the aggregate first; a line cut short is left out.
std::vector<CpuTimes> parse_proc_stat(std::string_view text);

struct MemInfo {
  std::optional<std::int64_t> total_kb, available_kb;
};
MemInfo parse_meminfo(std::string_view text);

struct LoadAvg {
  double load1 = 0, load5 = 0, load15 = 0;
};
std::optional<LoadAvg> parse_loadavg(std::string_view text);

// /proc/PID/task/TID/children: space-separated pids (empty text: none).
std::vector<int> parse_children(std::string_view text);

}  // namespace pictor::resources
