// GLX entry points the interposer replaces. Each forwards to the real function and never fails
// because of Pictor: a missing real function is logged once and the call becomes a no-op.
#include <atomic>

#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/real.h"

using namespace pictor::hook;

namespace {
void missing(const char* name) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line("real %s not found; call ignored", name);
}

bool rebinding_same(GLXContext ctx) {
  ContextState* cur = current_context();
  return cur && cur->key.load(std::memory_order_relaxed) == static_cast<void*>(ctx);
}
}  // namespace

#define PICTOR_EXPORT extern "C" __attribute__((visibility("default")))

PICTOR_EXPORT void glXSwapBuffers(Display* dpy, GLXDrawable drawable) {
  auto fn = PICTOR_REAL(glXSwapBuffers, gl);
  if (!fn) return missing("glXSwapBuffers");
  SwapScope s = before_swap(Api::glx);
  fn(dpy, drawable);
  after_swap(s);
}

PICTOR_EXPORT int64_t glXSwapBuffersMscOML(Display* dpy, GLXDrawable drawable, int64_t target_msc,
                                           int64_t divisor, int64_t remainder) {
  auto fn = PICTOR_REAL(glXSwapBuffersMscOML, gl);
  if (!fn) {
    missing("glXSwapBuffersMscOML");
    return -1;
  }
  SwapScope s = before_swap(Api::glx);
  const int64_t r = fn(dpy, drawable, target_msc, divisor, remainder);
  after_swap(s);
  return r;
}

PICTOR_EXPORT Bool glXMakeCurrent(Display* dpy, GLXDrawable drawable, GLXContext ctx) {
  auto fn = PICTOR_REAL(glXMakeCurrent, gl);
  if (!fn) {
    missing("glXMakeCurrent");
    return False;
  }
  const bool same = rebinding_same(ctx);
  if (!same) before_unbind();
  const Bool ok = fn(dpy, drawable, ctx);
  if (ok && !same) after_bind(ctx, Api::glx);
  return ok;
}

PICTOR_EXPORT Bool glXMakeContextCurrent(Display* dpy, GLXDrawable draw, GLXDrawable read,
                                         GLXContext ctx) {
  auto fn = PICTOR_REAL(glXMakeContextCurrent, gl);
  if (!fn) {
    missing("glXMakeContextCurrent");
    return False;
  }
  const bool same = rebinding_same(ctx);
  if (!same) before_unbind();
  const Bool ok = fn(dpy, draw, read, ctx);
  if (ok && !same) after_bind(ctx, Api::glx);
  return ok;
}

PICTOR_EXPORT void glXDestroyContext(Display* dpy, GLXContext ctx) {
  auto fn = PICTOR_REAL(glXDestroyContext, gl);
  if (!fn) return missing("glXDestroyContext");
  before_destroy(ctx);
  fn(dpy, ctx);
}

// Apps that look swap up by name get our hook; everything else resolves as it always would.
static __GLXextFuncPtr lookup_glx(const GLubyte* name, bool arb) {
  const char* n = reinterpret_cast<const char*>(name);
  if (void* h = hook_for(n)) {
    // Make sure we know the real one before handing out ours.
    if (auto gpa = PICTOR_REAL(glXGetProcAddressARB, gl)) remember_real(n, reinterpret_cast<void*>(gpa(name)));
    return reinterpret_cast<__GLXextFuncPtr>(h);
  }
  if (arb) {
    auto fn = PICTOR_REAL(glXGetProcAddressARB, gl);
    return fn ? fn(name) : nullptr;
  }
  auto fn = PICTOR_REAL(glXGetProcAddress, gl);
  return fn ? fn(name) : nullptr;
}

PICTOR_EXPORT __GLXextFuncPtr glXGetProcAddressARB(const GLubyte* name) { return lookup_glx(name, true); }
PICTOR_EXPORT __GLXextFuncPtr glXGetProcAddress(const GLubyte* name) { return lookup_glx(name, false); }
