#include "resources/gpu.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <fmt/format.h>

namespace pictor::resources {

namespace {

// NVML's public C ABI, the part used here (nvml.h is not installed without the CUDA toolkit).
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
constexpr int kNvmlPcieTx = 0, kNvmlPcieRx = 1;  // nvmlPcieUtilCounter_t, KB/s

struct Nvml {
  void* lib = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*count)(unsigned int*) = nullptr;
  int (*handle)(unsigned int, nvmlDevice_t*) = nullptr;
  int (*name)(nvmlDevice_t, char*, unsigned int) = nullptr;
  int (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  int (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  int (*pcie)(nvmlDevice_t, int, unsigned int*) = nullptr;
  const char* (*error)(int) = nullptr;
};

template <typename F>
void resolve(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(::dlsym(lib, name));
}

class NvmlSource : public GpuSource {
 public:
  NvmlSource(Nvml nvml, std::vector<nvmlDevice_t> devices) : nvml_(nvml), devices_(std::move(devices)) {}
  ~NvmlSource() override {
    nvml_.shutdown();
    ::dlclose(nvml_.lib);
  }
  std::vector<Metric> read() override {
    std::vector<Metric> out;
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      const std::string g = fmt::format("gpu{}:", i);
      nvmlUtilization_t u{};
      if (nvml_.utilization && nvml_.utilization(devices_[i], &u) == 0) {
        out.push_back({g + "util", static_cast<double>(u.gpu), "%"});
        out.push_back({g + "mem_util", static_cast<double>(u.memory), "%"});
      }
      nvmlMemory_t m{};
      if (nvml_.memory && nvml_.memory(devices_[i], &m) == 0) out.push_back({g + "mem_used", static_cast<double>(m.used), "bytes"});
      unsigned int kbs = 0;
      if (nvml_.pcie && nvml_.pcie(devices_[i], kNvmlPcieTx, &kbs) == 0) out.push_back({g + "pcie_tx", static_cast<double>(kbs), "KB/s"});
      if (nvml_.pcie && nvml_.pcie(devices_[i], kNvmlPcieRx, &kbs) == 0) out.push_back({g + "pcie_rx", static_cast<double>(kbs), "KB/s"});
    }
    return out;
  }

 private:
  Nvml nvml_;
  std::vector<nvmlDevice_t> devices_;
};

// NVML, or why not (the reason is empty when the library is simply absent).
GpuProbe open_nvml(std::string& absent_reason) {
  GpuProbe p;
  Nvml n;
  n.lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!n.lib) {
    absent_reason = "no libnvidia-ml.so.1";
    return p;
  }
  resolve(n.lib, n.init, "nvmlInit_v2");
  resolve(n.lib, n.shutdown, "nvmlShutdown");
  resolve(n.lib, n.count, "nvmlDeviceGetCount_v2");
  resolve(n.lib, n.handle, "nvmlDeviceGetHandleByIndex_v2");
  resolve(n.lib, n.name, "nvmlDeviceGetName");
  resolve(n.lib, n.utilization, "nvmlDeviceGetUtilizationRates");
  resolve(n.lib, n.memory, "nvmlDeviceGetMemoryInfo");
  resolve(n.lib, n.pcie, "nvmlDeviceGetPcieThroughput");
  resolve(n.lib, n.error, "nvmlErrorString");
  if (!n.init || !n.shutdown || !n.count || !n.handle) {
    absent_reason = "libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetCount_v2";
    ::dlclose(n.lib);
    return p;
  }
  if (const int r = n.init(); r != 0) {
    absent_reason = fmt::format("libnvidia-ml.so.1: nvmlInit failed ({})", n.error ? n.error(r) : std::to_string(r));
    ::dlclose(n.lib);
    return p;
  }
  unsigned int count = 0;
  std::vector<nvmlDevice_t> devices;
  if (n.count(&count) == 0)
    for (unsigned int i = 0; i < count; ++i)
      if (nvmlDevice_t d = nullptr; n.handle(i, &d) == 0) devices.push_back(d);
  if (devices.empty()) {
    absent_reason = "libnvidia-ml.so.1: NVML sees no GPU";
    n.shutdown();
    ::dlclose(n.lib);
    return p;
  }
  char name[96] = "";
  if (n.name) n.name(devices[0], name, sizeof name);
  p.what = fmt::format("NVML ({} GPU(s){}{})", devices.size(), name[0] ? ", " : "", name);
  p.source = std::make_unique<NvmlSource>(n, std::move(devices));
  return p;
}

std::optional<double> read_number(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[64];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  buf[n] = '\0';
  char* end = nullptr;
  const double v = std::strtod(buf, &end);
  if (end == buf) return std::nullopt;
  return v;
}

class SysfsSource : public GpuSource {
 public:
  explicit SysfsSource(std::vector<std::string> devices) : devices_(std::move(devices)) {}
  std::vector<Metric> read() override {
    std::vector<Metric> out;
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      const std::string g = fmt::format("gpu{}:", i);
      if (const auto v = read_number(devices_[i] + "/gpu_busy_percent")) out.push_back({g + "util", *v, "%"});
      if (const auto v = read_number(devices_[i] + "/mem_info_vram_used")) out.push_back({g + "mem_used", *v, "bytes"});
    }
    return out;
  }

 private:
  std::vector<std::string> devices_;
};

}  // namespace

GpuProbe open_gpu(const std::string& sysfs_drm) {
  std::string nvml_reason;
  GpuProbe p = open_nvml(nvml_reason);
  if (p.source) return p;
  // cardN (not cardN-HDMI-A-1, the connectors) whose device offers a busy percentage or VRAM use.
  std::vector<std::string> devices;
  bool any_card = false;
  if (DIR* d = ::opendir(sysfs_drm.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n.rfind("card", 0) != 0 || n.find('-') != std::string::npos) continue;
      any_card = true;
      const std::string dev = sysfs_drm + "/" + n + "/device";
      if (read_number(dev + "/gpu_busy_percent") || read_number(dev + "/mem_info_vram_used")) devices.push_back(dev);
    }
    ::closedir(d);
  }
  std::sort(devices.begin(), devices.end());
  if (!devices.empty()) {
    p.what = "sysfs " + devices[0] + (devices.size() > 1 ? fmt::format(" and {} more", devices.size() - 1) : "");
    p.source = std::make_unique<SysfsSource>(std::move(devices));
    return p;
  }
  const bool dri = ::access("/dev/dri", F_OK) == 0;
  p.unavailable = fmt::format("unavailable: {}, and {}", nvml_reason,
                              any_card ? "no DRM card under " + sysfs_drm + " offers gpu_busy_percent or mem_info_vram_used"
                              : dri    ? "no DRM card under " + sysfs_drm
                                       : "no /dev/dri (no GPU driver: Mesa llvmpipe renders on the CPU)");
  return p;
}

}  // namespace pictor::resources
