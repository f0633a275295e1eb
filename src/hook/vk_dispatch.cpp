// The layer's place in the Vulkan dispatch chain: loader negotiation, vkGetInstanceProcAddr /
// vkGetDeviceProcAddr, and the per-instance and per-device tables of the next layer's functions,
// filled at vkCreateInstance / vkCreateDevice from the loader's link info (the standard way).
// Only the uniquely named negotiation function is exported: the standard names must never be,
// because this library is also LD_PRELOADed and would interpose the app's own calls into the loader.
#include <cstring>
#include <mutex>
#include <new>

#include "hook/config.h"
#include "hook/vk_layer.h"

namespace pictor::hook::vk {

namespace {

constexpr int kMaxInstances = 16;
constexpr int kMaxDevices = 16;
Instance g_instances[kMaxInstances];
Device g_devices[kMaxDevices];
// Creation and destruction only (never on a frame's path): lookups are lock-free.
std::mutex g_tables;
// The chain below the layer, for an object that found no table slot: still forwarded, unmeasured.
std::atomic<PFN_vkGetInstanceProcAddr> g_last_gipa{nullptr};
std::atomic<PFN_vkGetDeviceProcAddr> g_last_gdpa{nullptr};

template <typename T, int N>
T* find(T (&table)[N], void* key) noexcept {
  if (!key) return nullptr;
  for (auto& e : table)
    if (e.key.load(std::memory_order_acquire) == key) return &e;
  return nullptr;
}

template <typename T, int N>
T* claim(T (&table)[N]) noexcept {
  for (auto& e : table) {
    if (e.key.load(std::memory_order_relaxed)) continue;
    e.~T();
    new (&e) T();
    return &e;  // published by the caller once filled: key.store(..., release)
  }
  return nullptr;
}

VkLayerInstanceCreateInfo* instance_link(const VkInstanceCreateInfo* info, VkLayerFunction function) {
  auto* p = static_cast<const VkBaseInStructure*>(info->pNext);
  for (; p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO) continue;
    auto* link = reinterpret_cast<VkLayerInstanceCreateInfo*>(const_cast<VkBaseInStructure*>(p));
    if (link->function == function) return link;
  }
  return nullptr;
}

VkLayerDeviceCreateInfo* device_link(const VkDeviceCreateInfo* info, VkLayerFunction function) {
  auto* p = static_cast<const VkBaseInStructure*>(info->pNext);
  for (; p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO) continue;
    auto* link = reinterpret_cast<VkLayerDeviceCreateInfo*>(const_cast<VkBaseInStructure*>(p));
    if (link->function == function) return link;
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* out) {
  VkLayerInstanceCreateInfo* link = info ? instance_link(info, VK_LAYER_LINK_INFO) : nullptr;
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  // The layers below take the rest of the chain.
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(info, allocator, out);
  if (result != VK_SUCCESS) return result;
  g_last_gipa.store(next_gipa, std::memory_order_release);

  std::lock_guard lock(g_tables);
  Instance* inst = claim(g_instances);
  if (!inst) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      log_line("more than %d Vulkan instances: the extra ones are not measured", kMaxInstances);
    return result;  // GetInstanceProcAddr forwards through the loader's terminator for unknown ones
  }
  inst->handle = *out;
  if (info->pApplicationInfo && info->pApplicationInfo->apiVersion)
    inst->api_version = info->pApplicationInfo->apiVersion;
  inst->next_gipa = next_gipa;
#define PICTOR_VK_LOAD(name) inst->fn.name = reinterpret_cast<PFN_vk##name>(next_gipa(*out, "vk" #name));
  PICTOR_VK_INSTANCE_FNS(PICTOR_VK_LOAD)
#undef PICTOR_VK_LOAD
  inst->key.store(dispatch_key(*out), std::memory_order_release);
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (!instance) return;
  Instance* inst = instance_of(instance);
  if (!inst || !inst->fn.DestroyInstance) return;
  const PFN_vkDestroyInstance destroy = inst->fn.DestroyInstance;
  {
    std::lock_guard lock(g_tables);
    inst->key.store(nullptr, std::memory_order_release);
  }
  destroy(instance, allocator);
}

