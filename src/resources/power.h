// Package power through powercap/RAPL (/sys/class/powercap/*/energy_uj) where readable; since
// Linux 5.10 energy_uj is root-only (a side channel), so an unprivileged run usually gets the reason.
#pragma once
#include <string>
#include <vector>

#include "resources/gpu.h"  // Metric

namespace pictor::resources {

struct PowerProbe {
  std::vector<std::string> zones;  // directories whose energy_uj is readable
  std::vector<std::string> names;  // their `name` ("package-0", "dram")
  std::string unavailable;         // "unavailable: …" when zones is empty
  // Cumulative energy of each zone, "power:package-0" in µJ.
  std::vector<Metric> read() const;
};

PowerProbe open_power(const std::string& powercap = "/sys/class/powercap");

}  // namespace pictor::resources
