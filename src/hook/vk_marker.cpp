#include "hook/vk_marker.h"

#include "hook/config.h"
#include "hook/vk_layer.h"
#include "tag/marker_code.h"
#include "tag/marker_layout.h"

namespace pictor::hook::vk {

namespace {

constexpr int kRegions = MarkerPass::kSlots * MarkerPass::kMaxSwapchains;

int host_coherent_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t allowed) {
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) return static_cast<int>(i);
  return -1;
}

VkImageMemoryBarrier image_barrier(VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                                   VkAccessFlags dst) {
  auto b = vk_struct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return b;
}

}  // namespace

void MarkerPass::disable(const char* why) noexcept {
  reason_ = why;
  if (usable_.exchange(false)) log_line("Vulkan: %s: frames carry no marker from now on", why);
}

bool MarkerPass::init(Device& d, std::uint32_t family) noexcept {
  const DeviceFns& f = d.fn;
  const auto fail = [&](const char* why) {
    reason_ = why;
    log_line("Vulkan: %s: frames carry no marker", why);
    return false;
  };
  if (family >= d.family_count) return fail("the presenting queue's family is unknown");
  // vkCmdCopyBufferToImage needs a transfer-capable queue (graphics and compute ones are).
  if (!(d.families[family].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT)))
    return fail("the presenting queue cannot run transfers");
  if (!f.CreateBuffer || !f.AllocateMemory || !f.MapMemory || !f.CmdCopyBufferToImage || !f.CmdPipelineBarrier ||
      !f.CreateFence || !f.GetFenceStatus || !f.ResetFences || !d.set_loader_data)
    return fail("transfer entry points missing");

  auto bi = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.size = static_cast<VkDeviceSize>(kRegions) * kRegionBytes;
  bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (f.CreateBuffer(d.handle, &bi, nullptr, &staging_) != VK_SUCCESS) return fail("cannot create the staging buffer");
  VkMemoryRequirements req{};
  f.GetBufferMemoryRequirements(d.handle, staging_, &req);
  const int type = host_coherent_type(d.memory, req.memoryTypeBits);
  auto mi = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mi.allocationSize = req.size;
  mi.memoryTypeIndex = static_cast<std::uint32_t>(type);
  void* mapped = nullptr;
  if (type < 0 || f.AllocateMemory(d.handle, &mi, nullptr, &memory_) != VK_SUCCESS ||
      f.BindBufferMemory(d.handle, staging_, memory_, 0) != VK_SUCCESS ||
      f.MapMemory(d.handle, memory_, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) {
    retire(d);
    return fail("no host-visible memory for the staging buffer");
  }
  mapped_ = static_cast<std::uint8_t*>(mapped);

  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = family;
  VkCommandBuffer cmds[kSlots] = {};
  auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = kSlots;
  bool ok = f.CreateCommandPool(d.handle, &pi, nullptr, &pool_) == VK_SUCCESS;
  ai.commandPool = pool_;
  ok = ok && f.AllocateCommandBuffers(d.handle, &ai, cmds) == VK_SUCCESS;
  // Signalled at creation: every slot starts free.
  auto fi = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  fi.flags = VK_FENCE_CREATE_SIGNALED_BIT;
  for (int i = 0; ok && i < kSlots; ++i) {
    slots_[i].cmd = cmds[i];
    ok = d.set_loader_data(d.handle, cmds[i]) == VK_SUCCESS &&
         f.CreateFence(d.handle, &fi, nullptr, &slots_[i].fence) == VK_SUCCESS;
  }
  if (!ok) {
    retire(d);
    return fail("cannot create the marker's command buffers");
  }
  family_ = family;
  reason_ = "transfer copy before present";
  usable_.store(true, std::memory_order_release);
  return true;
}

