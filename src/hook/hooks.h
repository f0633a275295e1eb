// What every swap hook does around the real swap, whatever API it came through, plus the
// context bookkeeping shared by the make-current/destroy hooks of GLX and EGL.
#pragma once
#include <cstdint>

#include "core/hook_record.h"
#include "hook/context_registry.h"

namespace pictor::hook {

// An offloaded frame's copy (FC) and put into X (AS), CLOCK_MONOTONIC ns; -1 = did not happen.
struct CopyTimes {
  std::int64_t fc_start_ns = -1;
  std::int64_t fc_end_ns = -1;
  std::int64_t fc_busy_ns = -1;  // the app thread's time in the copy (all its parts)
  std::int64_t as_start_ns = -1;
  std::int64_t as_end_ns = -1;
};

// A frame record held back until its copy has ended (PICTOR_FRAME_COPY=async): after_swap
// fills it, the copy pushes it with its times (frame_copy.cpp).
struct DeferredFrame {
  HookRecord record;
  bool held = false;
};

struct SwapScope {
  ContextState* ctx = nullptr;
  std::int64_t t_call = 0;
  bool gpu_timed = false;
  std::uint64_t tag = 0;  // the input tag this frame carries (0: no input read yet)
  CopyTimes copy;                  // offload: this frame's copy, when it ended within the swap
  DeferredFrame* defer = nullptr;  // offload async: where the record waits for its copy
};

// Before the real swap: timestamp, end this frame's GPU query (marker drawing goes here too).
SwapScope before_swap(Api api) noexcept;
// After the real swap: timestamp, collect GPU results, start the next query, push the record.
void after_swap(SwapScope& scope) noexcept;

// Around make-current: ends the outgoing context's query; then notes the new current context.
void before_unbind() noexcept;
void after_bind(void* context, Api api) noexcept;
// Before a context is destroyed.
void before_destroy(void* context) noexcept;
// Before XCloseDisplay: a GLX context current on that display goes with it.
void before_display_close(void* display) noexcept;

}  // namespace pictor::hook
