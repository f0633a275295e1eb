#include "runner/install_paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/error.h"

namespace pictor::runner {

namespace fs = std::filesystem;

std::string self_directory() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

static std::string first_existing(const char* env, const std::vector<fs::path>& candidates,
                                  const std::string& what) {
  if (const char* v = std::getenv(env); v && *v) {
    if (fs::exists(v)) return v;
    throw RunError(std::string(env) + " names '" + v + "', which does not exist");
  }
  for (const auto& c : candidates)
    if (fs::exists(c)) return fs::weakly_canonical(c).string();
  throw RunError(what + " not found next to pictor (looked in " + candidates.front().parent_path().string() +
                 "); set " + env);
}

std::string find_hook_library() {
  const fs::path self = self_directory();
  return first_existing("PICTOR_HOOK_LIB",
                        {self / "../lib/libpictor_hook.so", self / "../lib/pictor/libpictor_hook.so",
                         self / "libpictor_hook.so"},
                        "libpictor_hook.so");
}

std::string find_proxy_hook_library() {
  const fs::path self = self_directory();
  return first_existing("PICTOR_PROXY_HOOK_LIB",
                        {self / "../lib/libpictor_proxyhook.so", self / "../lib/pictor/libpictor_proxyhook.so",
                         self / "libpictor_proxyhook.so"},
                        "libpictor_proxyhook.so");
}

std::string find_vulkan_layer_dir() {
  if (const char* v = std::getenv("PICTOR_VK_LAYER_DIR"); v && *v) {
    if (fs::exists(fs::path(v) / "vulkan/implicit_layer.d")) return v;
    throw RunError(std::string("PICTOR_VK_LAYER_DIR names '") + v + "', which has no vulkan/implicit_layer.d");
  }
  const fs::path self = self_directory();
  for (const fs::path& c : {self / "../share/pictor", self / "share/pictor"})
    if (fs::exists(c / "vulkan/implicit_layer.d")) return fs::weakly_canonical(c).string();
  return {};
}

std::map<std::string, std::string> vulkan_layer_environment() {
  const std::string dir = find_vulkan_layer_dir();
  if (dir.empty()) return {};
  const auto ahead = [](const std::string& first, const char* var, const char* fallback) {
    const char* v = std::getenv(var);
    const std::string rest = v && *v ? v : fallback;
    return rest.empty() ? first : first + ":" + rest;
  };
  // The XDG base-directory default, which setting the variable would otherwise replace.
  std::map<std::string, std::string> env{{"XDG_DATA_DIRS", ahead(dir, "XDG_DATA_DIRS", "/usr/local/share:/usr/share")}};
  if (const char* v = std::getenv("VK_IMPLICIT_LAYER_PATH"); v && *v)
    env["VK_IMPLICIT_LAYER_PATH"] = ahead(dir + "/vulkan/implicit_layer.d", "VK_IMPLICIT_LAYER_PATH", "");
  return env;
}

std::string find_app_binary() {
  const fs::path self = self_directory();
  return first_existing("PICTOR_APP_BIN", {self / "pictor-app", self / "../libexec/pictor/pictor-app"},
                        "pictor-app");
}

}  // namespace pictor::runner
