// Swapchains and surfaces: transfer-destination usage added at creation where the surface and
// format allow it (so the marker can be copied in), the images and their marker semaphores, and
// one frames.csv context per surface.
#include <atomic>
#include <mutex>
#include <new>

#include "hook/config.h"
#include "hook/context_registry.h"
#include "hook/vk_layer.h"

namespace pictor::hook::vk {

namespace {

constexpr int kMaxSurfaces = 32;
constexpr int kMaxSwapchains = 32;
Surface g_surfaces[kMaxSurfaces];
Swapchain g_swapchains[kMaxSwapchains];
std::mutex g_tables;  // creation and destruction only

void log_once(std::atomic<bool>& flag, const char* what) noexcept {
  if (!flag.exchange(true)) log_line("Vulkan: %s", what);
}

// Black and white texels when the marker can be copied into this swapchain's images; none
// otherwise (logged once per cause).
MarkerTexels marker_support(const Device& d, const VkSwapchainCreateInfoKHR& info) noexcept {
  static std::atomic<bool> no_usage{false}, no_format{false}, protected_images{false}, no_feature{false};
  const InstanceFns* ifn = d.instance ? &d.instance->fn : nullptr;
  if (!ifn || !ifn->GetPhysicalDeviceSurfaceCapabilitiesKHR) return {};
  if (info.flags & VK_SWAPCHAIN_CREATE_PROTECTED_BIT_KHR) {
    log_once(protected_images, "protected swapchain images cannot take the marker: frames carry none");
    return {};
  }
  if (info.presentMode == VK_PRESENT_MODE_SHARED_DEMAND_REFRESH_KHR ||
      info.presentMode == VK_PRESENT_MODE_SHARED_CONTINUOUS_REFRESH_KHR)
    return {};
  VkSurfaceCapabilitiesKHR caps{};
  if (ifn->GetPhysicalDeviceSurfaceCapabilitiesKHR(d.physical, info.surface, &caps) != VK_SUCCESS) return {};
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
    log_once(no_usage, "the surface allows no transfer-destination images: frames carry no marker");
    return {};
  }
  const MarkerTexels texels = marker_texels(info.imageFormat);
  if (!texels.bytes) {
    log_once(no_format, "the swapchain's format has no marker colours: frames carry no marker");
    return {};
  }
  // Before Vulkan 1.1 (and maintenance1) every format is a transfer destination; after, it says.
  if (d.properties.apiVersion >= VK_API_VERSION_1_1 && ifn->GetPhysicalDeviceFormatProperties) {
    VkFormatProperties props{};
    ifn->GetPhysicalDeviceFormatProperties(d.physical, info.imageFormat, &props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT)) {
      log_once(no_feature, "the swapchain's format is no transfer destination: frames carry no marker");
      return {};
    }
  }
  return texels;
}

Surface* surface_for(VkSurfaceKHR surface) noexcept {
  for (auto& s : g_surfaces)
    if (s.key.load(std::memory_order_acquire) == surface) return &s;
  for (auto& s : g_surfaces) {
    if (s.key.load(std::memory_order_relaxed)) continue;
    s.ctx = next_context_id();
    s.frame = 0;
    s.key.store(surface, std::memory_order_release);
    return &s;
  }
  return nullptr;
}

void retire_semaphores(Device& d, Swapchain& sc) noexcept {
  for (std::uint32_t i = 0; i < sc.image_count; ++i) {
    if (!sc.done[i]) continue;
    if (d.retired_count == Device::kMaxRetired && d.fn.DeviceWaitIdle) {
      // Hundreds of re-created swapchains: wait once for the device, then nothing waits on them.
      d.fn.DeviceWaitIdle(d.handle);
      for (int k = 0; k < d.retired_count; ++k) d.fn.DestroySemaphore(d.handle, d.retired[k], nullptr);
      d.retired_count = 0;
    }
    d.retired[d.retired_count++] = sc.done[i];
    sc.done[i] = VK_NULL_HANDLE;
  }
}