void note_queue(Device& d, VkQueue queue, std::uint32_t family) noexcept {
  if (!queue) return;
  std::lock_guard lock(g_tables);
  for (auto& q : d.queues)
    if (q.handle.load(std::memory_order_relaxed) == queue) return;
  for (auto& q : d.queues) {
    if (q.handle.load(std::memory_order_relaxed)) continue;
    q.family = family;
    q.handle.store(queue, std::memory_order_release);
    return;
  }
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, std::uint32_t family, std::uint32_t index, VkQueue* queue) {
  Device* d = device_of(device);
  if (!d || !d->fn.GetDeviceQueue) return;
  d->fn.GetDeviceQueue(device, family, index, queue);
  if (queue) note_queue(*d, *queue, family);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
  Device* d = device_of(device);
  if (!d || !d->fn.GetDeviceQueue2) return;
  d->fn.GetDeviceQueue2(device, info, queue);
  if (queue && info) note_queue(*d, *queue, info->queueFamilyIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* out) {
  VkLayerDeviceCreateInfo* link = info ? device_link(info, VK_LAYER_LINK_INFO) : nullptr;
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  Instance* inst = instance_of(physical);
  auto create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(inst ? inst->handle : VK_NULL_HANDLE, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(physical, info, allocator, out);
  if (result != VK_SUCCESS) return result;
  g_last_gdpa.store(next_gdpa, std::memory_order_release);

  VkLayerDeviceCreateInfo* loader_data = device_link(info, VK_LOADER_DATA_CALLBACK);
  std::lock_guard lock(g_tables);
  Device* d = claim(g_devices);
  if (!d) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true)) log_line("more than %d Vulkan devices: the extra ones are not measured", kMaxDevices);
    return result;
  }
  d->handle = *out;
  d->physical = physical;
  d->instance = inst;
  d->next_gdpa = next_gdpa;
  d->set_loader_data = loader_data ? loader_data->u.pfnSetDeviceLoaderData : nullptr;
#define PICTOR_VK_LOAD(name) d->fn.name = reinterpret_cast<PFN_vk##name>(next_gdpa(*out, "vk" #name));
  PICTOR_VK_DEVICE_FNS(PICTOR_VK_LOAD)
#undef PICTOR_VK_LOAD
  if (inst && inst->fn.GetPhysicalDeviceProperties) inst->fn.GetPhysicalDeviceProperties(physical, &d->properties);
  if (inst && inst->fn.GetPhysicalDeviceMemoryProperties)
    inst->fn.GetPhysicalDeviceMemoryProperties(physical, &d->memory);
  if (inst && inst->fn.GetPhysicalDeviceQueueFamilyProperties) {
    std::uint32_t n = 0;
    inst->fn.GetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
    d->family_count = n < Device::kMaxFamilies ? n : Device::kMaxFamilies;
    inst->fn.GetPhysicalDeviceQueueFamilyProperties(physical, &d->family_count, d->families);
  }
  d->key.store(dispatch_key(*out), std::memory_order_release);
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (!device) return;
  Device* d = device_of(device);
  if (!d || !d->fn.DestroyDevice) return;
  // The app must have finished its work; ours (markers, timestamps) may still be in flight.
  if (d->setup.load(std::memory_order_acquire) == 2 && d->fn.DeviceWaitIdle) d->fn.DeviceWaitIdle(device);
  retire_device_features(*d);
  forget_swapchains(*d);
  for (int i = 0; i < d->retired_count; ++i) d->fn.DestroySemaphore(device, d->retired[i], nullptr);
  d->retired_count = 0;
  const PFN_vkDestroyDevice destroy = d->fn.DestroyDevice;
  {
    std::lock_guard lock(g_tables);
    d->key.store(nullptr, std::memory_order_release);
  }
  destroy(device, allocator);
}

