#include "hook/real.h"

#include <dlfcn.h>

#include <cstring>

#include "hook/hooks.h"
#include "hook/offload.h"

#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace pictor::hook {

namespace {

using DlsymFn = void* (*)(void*, const char*);
DlsymFn g_real_dlsym = nullptr;  // read and written with the compiler's atomics, never out of line

// glibc ≥ 2.34 versions dlsym as GLIBC_2.34; older ones as GLIBC_2.2.5 (x86-64).
PICTOR_UNINSTRUMENTED DlsymFn find_real_dlsym() noexcept {
  if (void* p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34")) return reinterpret_cast<DlsymFn>(p);
  return reinterpret_cast<DlsymFn>(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"));
}

}  // namespace

// No function-local static (its guard), no array on the stack and no library call that may stay
// out of line (std::atomic's members): see PICTOR_UNINSTRUMENTED.
// Two threads that race here both find the same function.
void* real_dlsym(void* handle, const char* name) noexcept {
  DlsymFn fn = __atomic_load_n(&g_real_dlsym, __ATOMIC_ACQUIRE);
  if (!fn) {
    fn = find_real_dlsym();
    __atomic_store_n(&g_real_dlsym, fn, __ATOMIC_RELEASE);
  }
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
  // Offloaded, a GLX context is an EGL one: its GL entry points come from EGL (docs/offload.md).
  if (api == Api::glx && offload_on()) return offload_gl_proc(name);
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