void remember(Device& d, const VkSwapchainCreateInfoKHR& info, VkSwapchainKHR handle, MarkerTexels texels) noexcept {
  static std::atomic<bool> full{false}, no_semaphore{false};
  std::lock_guard lock(g_tables);
  Swapchain* sc = nullptr;
  for (auto& s : g_swapchains)
    if (!s.key.load(std::memory_order_relaxed)) {
      sc = &s;
      break;
    }
  Surface* surface = surface_for(info.surface);
  if (!sc || !surface) {
    log_once(full, "too many swapchains or surfaces: the extra ones are not measured");
    return;
  }
  sc->~Swapchain();
  new (sc) Swapchain();
  sc->device = &d;
  sc->surface = surface;
  sc->extent = info.imageExtent;
  sc->format = info.imageFormat;
  std::uint32_t n = 0;
  if (d.fn.GetSwapchainImagesKHR(d.handle, handle, &n, nullptr) == VK_SUCCESS) {
    n = n < Swapchain::kMaxImages ? n : Swapchain::kMaxImages;
    const VkResult r = d.fn.GetSwapchainImagesKHR(d.handle, handle, &n, sc->images);
    sc->image_count = r == VK_SUCCESS || r == VK_INCOMPLETE ? n : 0;
  }
  if (texels.bytes && sc->image_count) {
    const auto si = vk_struct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    bool ok = true;
    for (std::uint32_t i = 0; i < sc->image_count && ok; ++i)
      ok = d.fn.CreateSemaphore(d.handle, &si, nullptr, &sc->done[i]) == VK_SUCCESS;
    if (!ok) {
      for (std::uint32_t i = 0; i < sc->image_count; ++i)
        if (sc->done[i]) d.fn.DestroySemaphore(d.handle, sc->done[i], nullptr);
      for (auto& s : sc->done) s = VK_NULL_HANDLE;
      log_once(no_semaphore, "cannot create the marker's semaphores: frames carry no marker");
      texels = {};
    }
  }
  sc->texels = texels;
  sc->key.store(handle, std::memory_order_release);
}

}  // namespace

Swapchain* swapchain_of(VkSwapchainKHR swapchain) noexcept {
  if (!swapchain) return nullptr;
  for (auto& s : g_swapchains)
    if (s.key.load(std::memory_order_acquire) == swapchain) return &s;
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* info,
                                                  const VkAllocationCallbacks* allocator, VkSwapchainKHR* out) {
  Device* d = device_of(device);
  if (!d || !d->fn.CreateSwapchainKHR) return VK_ERROR_INITIALIZATION_FAILED;
  if (!info || !out || !d->fn.GetSwapchainImagesKHR) return d->fn.CreateSwapchainKHR(device, info, allocator, out);
  MarkerTexels texels = config().marker ? marker_support(*d, *info) : MarkerTexels{};
  VkSwapchainCreateInfoKHR patched = *info;
  if (texels.bytes) patched.imageUsage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkResult r = d->fn.CreateSwapchainKHR(device, &patched, allocator, out);
  if (r != VK_SUCCESS && patched.imageUsage != info->imageUsage) {
    // Fail open: the app's own request once more. Its old swapchain is retired by the failed call
    // whatever the result, so it must not be named again.
    static std::atomic<bool> logged{false};
    log_once(logged, "the swapchain could not take transfer-destination usage: frames carry no marker");
    texels = {};
    patched = *info;
    patched.oldSwapchain = VK_NULL_HANDLE;
    r = d->fn.CreateSwapchainKHR(device, &patched, allocator, out);
  }
  if (r == VK_SUCCESS) remember(*d, *info, *out, texels);
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* allocator) {
  Device* d = device_of(device);
  if (!d || !d->fn.DestroySwapchainKHR) return;
  if (Swapchain* sc = swapchain_of(swapchain)) {
    std::lock_guard lock(g_tables);
    retire_semaphores(*d, *sc);
    sc->key.store(VK_NULL_HANDLE, std::memory_order_release);
  }
  d->fn.DestroySwapchainKHR(device, swapchain, allocator);
}

VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                                             const VkAllocationCallbacks* allocator) {
  Instance* inst = instance_of(instance);
  if (!inst || !inst->fn.DestroySurfaceKHR) return;
  if (surface) {
    std::lock_guard lock(g_tables);
    for (auto& s : g_surfaces) {
      VkSurfaceKHR expected = surface;
      s.key.compare_exchange_strong(expected, VK_NULL_HANDLE, std::memory_order_acq_rel);
    }
  }
  inst->fn.DestroySurfaceKHR(instance, surface, allocator);
}

void forget_swapchains(Device& d) noexcept {
  std::lock_guard lock(g_tables);
  for (auto& s : g_swapchains) {
    if (!s.key.load(std::memory_order_relaxed) || s.device != &d) continue;
    retire_semaphores(d, s);
    s.key.store(VK_NULL_HANDLE, std::memory_order_release);
  }
}

}  // namespace pictor::hook::vk
