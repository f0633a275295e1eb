#include "mark/machine_info.h"

#include <GL/gl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>

namespace pictor::mark {
namespace {

// Value after "key<spaces>:" in a /proc file, or empty.
std::string proc_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return value;
  }
  return {};
}

nlohmann::json gl_string(GLenum name) {
  const auto* s = glGetString(name);
  return s ? nlohmann::json(reinterpret_cast<const char*>(s)) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json machine_info() {
  nlohmann::json info;
  const auto model = proc_field("/proc/cpuinfo", "model name");
  info["cpu_model"] = model.empty() ? nlohmann::json(nullptr) : nlohmann::json(model);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  info["cores"] = cores > 0 ? nlohmann::json(cores) : nlohmann::json(nullptr);
  const auto mem = proc_field("/proc/meminfo", "MemTotal");  // "16310824 kB"
  info["memory_bytes"] = mem.empty() ? nlohmann::json(nullptr) : nlohmann::json(std::stoll(mem) * 1024);
  utsname u{};
  if (uname(&u) == 0)
    info["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
  else
    info["kernel"] = nullptr;
  return info;
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0;
  if (!(in >> one)) return std::nan("");
  return one;
}

nlohmann::json gl_info() {
  return {{"gl_vendor", gl_string(GL_VENDOR)}, {"gl_renderer", gl_string(GL_RENDERER)},
          {"gl_version", gl_string(GL_VERSION)}};
}

}  // namespace pictor::mark
