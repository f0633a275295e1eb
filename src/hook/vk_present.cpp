// What happens around every vkQueuePresentKHR: the same frame records as a GL swap (present call
// and return times, the input tag), the marker copied into each presented image, the frame's end
// timestamp; and around every submission, the start timestamp of a frame's first one.
#include <cstdio>

#include "core/clock.h"
#include "core/hook_record.h"
#include "hook/config.h"
#include "hook/input_tracker.h"
#include "hook/vk_layer.h"
#include "hook/writer.h"

namespace pictor::hook::vk {

namespace {

constexpr std::uint32_t kMaxChains = MarkerPass::kMaxSwapchains;

// The renderer strings of the first presenting device go to hook.json, as a GL context's do.
void note_device(Device& d) noexcept {
  char version[64];
  const std::uint32_t v = d.properties.apiVersion;
  std::snprintf(version, sizeof version, "Vulkan %u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                VK_API_VERSION_PATCH(v));
  char vendor[2 * VK_MAX_DRIVER_NAME_SIZE + 8];
  std::snprintf(vendor, sizeof vendor, "0x%04x", d.properties.vendorID);
  const InstanceFns* ifn = d.instance ? &d.instance->fn : nullptr;
  // Driver properties are core from 1.2, for the instance (the app's request) and the device.
  if (ifn && ifn->GetPhysicalDeviceProperties2 && v >= VK_API_VERSION_1_2 &&
      d.instance->api_version >= VK_API_VERSION_1_2) {
    auto driver = vk_struct<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    auto props = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    props.pNext = &driver;
    ifn->GetPhysicalDeviceProperties2(d.physical, &props);
    std::snprintf(vendor, sizeof vendor, "%s, %s", driver.driverName, driver.driverInfo);
  }
  const char* timer = !config().gpu_timing ? "off (PICTOR_GPU_TIMING=0)" : d.timer.reason();
  note_gl_info(d.properties.deviceName, version, vendor, "Vulkan", timer);
}

// Once per device, at its first present: GPU timing on that queue, the marker for its family.
// Whoever comes second while it runs gets neither for that frame (never waits).
bool ready(Device& d, VkQueue queue) noexcept {
  int state = d.setup.load(std::memory_order_acquire);
  if (state == 2) return true;
  if (state != 0 || !d.setup.compare_exchange_strong(state, 1, std::memory_order_acq_rel)) return false;
  const std::uint32_t family = family_of(d, queue);
  if (config().gpu_timing && !d.timer.init(d, queue, family))
    log_line("Vulkan: no GPU time (%s): gpu_ms stays empty", d.timer.reason());
  if (config().marker) d.marker.init(d, family);
  note_device(d);
  d.setup.store(2, std::memory_order_release);
  return true;
}

template <typename Fn, typename Submit>
VkResult submit(Fn next, VkQueue queue, std::uint32_t count, const Submit* submits, VkFence fence) {
  Device* d = device_of(queue);
  if (!d) return VK_ERROR_DEVICE_LOST;
  const auto fn = d->fn.*next;
  if (!fn) return VK_ERROR_EXTENSION_NOT_PRESENT;
  if (count > 0 && d->setup.load(std::memory_order_acquire) == 2) d->timer.before_submit(*d, queue);
  return fn(queue, count, submits, fence);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, std::uint32_t count, const VkSubmitInfo* submits,
                                           VkFence fence) {
  return submit(&DeviceFns::QueueSubmit, queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, std::uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  return submit(&DeviceFns::QueueSubmit2, queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, std::uint32_t count, const VkSubmitInfo2* submits,
                                               VkFence fence) {
  return submit(&DeviceFns::QueueSubmit2KHR, queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
  const std::int64_t t_call = monotonic_ns();
  Device* d = device_of(queue);
  if (!d || !d->fn.QueuePresentKHR) return VK_ERROR_DEVICE_LOST;
  if (!info || !config().recording) return d->fn.QueuePresentKHR(queue, info);

  Swapchain* chains[kMaxChains] = {};
  const std::uint32_t count = info->swapchainCount < kMaxChains ? info->swapchainCount : kMaxChains;
  if (info->swapchainCount > kMaxChains) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      log_line("Vulkan: a present of more than %u swapchains: the extra ones are not measured", kMaxChains);
  }
  for (std::uint32_t k = 0; k < count; ++k) chains[k] = swapchain_of(info->pSwapchains[k]);
  const bool features = ready(*d, queue);
  const std::uint64_t tag = current_tag();

  VkPresentInfoKHR patched = *info;
  VkSemaphore waits[kMaxChains];
  if (features && config().marker) {
    if (const std::uint32_t n = d->marker.submit(*d, queue, *info, chains, count, tag, waits)) {
      patched.waitSemaphoreCount = n;
      patched.pWaitSemaphores = waits;
    }
  }
  // GPU time goes with the first swapchain's frame (one timestamp pair per present).
  bool gpu_timed = false;
  if (features && chains[0] && chains[0]->surface)
    gpu_timed = d->timer.end_frame(*d, queue, chains[0]->surface->ctx, chains[0]->surface->frame);

  const VkResult result = d->fn.QueuePresentKHR(queue, &patched);
  const std::int64_t t_return = monotonic_ns();
  // Every present is a frame the app issued, as every GL swap is, whatever the present returned.
  for (std::uint32_t k = 0; k < count; ++k) {
    Surface* s = chains[k] ? chains[k]->surface : nullptr;
    if (!s) continue;
    HookRecord f;
    f.kind = HookRecordKind::frame;
    f.ctx = s->ctx;
    f.flags = k == 0 && gpu_timed ? kGpuPending : 0;
    f.frame = s->frame;
    f.swap_ns = t_call;
    f.return_ns = t_return;
    f.value = tag == 0 ? -1 : static_cast<std::int64_t>(tag);
    push_record(f);
    ++s->frame;
  }
  // After the frames' own records, so the writer always sees a frame before its GPU result.
  if (features) d->timer.collect(*d, queue);
  return result;
}

void retire_device_features(Device& d) noexcept {
  if (d.setup.load(std::memory_order_acquire) != 2) return;
  d.timer.retire(d);
  d.marker.retire(d);
}

}  // namespace pictor::hook::vk
