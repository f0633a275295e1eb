#include "runner/machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace pictor::runner {

static std::string first_value(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return {};
}

nlohmann::json machine_info() {
  nlohmann::json m;
  const std::string cpu = first_value("/proc/cpuinfo", "model name");
  m["cpu_model"] = cpu.empty() ? nlohmann::json(nullptr) : nlohmann::json(cpu);
  m["cores"] = std::thread::hardware_concurrency();
  const std::string mem = first_value("/proc/meminfo", "MemTotal");
  if (!mem.empty()) m["memory_kib"] = std::stoll(mem);
  else m["memory_kib"] = nullptr;
  utsname u{};
  if (uname(&u) == 0) {
    m["kernel"] = std::string(u.sysname) + " " + u.release;
    m["arch"] = u.machine;
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) m["hostname"] = host;
  double load[3] = {};
  if (getloadavg(load, 3) == 3) m["loadavg"] = {load[0], load[1], load[2]};
  return m;
}

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> out;
  std::string arg;
  while (std::getline(in, arg, '\0')) out.push_back(arg);
  return out;
}

}  // namespace pictor::runner
