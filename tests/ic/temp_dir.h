// A fresh empty directory per call under the system temp area, for the intelligent client's
// tests. Named after the process, the name and a counter, so parallel test processes and
// repeated names do not collide.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace pictor::ic::test {

inline std::string temp_dir(const std::string& name) {
  static int counter = 0;
  const auto p = std::filesystem::temp_directory_path() /
                 ("pictor-ic-test-" + std::to_string(getpid()) + "-" + name + "-" + std::to_string(counter++));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace pictor::ic::test
