#include "hook/input_tracker.h"

#include <atomic>

#include "core/clock.h"
#include "hook/config.h"
#include "hook/overlay.h"
#include "hook/writer.h"

namespace pictor::hook {
namespace {

std::atomic<std::uint64_t> g_tag{0};
std::atomic<std::uint64_t> g_motion{0};
std::atomic<std::int64_t> g_last_input{0};
// The identities of the last tracked events seen, so a peek followed by the read (or repeated
// XCheckIfEvent scans) counts once. Lock-free; a lost race can only mean a missed dedupe.
constexpr int kRecent = 32;
std::atomic<std::uint64_t> g_recent[kRecent];
std::atomic<unsigned> g_recent_next{0};

bool seen_before(std::uint64_t identity) noexcept {
  for (const auto& r : g_recent)
    if (r.load(std::memory_order_relaxed) == identity) return true;
  g_recent[g_recent_next.fetch_add(1, std::memory_order_relaxed) % kRecent].store(identity, std::memory_order_relaxed);
  return false;
}

}  // namespace

void note_input(int type, std::uint32_t detail, std::uint64_t identity, bool overlay_key) noexcept {
  if (!config().active) return;
  if (type == kXMotionNotify) {
    if (config().recording) g_motion.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (type < kXKeyPress || type > kXButtonRelease) return;
  if (identity == 0) identity = 1;  // 0 marks an empty slot
  if (seen_before(identity)) return;
  const std::int64_t now = monotonic_ns();
  g_last_input.store(now, std::memory_order_relaxed);
  if (overlay_key) overlay_toggle();
  if (!config().recording) return;
  const std::uint64_t tag = g_tag.fetch_add(1, std::memory_order_acq_rel) + 1;
  HookRecord r;
  r.kind = HookRecordKind::input;
  r.flags = static_cast<std::uint16_t>(type);
  r.frame = detail;
  r.value = static_cast<std::int64_t>(tag);
  r.swap_ns = now;
  r.return_ns = now;
  push_record(r);
}

std::uint64_t current_tag() noexcept { return g_tag.load(std::memory_order_acquire); }
std::int64_t last_input_ns() noexcept { return g_last_input.load(std::memory_order_relaxed); }
std::uint64_t motion_events() noexcept { return g_motion.load(std::memory_order_relaxed); }

}  // namespace pictor::hook
