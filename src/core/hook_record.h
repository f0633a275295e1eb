// The versioned record the interposer's render-thread hooks push to its writer thread. Fixed
// size and trivially copyable; bump kHookRecordVersion when the layout changes.
#pragma once
#include <cstdint>

namespace pictor {

inline constexpr std::uint16_t kHookRecordVersion = 1;

enum class HookRecordKind : std::uint16_t {
  frame = 1,  // a swap: timestamps of the call
  gpu = 2,    // a timer-query result for an earlier frame
  input = 3,  // a tracked input event the app read: frame = detail, value = tag, swap_ns = read time,
              // flags = X event type
};

enum HookRecordFlags : std::uint16_t {
  // frame: a GPU timer query covers this frame, its result follows as a gpu record.
  kGpuPending = 1,
};

struct HookRecord {
  std::uint16_t version = kHookRecordVersion;
  HookRecordKind kind = HookRecordKind::frame;
  std::uint16_t ctx = 0;       // small per-process context number
  std::uint16_t flags = 0;     // HookRecordFlags
  std::uint64_t frame = 0;     // per-context frame index from 0
  std::int64_t swap_ns = 0;    // frame: CLOCK_MONOTONIC at the swap call
  std::int64_t return_ns = 0;  // frame: when the real swap returned
  std::int64_t value = -1;     // gpu: elapsed GPU ns; frame: tag carried (-1 none)
  std::int64_t fc_ns = -1;     // frame: frame-copy time if measured, else -1
};
static_assert(sizeof(HookRecord) == 48, "record layout is part of the hook format");

}  // namespace pictor
