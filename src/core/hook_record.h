// The versioned record the interposer's render-thread hooks push to its writer thread. Fixed
// size and trivially copyable; bump kHookRecordVersion when the layout changes.
#pragma once
#include <cstdint>

namespace pictor {

// 2: the frame copy's and the put's start and end (render mode offload, docs/offload.md).
inline constexpr std::uint16_t kHookRecordVersion = 2;

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
  std::int64_t fc_ns = -1;     // frame: the app thread's time in the frame copy (FC) if one ran, else -1
  // frame, offload only (else -1): the copy from the GPU began / the pixels were in CPU memory,
  // and the put into the X server (AS) began / ended. With PICTOR_FRAME_COPY=async the copy
  // ends and the put happens at a later swap than the frame's own.
  std::int64_t fc_start_ns = -1;
  std::int64_t fc_end_ns = -1;
  std::int64_t as_start_ns = -1;
  std::int64_t as_end_ns = -1;
};
static_assert(sizeof(HookRecord) == 80, "record layout is part of the hook format");

}  // namespace pictor
