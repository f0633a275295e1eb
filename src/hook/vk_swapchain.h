// Per-window state of the Vulkan layer: a surface is one frames.csv context (its frame counter
// survives swapchain re-creation on resize); a swapchain holds its images, their marker
// semaphores and whether the marker can be drawn into them. Fixed tables, lock-free lookups.
#pragma once
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

#include "hook/vk_marker_texels.h"

namespace pictor::hook::vk {

struct Device;

struct Surface {
  std::atomic<VkSurfaceKHR> key{VK_NULL_HANDLE};
  std::uint16_t ctx = 0;    // frames.csv ctx, from the interposer's one counter (GL contexts too)
  std::uint64_t frame = 0;  // the next frame's index
};

struct Swapchain {
  static constexpr int kMaxImages = 16;
  std::atomic<VkSwapchainKHR> key{VK_NULL_HANDLE};
  Device* device = nullptr;
  Surface* surface = nullptr;
  VkExtent2D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  MarkerTexels texels;  // bytes == 0: no marker in this swapchain
  std::uint32_t image_count = 0;
  VkImage images[kMaxImages]{};
  VkSemaphore done[kMaxImages]{};  // signalled by the marker's submission, waited by the present
};

// The swapchain's state, or null when the layer does not know it.
Swapchain* swapchain_of(VkSwapchainKHR swapchain) noexcept;

}  // namespace pictor::hook::vk
