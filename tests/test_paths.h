// Where a test finds what the build made and the source files it reads. Every test translation
// unit gets this header first (tests/CMakeLists.txt: -include). The paths are found when a test
// runs — from the test executable's own place, BUILD/bin, and BUILD/CMakeCache.txt's source root —
// never compiled in: a compile that names no folder of its checkout is the same compile in any
// clone, so ccache hands a fresh clone the objects of the last build (docs/environment.md).
#pragma once

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <string>

namespace pictor::test_paths {

// The build folder: the parent of the folder this executable is in (every executable of a build is
// in BUILD/bin, every shared library in BUILD/lib).
inline const std::string& build_root() {
  static const std::string root = [] {
    char exe[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
      std::fputs("test_paths: /proc/self/exe cannot be read\n", stderr);
      std::abort();
    }
    std::string path(exe, static_cast<std::size_t>(n));
    for (int up = 0; up < 2; ++up) path.erase(path.find_last_of('/'));
    return path;
  }();
  return root;
}

// The source tree the build was configured from (CMakeCache.txt's CMAKE_HOME_DIRECTORY).
inline const std::string& source_root() {
  static const std::string root = [] {
    std::ifstream cache(build_root() + "/CMakeCache.txt");
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    for (std::string line; std::getline(cache, line);)
      if (line.rfind(key, 0) == 0) return line.substr(key.size());
    std::fprintf(stderr, "test_paths: no %s in %s/CMakeCache.txt\n", key.c_str(), build_root().c_str());
    std::abort();
  }();
  return root;
}

// A path that lives as long as the process, made once (the macros below stand where string
// literals stood, so they give a const char*).
inline const char* keep(const std::string& path) {
  static std::mutex mutex;
  static std::set<std::string> kept;
  const std::lock_guard lock(mutex);
  return kept.insert(path).first->c_str();
}
inline const char* build_file(const char* relative) { return keep(build_root() + "/" + relative); }
inline const char* source_file(const char* relative) { return keep(source_root() + "/" + relative); }

}  // namespace pictor::test_paths

#define PICTOR_BIN ::pictor::test_paths::build_file("bin/pictor")
#define PICTOR_APP_BIN ::pictor::test_paths::build_file("bin/pictor-app")
#define PICTOR_APP_BIN_PATH PICTOR_APP_BIN
#define PICTOR_HOOK_PATH ::pictor::test_paths::build_file("lib/libpictor_hook.so")
#define PICTOR_PROXYHOOK_PATH ::pictor::test_paths::build_file("lib/libpictor_proxyhook.so")
#define PICTOR_HOME_SHIM_PATH ::pictor::test_paths::build_file("lib/libpictor_home.so")
#define PICTOR_VIEWER_PATH ::pictor::test_paths::build_file("bin/proxyhook_viewer")
#define HOME_SHIM_PROBE ::pictor::test_paths::build_file("bin/home_shim_probe")
#define XCHECKIF_APP ::pictor::test_paths::build_file("bin/xcheckif_app")
#define OFFLOAD_PROBE_PATH ::pictor::test_paths::build_file("bin/offload_probe")
#define PICTOR_VK_LAYER_DIR ::pictor::test_paths::build_file("share/pictor")
#define PICTOR_SOURCE_DIR ::pictor::test_paths::source_file(".")
#define PICTOR_TEST_DATA ::pictor::test_paths::source_file("tests/analysis/data")
#define PICTOR_MARK_TEST_DATA ::pictor::test_paths::source_file("tests/mark/data")
