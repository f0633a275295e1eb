// The GPU side of a session's resources, where a driver offers it: NVIDIA through NVML loaded at
// run time (libnvidia-ml.so.1: utilisation, memory, PCIe TX/RX), AMD and Intel through the DRM
// sysfs files (gpu_busy_percent, mem_info_vram_used). Otherwise one reason for "unavailable".
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace pictor::resources {

// One reading of one GPU metric: name as in resources.csv ("gpu0:util"), value and unit.
struct Metric {
  std::string name;
  double value = 0;
  std::string unit;
};

class GpuSource {
 public:
  virtual ~GpuSource() = default;
  virtual std::vector<Metric> read() = 0;
};

struct GpuProbe {
  std::unique_ptr<GpuSource> source;  // null when none is available
  std::string what;                   // "NVML (NVIDIA H200)", "sysfs /sys/class/drm/card0"
  std::string unavailable;            // "unavailable: no /dev/dri and no libnvidia-ml.so.1 …"
};

// Tries NVML, then the DRM cards under sysfs_drm (a parameter for tests).
GpuProbe open_gpu(const std::string& sysfs_drm = "/sys/class/drm");

}  // namespace pictor::resources