// Bookkeeping entry points are intercepted always; the measuring ones only when recording.
struct Intercept {
  const char* name;
  PFN_vkVoidFunction fn;
  bool device_level;
  bool measuring;
};
#define PICTOR_FN(f) reinterpret_cast<PFN_vkVoidFunction>(&f)
const Intercept kIntercepts[] = {
    {"vkGetInstanceProcAddr", PICTOR_FN(GetInstanceProcAddr), false, false},
    {"vkCreateInstance", PICTOR_FN(CreateInstance), false, false},
    {"vkDestroyInstance", PICTOR_FN(DestroyInstance), false, false},
    {"vkCreateDevice", PICTOR_FN(CreateDevice), false, false},
    {"vkDestroySurfaceKHR", PICTOR_FN(DestroySurfaceKHR), false, true},
    {"vkGetDeviceProcAddr", PICTOR_FN(GetDeviceProcAddr), true, false},
    {"vkDestroyDevice", PICTOR_FN(DestroyDevice), true, false},
    {"vkGetDeviceQueue", PICTOR_FN(GetDeviceQueue), true, true},
    {"vkGetDeviceQueue2", PICTOR_FN(GetDeviceQueue2), true, true},
    {"vkCreateSwapchainKHR", PICTOR_FN(CreateSwapchainKHR), true, true},
    {"vkDestroySwapchainKHR", PICTOR_FN(DestroySwapchainKHR), true, true},
    {"vkQueuePresentKHR", PICTOR_FN(QueuePresentKHR), true, true},
    {"vkQueueSubmit", PICTOR_FN(QueueSubmit), true, true},
    {"vkQueueSubmit2", PICTOR_FN(QueueSubmit2), true, true},
    {"vkQueueSubmit2KHR", PICTOR_FN(QueueSubmit2KHR), true, true},
};
#undef PICTOR_FN

const Intercept* find_intercept(const char* name) noexcept {
  if (!name) return nullptr;
  for (const auto& i : kIntercepts) {
    if (std::strcmp(i.name, name) != 0) continue;
    if (i.measuring && !config().recording) return nullptr;
    return &i;
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  Device* d = device_of(device);
  if (!d) {
    const PFN_vkGetDeviceProcAddr gdpa = g_last_gdpa.load(std::memory_order_acquire);
    return gdpa ? gdpa(device, name) : nullptr;
  }
  const PFN_vkVoidFunction next = d->next_gdpa(device, name);
  const Intercept* i = find_intercept(name);
  // Ours only where the device has the command (an extension it enabled, its API version).
  return i && i->device_level && next ? i->fn : next;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  const Intercept* i = find_intercept(name);
  // The loader asks for vkCreateInstance with the handle of the instance it is creating, which no
  // layer knows yet: these are ours whatever the handle.
  if (i && (std::strcmp(name, "vkGetInstanceProcAddr") == 0 || std::strcmp(name, "vkCreateInstance") == 0 ||
            std::strcmp(name, "vkCreateDevice") == 0))
    return i->fn;
  if (!instance) return nullptr;
  Instance* inst = instance_of(instance);
  if (!inst) {
    const PFN_vkGetInstanceProcAddr gipa = g_last_gipa.load(std::memory_order_acquire);
    return gipa ? gipa(instance, name) : nullptr;
  }
  const PFN_vkVoidFunction next = inst->next_gipa(instance, name);
  return i && next ? i->fn : next;
}

}  // namespace

Instance* instance_of(const void* dispatchable) noexcept {
  return dispatchable ? find(g_instances, dispatch_key(dispatchable)) : nullptr;
}

Device* device_of(const void* dispatchable) noexcept {
  return dispatchable ? find(g_devices, dispatch_key(dispatchable)) : nullptr;
}

std::uint32_t family_of(const Device& d, VkQueue queue) noexcept {
  for (const auto& q : d.queues)
    if (q.handle.load(std::memory_order_acquire) == queue) return q.family;
  return UINT32_MAX;
}

}  // namespace pictor::hook::vk

// Layer interface version 2: the loader gets vkGetInstanceProcAddr / vkGetDeviceProcAddr from
// here, so those standard names stay unexported. The manifest names this function.
extern "C" __attribute__((visibility("default"))) VkResult pictor_vk_negotiate_loader_layer_interface_version(
    VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = &pictor::hook::vk::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &pictor::hook::vk::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