std::uint32_t MarkerPass::submit(Device& d, VkQueue queue, const VkPresentInfoKHR& info, Swapchain* const* chains,
                                 std::uint32_t count, std::uint64_t tag, VkSemaphore* waits) noexcept {
  if (!usable() || info.waitSemaphoreCount > kMaxWaits) return 0;
  if (family_of(d, queue) != family_) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true)) log_line("Vulkan: a present on a queue of another family carries no marker");
    return 0;
  }
  // Which images get one, and their semaphores, before anything is recorded.
  std::uint32_t marked[kMaxSwapchains];
  std::uint32_t n = 0;
  for (std::uint32_t k = 0; k < count && k < kMaxSwapchains; ++k) {
    const Swapchain* sc = chains[k];
    if (!sc || !sc->texels.bytes || !info.pImageIndices || info.pImageIndices[k] >= sc->image_count) continue;
    waits[n] = sc->done[info.pImageIndices[k]];
    marked[n++] = k;
  }
  if (n == 0) return 0;
  // Presents on two queues of the device at once: the second goes without a marker, never waits.
  if (busy_.test_and_set(std::memory_order_acquire)) return 0;
  const DeviceFns& f = d.fn;
  Slot& slot = slots_[next_];
  if (f.GetFenceStatus(d.handle, slot.fence) != VK_SUCCESS) {
    // Eight presents in flight: this frame goes without a marker rather than waiting.
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true)) log_line("Vulkan: marker slots all in flight: a frame went without a marker");
    busy_.clear(std::memory_order_release);
    return 0;
  }
  auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (f.ResetCommandBuffer(slot.cmd, 0) != VK_SUCCESS || f.BeginCommandBuffer(slot.cmd, &bi) != VK_SUCCESS) {
    busy_.clear(std::memory_order_release);
    disable("cannot record the marker");
    return 0;
  }
  const auto corner = static_cast<tag::Corner>(config().marker_corner);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t k = marked[i];
    const Swapchain& sc = *chains[k];
    const VkImage image = sc.images[info.pImageIndices[k]];
    const int w = static_cast<int>(sc.extent.width), h = static_cast<int>(sc.extent.height);
    const tag::MarkerLayout layout = tag::layout(tag::make_payload(tag, sc.surface->frame), w, h, corner);
    const std::size_t offset = static_cast<std::size_t>(next_ * kMaxSwapchains + static_cast<int>(k)) * kRegionBytes;
    // An image smaller than the marker gets none; its semaphore is still signalled below.
    if (!paint_marker_block(layout, w, h, corner, sc.texels, mapped_ + offset)) continue;
    const tag::PixelPoint origin = marker_block_origin(w, h, corner);
    // After everything before it on the queue (the present's semaphores cover other queues).
    VkImageMemoryBarrier to_copy =
        image_barrier(image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    f.CmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &to_copy);
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.bufferRowLength = static_cast<std::uint32_t>(tag::kMarkerWidth);
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageOffset = {origin.x, origin.y, 0};
    region.imageExtent = {static_cast<std::uint32_t>(tag::kMarkerWidth), static_cast<std::uint32_t>(tag::kMarkerHeight),
                          1};
    f.CmdCopyBufferToImage(slot.cmd, staging_, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    VkImageMemoryBarrier to_present = image_barrier(image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                                    VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_WRITE_BIT, 0);
    f.CmdPipelineBarrier(slot.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &to_present);
  }
  if (f.EndCommandBuffer(slot.cmd) != VK_SUCCESS) {
    busy_.clear(std::memory_order_release);
    disable("cannot record the marker");
    return 0;
  }
  VkPipelineStageFlags stages[kMaxWaits];
  for (auto& s : stages) s = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  auto si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.waitSemaphoreCount = info.waitSemaphoreCount;
  si.pWaitSemaphores = info.pWaitSemaphores;
  si.pWaitDstStageMask = stages;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &slot.cmd;
  si.signalSemaphoreCount = n;
  si.pSignalSemaphores = waits;
  f.ResetFences(d.handle, 1, &slot.fence);
  const VkResult r = f.QueueSubmit(queue, 1, &si, slot.fence);
  next_ = (next_ + 1) % kSlots;
  busy_.clear(std::memory_order_release);
  if (r != VK_SUCCESS) {
    // The fence will never signal: this slot is lost, and so is the marker.
    disable("the marker's submission failed");
    return 0;
  }
  return n;
}

void MarkerPass::retire(Device& d) noexcept {
  usable_.store(false, std::memory_order_release);
  const DeviceFns& f = d.fn;
  for (auto& s : slots_) {
    if (s.fence) f.DestroyFence(d.handle, s.fence, nullptr);
    s = Slot{};
  }
  if (pool_) f.DestroyCommandPool(d.handle, pool_, nullptr);
  if (staging_) f.DestroyBuffer(d.handle, staging_, nullptr);
  if (memory_) f.FreeMemory(d.handle, memory_, nullptr);  // unmaps it
  pool_ = VK_NULL_HANDLE;
  staging_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

}  // namespace pictor::hook::vk
