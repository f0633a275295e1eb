// Per-process performance counters through perf_event_open (DESIGN §4, paper §5.1.3): software
// counters (task-clock, context switches, page faults) always, hardware ones (instructions,
// cycles, LLC references and misses, branch misses) where the CPU and kernel offer them. Event
// names are resolved by libpfm4, never hand-written codes. A counter the kernel refuses is kept
// with the errno and its meaning ("unavailable: ENOENT (…)"), never read as 0.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pictor::resources {

// The events, in the order of counters.csv: name (as written in the file), libpfm4's name, and
// whether it is a hardware event (unavailable in a VM without a virtual PMU).
struct CounterEvent {
  const char* name;
  const char* pfm_name;
  bool hardware;
};
inline constexpr CounterEvent kCounterEvents[] = {
    {"task-clock", "PERF_COUNT_SW_TASK_CLOCK", false},
    {"context-switches", "PERF_COUNT_SW_CONTEXT_SWITCHES", false},
    {"page-faults", "PERF_COUNT_SW_PAGE_FAULTS", false},
    {"instructions", "PERF_COUNT_HW_INSTRUCTIONS", true},
    {"cycles", "PERF_COUNT_HW_CPU_CYCLES", true},
    // The kernel's generic cache events count the last-level cache on x86 (perf_event_open(2)).
    {"llc-references", "PERF_COUNT_HW_CACHE_REFERENCES", true},
    {"llc-misses", "PERF_COUNT_HW_CACHE_MISSES", true},
    {"branch-misses", "PERF_COUNT_HW_BRANCH_MISSES", true},
};
// Top-down level 1 is one row per process, always "unavailable: …" in this version: either
// libpfm4 finds no top-down event for the machine's PMUs, or it finds them and the kernel's
// slots-led metric group they need is not read yet (docs/resources.md).
inline constexpr const char* kTopDownName = "topdown-l1";

// "ENOENT (No such file or directory: the kernel has no such event here — no hardware PMU, as in
// most VMs)": the errno's name, its text and what it means for perf_event_open.
std::string perf_errno_text(int error);

// One counter's reading: cumulative value scaled for multiplexing (value * enabled / running).
struct CounterReading {
  std::string event;
  std::optional<std::uint64_t> value;   // nullopt when unavailable
  std::uint64_t enabled_ns = 0, running_ns = 0;
  std::string unavailable;              // "unavailable: …" when not counted
  bool user_only = false;               // kernel counting was refused: user space only
};

// The counters of one process: one fd per event per thread that existed when it was opened, each
// inherited by the threads and children created after. Not thread-safe: the sampler's thread.
class ProcessCounters {
 public:
  ProcessCounters() = default;
  ProcessCounters(ProcessCounters&&) noexcept;
  ProcessCounters& operator=(ProcessCounters&&) noexcept;
  ProcessCounters(const ProcessCounters&) = delete;
  ProcessCounters& operator=(const ProcessCounters&) = delete;
  ~ProcessCounters();

  // Opens every event on pid's threads `tids`. Events the kernel refuses are kept with the reason.
  static ProcessCounters open(pid_t pid, const std::vector<pid_t>& tids);
  // Every event of kCounterEvents, then the top-down row.
  std::vector<CounterReading> read() const;

 private:
  struct Event {
    std::string name;
    std::vector<int> fds;
    std::string unavailable;
    bool user_only = false;
  };
  void close_all();
  std::vector<Event> events_;
};

}  // namespace pictor::resources
