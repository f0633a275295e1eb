// The one clock every Pictor record uses: CLOCK_MONOTONIC in nanoseconds, so records written by
// the interposer, the client and the runner on one machine can be compared directly.
#pragma once
#include <cstdint>
#include <ctime>

namespace pictor {

inline int64_t monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace pictor
