#include "hook/offload_device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "hook/offload_api.h"

namespace pictor::hook {

bool has_word(const char* list, const char* word) noexcept {
  if (!list) return false;
  const std::size_t len = std::strlen(word);
  for (const char* p = std::strstr(list, word); p; p = std::strstr(p + 1, word))
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  return false;
}

namespace {

bool contains_folded(const char* text, const std::string& what) noexcept {
  if (!text) return false;
  std::string a(text), b(what);
  for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a.find(b) != std::string::npos;
}

constexpr EGLint kRenderNodeFile = 0x3377;  // EGL_DRM_RENDER_NODE_FILE_EXT
constexpr EGLint kRendererName = 0x335F;    // EGL_RENDERER_EXT (EGL_EXT_device_query_name)

// PICTOR_OFFLOAD_DEVICE: empty = any (the first that initialises), an index, a DRM node path, or
// a word found in the device's vendor, renderer or extension names ("software", "nvidia").
bool device_matches(const std::string& want, int index, EGLDeviceEXT dev) noexcept {
  if (want.empty()) return true;
  const EglApi& e = egl_api();
  if (std::all_of(want.begin(), want.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::atoi(want.c_str()) == index;
  auto str = [&](EGLint name) -> const char* {
    const char* s = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, name) : nullptr;
    if (!s) e.GetError();  // a name the device does not answer: clear its error
    return s;
  };
  if (want[0] == '/') {
    const char* node = str(EGL_DRM_DEVICE_FILE_EXT);
    const char* render = str(kRenderNodeFile);
    return (node && want == node) || (render && want == render);
  }
  return contains_folded(str(EGL_VENDOR), want) || contains_folded(str(kRendererName), want) ||
         contains_folded(str(EGL_EXTENSIONS), want);
}

std::string describe_device(int index, EGLDeviceEXT dev) {
  const EglApi& e = egl_api();
  std::string d = "device " + std::to_string(index);
  const char* node = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, EGL_DRM_DEVICE_FILE_EXT) : nullptr;
  if (!node) e.GetError();
  const char* exts = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, EGL_EXTENSIONS) : nullptr;
  if (node) d += std::string(" ") + node;
  else if (has_word(exts, "EGL_MESA_device_software")) d += " (software)";
  return d;
}

}  // namespace

EGLDisplay open_device(const std::string& want, std::string& described) {
  const EglApi& e = egl_api();
  constexpr int kMaxDevices = 16;
  EGLDeviceEXT devices[kMaxDevices];
  EGLint n = 0;
  if (!e.QueryDevicesEXT || !e.QueryDevicesEXT(kMaxDevices, devices, &n)) return EGL_NO_DISPLAY;
  for (int i = 0; i < n; ++i) {
    if (!device_matches(want, i, devices[i])) continue;
    EGLDisplay d = e.GetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && e.Initialize(d, &major, &minor)) {
      described = describe_device(i, devices[i]);
      return d;
    }
    e.GetError();
  }
  return EGL_NO_DISPLAY;
}

}  // namespace pictor::hook
