// Per-context state of the interposer (frame counter, GPU timer), found without locks: a fixed
// table keyed by the GLX/EGL context handle, and a thread-local pointer to the current one.
#pragma once
#include <atomic>
#include <cstdint>

#include "hook/gpu_timer.h"
#include "tag/marker_blit.h"
#include "tag/marker_draw.h"

namespace pictor::hook {

struct OverlayState;  // hook/overlay.cpp

struct ContextState {
  std::atomic<void*> key{nullptr};
  std::uint16_t id = 0;
  Api api = Api::glx;
  std::uint64_t frame = 0;
  bool gpu_initialised = false;
  GpuTimer gpu;
  tag::GlClearFns marker_fns;  // resolved at the first swap; unusable = no marker
  tag::MarkerBlitter marker_blit;  // set up at the first swap where the context can blit
  OverlayState* overlay = nullptr;  // PICTOR_OVERLAY=1: allocated at the slot's first swap, kept
};

// The state of `context`, claimed on first sight; null when the table is full or context null.
ContextState* context_state(void* context, Api api) noexcept;
// Forgets a destroyed context (its slot can be reused by a new one).
void release_context(void* context) noexcept;

// A new frames.csv context number from the same counter as GL contexts (the Vulkan layer's
// surfaces take theirs here, so the numbers of one process never collide).
std::uint16_t next_context_id() noexcept;

// The context current on this thread as the hooks last saw it.
ContextState*& current_context() noexcept;

}  // namespace pictor::hook
