// The real functions behind every interposed symbol, as typed pointers in one loader struct,
// resolved lazily (apps may dlopen libGL/libEGL late and privately) and never assumed non-null.
#pragma once
#include <atomic>
#include <cstdint>

#include "hook/gl_api.h"
#include "hook/hook_list.h"

namespace pictor::hook {

enum class Api : std::uint8_t { glx, egl };

// A GL entry point through the real GetProcAddress of the context's API (null when absent).
void* gl_proc(Api api, const char* name) noexcept;

// Code that runs inside the sanitizer runtime's own start-up in the sanitizer build
// (-DPICTOR_SANITIZE=ON): ASan's interceptors look their targets up with dlsym(RTLD_NEXT, ...)
// before its shadow memory exists, and our dlsym answers them. Instrumented code there
// touches that shadow and crashes the process before main, so this path is left uninstrumented.
#define PICTOR_UNINSTRUMENTED __attribute__((no_sanitize("address", "undefined")))

// dlsym as libc provides it (our own dlsym is interposed).
PICTOR_UNINSTRUMENTED void* real_dlsym(void* handle, const char* name) noexcept;

// decltype(&::dlsym) carries glibc's nonnull attributes, which templates ignore: harmless here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
struct Real {
#define PICTOR_REAL_MEMBER(name, lib) std::atomic<decltype(&::name)> name{nullptr};
  PICTOR_HOOK_LIST(PICTOR_REAL_MEMBER)
#undef PICTOR_REAL_MEMBER
};
#pragma GCC diagnostic pop

Real& real() noexcept;

// Returns the real function, resolving it on first use: RTLD_NEXT first, then the library the
// symbol belongs to. May return null: callers fail open.
// Looks a name up in the hook list: our replacement for it, or null.
void* hook_for(const char* name) noexcept;
// The already-loaded library ("gl", "egl") a real function lives in, or null.
void* library_handle(const char* library) noexcept;

template <typename Fn>
Fn resolve(std::atomic<Fn>& slot, const char* name, const char* library) noexcept {
  Fn fn = slot.load(std::memory_order_acquire);
  if (fn) return fn;
  void* p = real_dlsym(RTLD_NEXT, name);
  if (!p) {
    if (void* handle = library_handle(library)) p = real_dlsym(handle, name);
  }
  // Never let a lookup hand back our own hook: that would recurse forever.
  if (p && p == hook_for(name)) p = nullptr;
  fn = reinterpret_cast<Fn>(p);
  if (fn) slot.store(fn, std::memory_order_release);
  return fn;
}
// Records `fn` as the real implementation of `name` when it is one of ours and unknown yet
// (used by the dlsym/GetProcAddress hooks, which see the real pointer first).
void remember_real(const char* name, void* fn) noexcept;

#define PICTOR_REAL(name, lib) \
  ::pictor::hook::resolve(::pictor::hook::real().name, #name, #lib)

}  // namespace pictor::hook
