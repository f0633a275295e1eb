#include "hook/vk_gpu_timer.h"

#include "core/hook_record.h"
#include "hook/vk_layer.h"
#include "hook/writer.h"

namespace pictor::hook::vk {

bool FrameTimer::init(Device& d, VkQueue queue, std::uint32_t family) noexcept {
  if (state_.load(std::memory_order_acquire) != State::unknown) return usable();
  const auto fail = [&](const char* why) {
    reason_ = why;
    state_.store(State::unavailable, std::memory_order_release);
    return false;
  };
  if (family >= d.family_count) return fail("the presenting queue's family is unknown");
  valid_bits_ = d.families[family].timestampValidBits;
  if (valid_bits_ == 0) return fail("the presenting queue's family has no timestamps (timestampValidBits 0)");
  period_ns_ = d.properties.limits.timestampPeriod;
  if (!(period_ns_ > 0.f)) return fail("the device reports no timestamp period");
  const DeviceFns& f = d.fn;
  if (!f.CreateQueryPool || !f.CmdWriteTimestamp || !f.CmdResetQueryPool || !f.GetQueryPoolResults ||
      !f.CreateCommandPool || !f.AllocateCommandBuffers || !d.set_loader_data)
    return fail("timestamp entry points missing");

  auto qi = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = 2 * kSlots;
  if (f.CreateQueryPool(d.handle, &qi, nullptr, &queries_) != VK_SUCCESS) return fail("cannot create a query pool");
  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.queueFamilyIndex = family;
  if (f.CreateCommandPool(d.handle, &pi, nullptr, &pool_) != VK_SUCCESS) {
    f.DestroyQueryPool(d.handle, queries_, nullptr);
    queries_ = VK_NULL_HANDLE;
    return fail("cannot create a command pool");
  }
  VkCommandBuffer cmds[2 * kSlots] = {};
  auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 2 * kSlots;
  bool ok = f.AllocateCommandBuffers(d.handle, &ai, cmds) == VK_SUCCESS;
  // Recorded once and submitted again at every use of their slot. A slot is reused only after its
  // result was read, except after a failed end submission; simultaneous use keeps that valid too.
  auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  for (int i = 0; ok && i < kSlots; ++i) {
    Slot& s = slots_[i];
    s.start = cmds[2 * i];
    s.end = cmds[2 * i + 1];
    const auto q = static_cast<std::uint32_t>(2 * i);
    ok = d.set_loader_data(d.handle, s.start) == VK_SUCCESS && d.set_loader_data(d.handle, s.end) == VK_SUCCESS &&
         f.BeginCommandBuffer(s.start, &bi) == VK_SUCCESS;
    if (!ok) break;
    f.CmdResetQueryPool(s.start, queries_, q, 2);
    f.CmdWriteTimestamp(s.start, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_, q);
    ok = f.EndCommandBuffer(s.start) == VK_SUCCESS && f.BeginCommandBuffer(s.end, &bi) == VK_SUCCESS;
    if (!ok) break;
    f.CmdWriteTimestamp(s.end, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, q + 1);
    ok = f.EndCommandBuffer(s.end) == VK_SUCCESS;
  }
  if (!ok) {
    f.DestroyCommandPool(d.handle, pool_, nullptr);
    f.DestroyQueryPool(d.handle, queries_, nullptr);
    pool_ = VK_NULL_HANDLE;
    queries_ = VK_NULL_HANDLE;
    return fail("cannot record the timestamp command buffers");
  }
  queue_ = queue;
  reason_ = "Vulkan timestamp queries";
  state_.store(State::ok, std::memory_order_release);
  return true;
}

bool FrameTimer::submit_one(Device& d, VkCommandBuffer cmd) noexcept {
  auto s = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  s.commandBufferCount = 1;
  s.pCommandBuffers = &cmd;
  return d.fn.QueueSubmit(queue_, 1, &s, VK_NULL_HANDLE) == VK_SUCCESS;
}

void FrameTimer::before_submit(Device& d, VkQueue queue) noexcept {
  if (!usable() || queue != queue_ || open_ >= 0 || tried_) return;
  tried_ = true;
  if (slots_[next_].pending) return;  // its result is not read yet: this frame goes untimed
  if (!submit_one(d, slots_[next_].start)) return;
  open_ = next_;
  next_ = (next_ + 1) % kSlots;
}

bool FrameTimer::end_frame(Device& d, VkQueue queue, std::uint16_t ctx, std::uint64_t frame) noexcept {
  if (!usable() || queue != queue_) return false;
  tried_ = false;
  if (open_ < 0) return false;
  Slot& s = slots_[open_];
  open_ = -1;
  if (!submit_one(d, s.end)) return false;  // the slot's start is overwritten at its next use
  s.pending = true;
  s.ctx = ctx;
  s.frame = frame;
  return true;
}

bool FrameTimer::read_oldest(Device& d) noexcept {
  Slot& s = slots_[oldest_];
  if (!s.pending) return false;
  std::uint64_t t[2] = {0, 0};
  // No WAIT flag: VK_NOT_READY until both timestamps are in, and nothing blocks.
  const VkResult r = d.fn.GetQueryPoolResults(d.handle, queries_, static_cast<std::uint32_t>(2 * oldest_), 2, sizeof t,
                                              t, sizeof t[0], VK_QUERY_RESULT_64_BIT);
  if (r == VK_NOT_READY) return false;
  s.pending = false;
  oldest_ = (oldest_ + 1) % kSlots;
  if (r != VK_SUCCESS) return true;  // device lost or similar: the frame stays untimed
  HookRecord g;
  g.kind = HookRecordKind::gpu;
  g.ctx = s.ctx;
  g.frame = s.frame;
  g.value = timestamp_delta_ns(t[0], t[1], valid_bits_, period_ns_);
  push_record(g);
  return true;
}

void FrameTimer::collect(Device& d, VkQueue queue) noexcept {
  if (!usable() || queue != queue_) return;
  for (int n = 0; n < kSlots && read_oldest(d); ++n) {
  }
}

void FrameTimer::retire(Device& d) noexcept {
  if (!usable()) return;
  // The device is idle: every submitted pair is complete.
  for (int n = 0; n < kSlots; ++n) {
    if (!slots_[oldest_].pending) {
      oldest_ = (oldest_ + 1) % kSlots;
      continue;
    }
    read_oldest(d);
  }
  d.fn.DestroyCommandPool(d.handle, pool_, nullptr);
  d.fn.DestroyQueryPool(d.handle, queries_, nullptr);
  pool_ = VK_NULL_HANDLE;
  queries_ = VK_NULL_HANDLE;
  reason_ = "device destroyed";
  state_.store(State::unavailable, std::memory_order_release);
}

}  // namespace pictor::hook::vk
