// EGL entry points the interposer replaces; same rules as the GLX ones.
#include <atomic>

#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/real.h"

using namespace pictor::hook;

namespace {
void missing(const char* name) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line("real %s not found; call failed", name);
}
}  // namespace

#define PICTOR_EXPORT extern "C" __attribute__((visibility("default")))

PICTOR_EXPORT EGLBoolean eglSwapBuffers(EGLDisplay dpy, EGLSurface surface) {
  auto fn = PICTOR_REAL(eglSwapBuffers, egl);
  if (!fn) {
    missing("eglSwapBuffers");
    return EGL_FALSE;
  }
  SwapScope s = before_swap(Api::egl);
  const EGLBoolean r = fn(dpy, surface);
  after_swap(s);
  return r;
}

PICTOR_EXPORT EGLBoolean eglSwapBuffersWithDamageKHR(EGLDisplay dpy, EGLSurface surface,
                                                     const EGLint* rects, EGLint n) {
  auto fn = PICTOR_REAL(eglSwapBuffersWithDamageKHR, egl);
  if (!fn) {
    missing("eglSwapBuffersWithDamageKHR");
    return EGL_FALSE;
  }
  SwapScope s = before_swap(Api::egl);
  const EGLBoolean r = fn(dpy, surface, rects, n);
  after_swap(s);
  return r;
}

PICTOR_EXPORT EGLBoolean eglSwapBuffersWithDamageEXT(EGLDisplay dpy, EGLSurface surface,
                                                     const EGLint* rects, EGLint n) {
  auto fn = PICTOR_REAL(eglSwapBuffersWithDamageEXT, egl);
  if (!fn) {
    missing("eglSwapBuffersWithDamageEXT");
    return EGL_FALSE;
  }
  SwapScope s = before_swap(Api::egl);
  const EGLBoolean r = fn(dpy, surface, rects, n);
  after_swap(s);
  return r;
}

PICTOR_EXPORT EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read,
                                        EGLContext ctx) {
  auto fn = PICTOR_REAL(eglMakeCurrent, egl);
  if (!fn) {
    missing("eglMakeCurrent");
    return EGL_FALSE;
  }
  ContextState* cur = current_context();
  const bool same = cur && cur->key.load(std::memory_order_relaxed) == ctx;
  if (!same) before_unbind();
  const EGLBoolean ok = fn(dpy, draw, read, ctx);
  if (ok && !same) after_bind(ctx == EGL_NO_CONTEXT ? nullptr : ctx, Api::egl);
  return ok;
}

PICTOR_EXPORT EGLBoolean eglDestroyContext(EGLDisplay dpy, EGLContext ctx) {
  auto fn = PICTOR_REAL(eglDestroyContext, egl);
  if (!fn) {
    missing("eglDestroyContext");
    return EGL_FALSE;
  }
  before_destroy(ctx);
  return fn(dpy, ctx);
}

PICTOR_EXPORT __eglMustCastToProperFunctionPointerType eglGetProcAddress(const char* name) {
  auto fn = PICTOR_REAL(eglGetProcAddress, egl);
  if (void* h = hook_for(name)) {
    if (fn) remember_real(name, reinterpret_cast<void*>(fn(name)));
    return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(h);
  }
  return fn ? fn(name) : nullptr;
}
