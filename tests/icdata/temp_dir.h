// A fresh empty directory per test under the system temp area, for file round trips.
// Named after the process and a counter, so parallel test processes do not collide.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace pictor::test {

inline std::string temp_dir(const std::string& name) {
  static int counter = 0;
  const auto p = std::filesystem::temp_directory_path() /
                 ("pictor-icdata-" + std::to_string(getpid()) + "-" + name + "-" + std::to_string(counter++));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace pictor::test
