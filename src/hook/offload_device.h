// Which EGL display the offload renders on (PICTOR_OFFLOAD_DEVICE, docs/offload.md): the EGL
// devices (EGL_EXT_device_enumeration) matched by index, DRM node or a word of their names.
#pragma once
#include "hook/gl_api.h"

#include <string>

namespace pictor::hook {

// Whether the space-separated `list` (an extension string) holds `word`; false for null.
bool has_word(const char* list, const char* word) noexcept;
// The first device that matches `want` (empty: any) and initialises, its description in
// `described` ("device 0 (software)"); EGL_NO_DISPLAY when none does.
EGLDisplay open_device(const std::string& want, std::string& described);

}  // namespace pictor::hook
