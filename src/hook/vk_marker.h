// Draws the tag marker into Vulkan swapchain images just before they are presented: a copy of
// the 64 x 32 marker block from a host-visible buffer (transfer only, no pipeline), in a command
// buffer of the layer's own that waits on the present's semaphores and signals one of ours.
#pragma once
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

namespace pictor::hook::vk {

struct Device;
struct Swapchain;

class MarkerPass {
 public:
  static constexpr int kSlots = 8;                  // presents with a marker in flight
  static constexpr int kMaxSwapchains = 4;          // swapchains of one present that get one
  static constexpr int kMaxWaits = 16;              // wait semaphores of one present
  static constexpr int kRegionBytes = 64 * 32 * 8;  // one marker block at 8 bytes per texel

  // At the first present: command pool for the presenting queue's family, command buffers,
  // fences, the staging buffer. False (reason() says why) when something is missing.
  bool init(Device& device, std::uint32_t family) noexcept;
  bool usable() const noexcept { return usable_.load(std::memory_order_acquire); }
  const char* reason() const noexcept { return reason_; }

  // Records and submits the marker of each swapchain in `chains` (null entries or swapchains
  // without marker support are skipped) for the present `info` on `queue`. Returns how many
  // semaphores it wrote to `waits` — the present must wait on those instead of its own — or 0
  // when it drew nothing (the present then goes unchanged). Never waits.
  std::uint32_t submit(Device& device, VkQueue queue, const VkPresentInfoKHR& info, Swapchain* const* chains,
                       std::uint32_t count, std::uint64_t tag, VkSemaphore* waits) noexcept;
  // The device is idle and about to go.
  void retire(Device& device) noexcept;

 private:
  struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;  // signalled when the slot's last submission completed
  };
  void disable(const char* why) noexcept;

  std::atomic<bool> usable_{false};
  std::atomic_flag busy_ = ATOMIC_FLAG_INIT;  // a present is recording (presents on two queues)
  const char* reason_ = "not initialised";
  std::uint32_t family_ = UINT32_MAX;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkBuffer staging_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint8_t* mapped_ = nullptr;
  Slot slots_[kSlots];
  int next_ = 0;
};

}  // namespace pictor::hook::vk
