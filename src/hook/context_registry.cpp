#include "hook/context_registry.h"

#include <new>

#include "hook/config.h"
#include "hook/overlay.h"

namespace pictor::hook {

namespace {
constexpr int kMaxContexts = 64;
ContextState g_contexts[kMaxContexts];
std::atomic<std::uint16_t> g_next_id{0};
thread_local ContextState* t_current = nullptr;
}  // namespace

ContextState* context_state(void* context, Api api) noexcept {
  if (!context) return nullptr;
  for (auto& c : g_contexts)
    if (c.key.load(std::memory_order_acquire) == context) return &c;
  for (auto& c : g_contexts) {
    void* expected = nullptr;
    if (c.key.compare_exchange_strong(expected, context, std::memory_order_acq_rel)) {
      c.id = next_context_id();
      c.api = api;
      c.frame = 0;
      c.gpu_initialised = false;
      c.gpu.~GpuTimer();
      new (&c.gpu) GpuTimer();
      c.marker_fns = {};
      // A reused slot: the GL objects of its previous context died with that context.
      c.marker_blit = tag::MarkerBlitter{};
      overlay_reset(c);
      return &c;
    }
  }
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line("more than %d GL contexts: extra ones are not timed", kMaxContexts);
  return nullptr;
}

void release_context(void* context) noexcept {
  if (!context) return;
  for (auto& c : g_contexts) {
    void* expected = context;
    if (c.key.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
      if (t_current == &c) t_current = nullptr;
      return;
    }
  }
}

std::uint16_t next_context_id() noexcept { return g_next_id.fetch_add(1, std::memory_order_relaxed); }

ContextState*& current_context() noexcept { return t_current; }

}  // namespace pictor::hook
