// A test run disturbed from outside the benchmark (issue 22, docs/mark.md "Disturbed runs").
//
// Measured on a quiet 2-vCPU VM (docs/performance.md, "Five runs on a quiet machine"): the ten
// ramps of an undisturbed 30 s test find their change points within about ±15 % of each other
// (CV 6–29 % over ramps 2…), while a run during which something outside the benchmark took the
// CPUs scatters them over an order of magnitude (CV 33–71 %) and its pooled score drops to a
// third or less. MotionMark pools every ramp into one regression and cannot tell the two apart.
// Pictor judges each test by its own ramps, records what it found, and by default runs a
// disturbed test again (a departure from MotionMark's protocol, never from its arithmetic).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mark/controller.h"

namespace pictor::mark {

// Above this CV of the later ramps' change points a run is disturbed.
constexpr double kDisturbedRampCv = 0.30;
// The first ramp is left out (it can carry warm-up: Suits' first ramp finds 0.18 of the others);
// fewer than this many later ramps (durations under 12 s) give no verdict.
constexpr std::size_t kMinLaterRamps = 3;

// CV (sample sd / mean) of the change points of ramps 2…; nullopt with fewer than kMinLaterRamps
// of them or a mean that is not positive.
std::optional<double> later_ramps_cv(const std::vector<RampRecord>& ramps);

// Seconds of CPU the hypervisor gave to others (/proc/stat's steal, all CPUs) since boot;
// nullopt where the kernel does not report it.
std::optional<double> cpu_steal_seconds();

// The CPU's speed as this thread sees it: milliseconds of the thread's own CPU time
// (CLOCK_THREAD_CPUTIME_ID) that a fixed chain of 2^23 dependent integer multiply-xorshift steps
// takes (~20-30 ms on the 2-vCPU VMs here). Preemption inside the guest does not count (the
// thread is not running); a vCPU the hypervisor runs slower or deschedules without reporting
// steal does — which is what a rise of the same workload's time between two runs shows.
// nullopt when the clock is unavailable.
std::optional<double> cpu_probe_ms();

// The memory system's speed as this thread sees it: milliseconds of thread CPU time that summing
// a 64 MiB buffer (far beyond any last-level cache here) four times takes, ~20-40 ms here.
// llvmpipe's rasterisation streams the framebuffer and its textures through memory, so a host
// whose other guests saturate the memory bus can slow the renderer while the integer probe above
// stays flat; a rise of this one between runs shows it. The buffer is allocated and touched once
// per process (its page faults are not timed). nullopt when the clock or the memory is unavailable.
std::optional<double> memory_probe_ms();

// What one attempt of a test found.
struct AttemptVerdict {
  std::optional<double> ramp_cv;
  bool disturbed = false;
  std::optional<double> cpu_steal_s;  // during the attempt
  // cpu_probe_ms() just before and just after the attempt.
  std::optional<double> cpu_probe_before_ms, cpu_probe_after_ms;
  // memory_probe_ms() just before and just after the attempt.
  std::optional<double> memory_probe_before_ms, memory_probe_after_ms;
};

// Runs `attempt` until it returns an undisturbed verdict or `retries` more attempts are spent.
// Returns the index of the attempt to keep: the first undisturbed one, else the one with the
// smallest ramp CV (the least disturbed).
std::size_t pick_attempt(int retries, const std::function<AttemptVerdict()>& attempt, std::vector<AttemptVerdict>& verdicts);

}  // namespace pictor::mark
