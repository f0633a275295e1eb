#include "resources/power.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pictor::resources {

namespace {

// The file's first line, or the errno of the failure.
std::string first_line(const std::string& path, int& error) {
  error = 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = errno;
    return {};
  }
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  if (n < 0) error = errno;
  ::close(fd);
  if (n <= 0) return {};
  std::string s(buf, static_cast<std::size_t>(n));
  if (const auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

}  // namespace

PowerProbe open_power(const std::string& powercap) {
  PowerProbe p;
  DIR* d = ::opendir(powercap.c_str());
  if (!d) {
    p.unavailable = "unavailable: no " + powercap + " (" + std::strerror(errno) + "; no powercap/RAPL driver, as in most VMs)";
    return p;
  }
  std::vector<std::string> dirs;
  while (const dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') dirs.push_back(powercap + "/" + e->d_name);
  ::closedir(d);
  std::sort(dirs.begin(), dirs.end());
  int refused = 0;
  bool any = false;
  for (const std::string& z : dirs) {
    int error = 0;
    const std::string energy = first_line(z + "/energy_uj", error);
    if (error == ENOENT) continue;
    any = true;
    if (error != 0 || energy.empty()) {
      if (!refused) refused = error;
      continue;
    }
    int ignored = 0;
    std::string name = first_line(z + "/name", ignored);
    p.zones.push_back(z);
    const std::string zone = z.substr(z.rfind('/') + 1);  // two zones may share a name (package-0)
    p.names.push_back(name.empty() ? zone : zone + "/" + name);
  }
  if (p.zones.empty())
    p.unavailable = !any ? "unavailable: no zone under " + powercap + " has energy_uj"
                         : "unavailable: " + powercap + "/*/energy_uj not readable (" + std::strerror(refused) +
                               "; root-only since Linux 5.10)";
  return p;
}

std::vector<Metric> PowerProbe::read() const {
  std::vector<Metric> out;
  for (std::size_t i = 0; i < zones.size(); ++i) {
    int error = 0;
    const std::string v = first_line(zones[i] + "/energy_uj", error);
    if (error != 0 || v.empty()) continue;
    out.push_back({"power:" + names[i], std::strtod(v.c_str(), nullptr), "uJ"});
  }
  return out;
}

}  // namespace pictor::resources
