#include "hook/real.h"

#include <cstring>

#include "hook/hooks.h"

#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace pictor::hook {

void* real_dlsym(void* handle, const char* name) noexcept {
  using DlsymFn = void* (*)(void*, const char*);
  static DlsymFn fn = [] {
    // glibc ≥ 2.34 versions dlsym as GLIBC_2.34; older ones as GLIBC_2.2.5 (x86-64).
    for (const char* version : {"GLIBC_2.34", "GLIBC_2.2.5"})
      if (void* p = dlvsym(RTLD_NEXT, "dlsym", version)) return reinterpret_cast<DlsymFn>(p);
    return static_cast<DlsymFn>(nullptr);
  }();
  return fn ? fn(handle, name) : nullptr;
}

Real& real() noexcept {
  static Real r;
  return r;
}

void* library_handle(const char* library) noexcept {
  const char* soname = std::strcmp(library, "egl") == 0   ? "libEGL.so.1"
                       : std::strcmp(library, "gl") == 0  ? "libGL.so.1"
                       : std::strcmp(library, "x11") == 0 ? "libX11.so.6"
                       : std::strcmp(library, "xcb") == 0 ? "libxcb.so.1"
                                                          : nullptr;
  if (!soname) return nullptr;
  // Only a library the process already has: loading libGL into an EGL-only app would change it.
  return dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
}

void* gl_proc(Api api, const char* name) noexcept {
  if (api == Api::egl) {
    auto gpa = PICTOR_REAL(eglGetProcAddress, egl);
    return gpa ? reinterpret_cast<void*>(gpa(name)) : nullptr;
  }
  auto gpa = PICTOR_REAL(glXGetProcAddressARB, gl);
  return gpa ? reinterpret_cast<void*>(gpa(reinterpret_cast<const GLubyte*>(name))) : nullptr;
}

void* hook_for(const char* name) noexcept {
  if (!name) return nullptr;
#define PICTOR_MATCH(fn, lib) \
  if (std::strcmp(name, #fn) == 0) return reinterpret_cast<void*>(&::fn);
  PICTOR_HOOK_LIST(PICTOR_MATCH)
#undef PICTOR_MATCH
  return nullptr;
}

void remember_real(const char* name, void* fn) noexcept {
  if (!name || !fn) return;
#define PICTOR_REMEMBER(f, lib)                                                   \
  if (std::strcmp(name, #f) == 0) {                                               \
    if (fn != reinterpret_cast<void*>(&::f)) {                                    \
      decltype(&::f) expected = nullptr;                                          \
      real().f.compare_exchange_strong(expected, reinterpret_cast<decltype(&::f)>(fn)); \
    }                                                                             \
    return;                                                                       \
  }
  PICTOR_HOOK_LIST(PICTOR_REMEMBER)
#undef PICTOR_REMEMBER
}

}  // namespace pictor::hook
