// The Vulkan layer inside libpictor_hook.so: the next layer's functions per instance and per
// device, found without locks from the dispatch key of any dispatchable handle (docs/vulkan.md).
#pragma once
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

#include "hook/vk_gpu_timer.h"
#include "hook/vk_marker.h"
#include "hook/vk_swapchain.h"

namespace pictor::hook::vk {

// The loader writes its dispatch-table pointer into the first word of every dispatchable object
// (instance, physical device, device, queue, command buffer): one key per instance or device.
inline void* dispatch_key(const void* handle) noexcept { return *static_cast<void* const*>(handle); }

// A zeroed Vulkan structure of the given type.
template <typename T>
T vk_struct(VkStructureType type) noexcept {
  T s{};
  s.sType = type;
  return s;
}

// What the layer calls in the next layer down, resolved once when the object is created.
#define PICTOR_VK_INSTANCE_FNS(X)            \
  X(DestroyInstance)                         \
  X(GetPhysicalDeviceProperties)             \
  X(GetPhysicalDeviceProperties2)            \
  X(GetPhysicalDeviceQueueFamilyProperties)  \
  X(GetPhysicalDeviceMemoryProperties)       \
  X(GetPhysicalDeviceFormatProperties)       \
  X(GetPhysicalDeviceSurfaceCapabilitiesKHR) \
  X(DestroySurfaceKHR)

#define PICTOR_VK_DEVICE_FNS(X)  \
  X(DestroyDevice)               \
  X(GetDeviceQueue)              \
  X(GetDeviceQueue2)             \
  X(DeviceWaitIdle)              \
  X(CreateSwapchainKHR)          \
  X(DestroySwapchainKHR)         \
  X(GetSwapchainImagesKHR)       \
  X(QueuePresentKHR)             \
  X(QueueSubmit)                 \
  X(QueueSubmit2)                \
  X(QueueSubmit2KHR)             \
  X(CreateCommandPool)           \
  X(DestroyCommandPool)          \
  X(AllocateCommandBuffers)      \
  X(ResetCommandBuffer)          \
  X(BeginCommandBuffer)          \
  X(EndCommandBuffer)            \
  X(CmdPipelineBarrier)          \
  X(CmdCopyBufferToImage)        \
  X(CmdResetQueryPool)           \
  X(CmdWriteTimestamp)           \
  X(CreateQueryPool)             \
  X(DestroyQueryPool)            \
  X(GetQueryPoolResults)         \
  X(CreateSemaphore)             \
  X(DestroySemaphore)            \
  X(CreateFence)                 \
  X(DestroyFence)                \
  X(GetFenceStatus)              \
  X(ResetFences)                 \
  X(CreateBuffer)                \
  X(DestroyBuffer)               \
  X(GetBufferMemoryRequirements) \
  X(AllocateMemory)              \
  X(FreeMemory)                  \
  X(BindBufferMemory)            \
  X(MapMemory)

#define PICTOR_VK_MEMBER(name) PFN_vk##name name = nullptr;
struct InstanceFns {
  PICTOR_VK_INSTANCE_FNS(PICTOR_VK_MEMBER)
};
struct DeviceFns {
  PICTOR_VK_DEVICE_FNS(PICTOR_VK_MEMBER)
};
#undef PICTOR_VK_MEMBER

struct Instance {
  std::atomic<void*> key{nullptr};
  VkInstance handle = VK_NULL_HANDLE;
  std::uint32_t api_version = VK_API_VERSION_1_0;  // what the app asked for at vkCreateInstance
  PFN_vkGetInstanceProcAddr next_gipa = nullptr;
  InstanceFns fn;
};

struct QueueEntry {
  std::atomic<VkQueue> handle{VK_NULL_HANDLE};
  std::uint32_t family = 0;
};

struct Device {
  static constexpr int kMaxQueues = 32;
  static constexpr int kMaxFamilies = 16;
  static constexpr int kMaxRetired = 256;

  std::atomic<void*> key{nullptr};
  VkDevice handle = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  Instance* instance = nullptr;
  PFN_vkGetDeviceProcAddr next_gdpa = nullptr;
  PFN_vkSetDeviceLoaderData set_loader_data = nullptr;
  DeviceFns fn;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  std::uint32_t family_count = 0;
  VkQueueFamilyProperties families[kMaxFamilies]{};
  QueueEntry queues[kMaxQueues];
  // 0: the features of the first present are not set up yet; 1: being set up; 2: done.
  std::atomic<int> setup{0};
  FrameTimer timer;
  MarkerPass marker;
  // Semaphores of destroyed swapchains: a present may still wait on them, so they go with the
  // device (which the app only destroys once idle).
  VkSemaphore retired[kMaxRetired]{};
  int retired_count = 0;
};

Instance* instance_of(const void* dispatchable) noexcept;
Device* device_of(const void* dispatchable) noexcept;
// The queue family of a queue the app got from vkGetDeviceQueue*, or UINT32_MAX when unknown.
std::uint32_t family_of(const Device& device, VkQueue queue) noexcept;

// Swapchain and surface bookkeeping (vk_swapchain.cpp).
VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* info,
                                                  const VkAllocationCallbacks* allocator, VkSwapchainKHR* swapchain);
VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* allocator);
VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                                             const VkAllocationCallbacks* allocator);
// Forgets every swapchain of a device that is being destroyed and retires their semaphores.
void forget_swapchains(Device& device) noexcept;

// Frame records, GPU timing and the marker around presents (vk_present.cpp).
VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info);
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, std::uint32_t count, const VkSubmitInfo* submits,
                                           VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, std::uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, std::uint32_t count, const VkSubmitInfo2* submits,
                                               VkFence fence);
// Device teardown: GPU results still in flight are read, the layer's objects destroyed.
void retire_device_features(Device& device) noexcept;

}  // namespace pictor::hook::vk
