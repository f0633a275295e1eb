#include "mark/disturbance.h"

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <memory>
#include <new>

#include "core/files.h"
#include "mark/stats.h"
#include "resources/proc_parse.h"

namespace pictor::mark {

std::optional<double> later_ramps_cv(const std::vector<RampRecord>& ramps) {
  if (ramps.size() < kMinLaterRamps + 1) return std::nullopt;
  RunningStats change_points;
  for (std::size_t i = 1; i < ramps.size(); ++i) change_points.sample(ramps[i].regression.change_point);
  if (!(change_points.mean() > 0)) return std::nullopt;
  return change_points.stdev() / change_points.mean();
}

std::optional<double> cpu_steal_seconds() {
  const auto text = files::read_file_if_exists("/proc/stat");
  if (!text) return std::nullopt;
  const auto cpus = resources::parse_proc_stat(*text);
  const long hz = sysconf(_SC_CLK_TCK);
  if (cpus.empty() || cpus.front().name != "cpu" || hz <= 0) return std::nullopt;
  return static_cast<double>(cpus.front().steal) / static_cast<double>(hz);
}

std::optional<double> cpu_probe_ms() {
  timespec a{}, b{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a) != 0) return std::nullopt;
  // A dependent chain: every step needs the last one's result, so neither the compiler nor the
  // CPU can overlap or skip steps; the empty asm makes the result (and so the loop) used.
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t i = 0; i < (1U << 23); ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  asm volatile("" : : "r"(x));
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b) != 0) return std::nullopt;
  return static_cast<double>(b.tv_sec - a.tv_sec) * 1e3 + static_cast<double>(b.tv_nsec - a.tv_nsec) / 1e6;
}

std::optional<double> memory_probe_ms() {
  constexpr std::size_t kWords = (std::size_t{64} << 20) / sizeof(std::uint64_t);
  static const std::unique_ptr<std::uint64_t[]> buffer = [] {
    std::unique_ptr<std::uint64_t[]> b(new (std::nothrow) std::uint64_t[kWords]);
    if (b)
      for (std::size_t i = 0; i < kWords; ++i) b[i] = i * 0x9e3779b97f4a7c15ULL;
    return b;
  }();
  if (!buffer) return std::nullopt;
  timespec a{}, b{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a) != 0) return std::nullopt;
  std::uint64_t sum = 0;
  for (int pass = 0; pass < 4; ++pass) {
    const std::uint64_t* p = buffer.get();
    for (std::size_t i = 0; i < kWords; ++i) sum += p[i];
    asm volatile("" : "+r"(sum) : : "memory");  // each pass reads the buffer again
  }
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b) != 0) return std::nullopt;
  return static_cast<double>(b.tv_sec - a.tv_sec) * 1e3 + static_cast<double>(b.tv_nsec - a.tv_nsec) / 1e6;
}

std::size_t pick_attempt(int retries, const std::function<AttemptVerdict()>& attempt, std::vector<AttemptVerdict>& verdicts) {
  verdicts.clear();
  for (int k = 0; k <= retries; ++k) {
    verdicts.push_back(attempt());
    if (!verdicts.back().disturbed) return verdicts.size() - 1;
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < verdicts.size(); ++i)
    if (verdicts[i].ramp_cv.value_or(INFINITY) < verdicts[best].ramp_cv.value_or(INFINITY)) best = i;
  return best;
}

}  // namespace pictor::mark
