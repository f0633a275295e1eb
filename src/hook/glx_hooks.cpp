// GLX entry points the interposer replaces. Each forwards to the real function and never fails
// because of Pictor: a missing real function is logged once and the call becomes a no-op.
// With PICTOR_RENDER=offload they are served by offload_glx.h instead, and the real GLX is
// never called (docs/offload.md).
#include <atomic>
#include <cstring>

#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/offload.h"
#include "hook/offload_glx.h"
#include "hook/real.h"

using namespace pictor::hook;

namespace {
void missing(const char* name) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line("real %s not found; call ignored", name);
}

bool offload_listed(const char* name) {
#define PICTOR_LISTED(fn, lib) \
  if (std::strcmp(name, #fn) == 0) return true;
  PICTOR_GLX_OFFLOAD_LIST(PICTOR_LISTED)
#undef PICTOR_LISTED
  return false;
}

bool rebinding_same(GLXContext ctx) {
  ContextState* cur = current_context();
  return cur && cur->key.load(std::memory_order_relaxed) == static_cast<void*>(ctx);
}
}  // namespace

#define PICTOR_EXPORT extern "C" __attribute__((visibility("default")))

PICTOR_EXPORT void glXSwapBuffers(Display* dpy, GLXDrawable drawable) {
  if (offload_on()) return glx_offload::glXSwapBuffers(dpy, drawable);
  auto fn = PICTOR_REAL(glXSwapBuffers, gl);
  if (!fn) return missing("glXSwapBuffers");
  SwapScope s = before_swap(Api::glx);
  fn(dpy, drawable);
  after_swap(s);
}

PICTOR_EXPORT int64_t glXSwapBuffersMscOML(Display* dpy, GLXDrawable drawable, int64_t target_msc,
                                           int64_t divisor, int64_t remainder) {
  if (offload_on()) return glx_offload::glXSwapBuffersMscOML(dpy, drawable, target_msc, divisor, remainder);
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
  auto fn = offload_on() ? &glx_offload::glXMakeCurrent : PICTOR_REAL(glXMakeCurrent, gl);
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
  auto fn = offload_on() ? &glx_offload::glXMakeContextCurrent : PICTOR_REAL(glXMakeContextCurrent, gl);
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
  // Offloaded, the context's last frames are put and its GPU queries retired inside.
  if (offload_on()) return glx_offload::glXDestroyContext(dpy, ctx);
  auto fn = PICTOR_REAL(glXDestroyContext, gl);
  if (!fn) return missing("glXDestroyContext");
  before_destroy(ctx);
  fn(dpy, ctx);
}

// Apps that look swap up by name get our hook; everything else resolves as it always would.
static __GLXextFuncPtr lookup_glx(const GLubyte* name, bool arb) {
  if (offload_on()) return glx_offload::get_proc_address(name);
  const char* n = reinterpret_cast<const char*>(name);
  if (void* h = hook_for(n)) {
    // Make sure we know the real one before handing out ours.
    void* real_fn = nullptr;
    if (auto gpa = PICTOR_REAL(glXGetProcAddressARB, gl)) real_fn = reinterpret_cast<void*>(gpa(name));
    remember_real(n, real_fn);
    // What the real GLX does not have stays unknown to the app, as it was before these were hooked.
    if (!real_fn && offload_listed(n)) return nullptr;
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

// The rest of GLX (hook_list.h PICTOR_GLX_OFFLOAD_LIST): served by the offload when it is on,
// else passed to the real GLX as they come. `fail` is what a missing real function returns.
#define PICTOR_GLX_ENTRY(ret, name, params, args, fail)        \
  PICTOR_EXPORT ret name params {                               \
    if (offload_on()) return glx_offload::name args;            \
    auto fn = PICTOR_REAL(name, gl);                            \
    if (!fn) return missing(#name), fail;                       \
    return fn args;                                             \
  }

// (void)0 is the "value" a void function returns when its real one is missing.
PICTOR_GLX_ENTRY(XVisualInfo*, glXChooseVisual, (Display * dpy, int screen, int* attribs), (dpy, screen, attribs),
                 nullptr)
PICTOR_GLX_ENTRY(GLXFBConfig*, glXChooseFBConfig, (Display * dpy, int screen, const int* attribs, int* count),
                 (dpy, screen, attribs, count), nullptr)
PICTOR_GLX_ENTRY(GLXFBConfig*, glXGetFBConfigs, (Display * dpy, int screen, int* count), (dpy, screen, count), nullptr)
PICTOR_GLX_ENTRY(int, glXGetFBConfigAttrib, (Display * dpy, GLXFBConfig fbc, int attribute, int* value),
                 (dpy, fbc, attribute, value), GLX_NO_EXTENSION)
PICTOR_GLX_ENTRY(XVisualInfo*, glXGetVisualFromFBConfig, (Display * dpy, GLXFBConfig fbc), (dpy, fbc), nullptr)
PICTOR_GLX_ENTRY(int, glXGetConfig, (Display * dpy, XVisualInfo* visual, int attribute, int* value),
                 (dpy, visual, attribute, value), GLX_NO_EXTENSION)
PICTOR_GLX_ENTRY(GLXContext, glXCreateContext, (Display * dpy, XVisualInfo* visual, GLXContext share, Bool direct),
                 (dpy, visual, share, direct), nullptr)
PICTOR_GLX_ENTRY(GLXContext, glXCreateNewContext,
                 (Display * dpy, GLXFBConfig fbc, int render_type, GLXContext share, Bool direct),
                 (dpy, fbc, render_type, share, direct), nullptr)
PICTOR_GLX_ENTRY(GLXContext, glXCreateContextAttribsARB,
                 (Display * dpy, GLXFBConfig fbc, GLXContext share, Bool direct, const int* attribs),
                 (dpy, fbc, share, direct, attribs), nullptr)
PICTOR_GLX_ENTRY(void, glXCopyContext, (Display * dpy, GLXContext src, GLXContext dst, unsigned long mask),
                 (dpy, src, dst, mask), (void)0)
PICTOR_GLX_ENTRY(Bool, glXIsDirect, (Display * dpy, GLXContext ctx), (dpy, ctx), False)
PICTOR_GLX_ENTRY(int, glXQueryContext, (Display * dpy, GLXContext ctx, int attribute, int* value),
                 (dpy, ctx, attribute, value), GLX_NO_EXTENSION)
PICTOR_GLX_ENTRY(GLXContext, glXGetCurrentContext, (), (), nullptr)
PICTOR_GLX_ENTRY(GLXDrawable, glXGetCurrentDrawable, (), (), None)
PICTOR_GLX_ENTRY(GLXDrawable, glXGetCurrentReadDrawable, (), (), None)
PICTOR_GLX_ENTRY(Display*, glXGetCurrentDisplay, (), (), nullptr)
PICTOR_GLX_ENTRY(void, glXSwapIntervalEXT, (Display * dpy, GLXDrawable drawable, int interval),
                 (dpy, drawable, interval), (void)0)
PICTOR_GLX_ENTRY(int, glXSwapIntervalMESA, (unsigned int interval), (interval), GLX_BAD_CONTEXT)
PICTOR_GLX_ENTRY(int, glXGetSwapIntervalMESA, (), (), 0)
PICTOR_GLX_ENTRY(int, glXSwapIntervalSGI, (int interval), (interval), GLX_BAD_CONTEXT)
PICTOR_GLX_ENTRY(GLXWindow, glXCreateWindow, (Display * dpy, GLXFBConfig fbc, Window window, const int* attribs),
                 (dpy, fbc, window, attribs), None)
PICTOR_GLX_ENTRY(void, glXDestroyWindow, (Display * dpy, GLXWindow window), (dpy, window), (void)0)
PICTOR_GLX_ENTRY(GLXPbuffer, glXCreatePbuffer, (Display * dpy, GLXFBConfig fbc, const int* attribs),
                 (dpy, fbc, attribs), None)
PICTOR_GLX_ENTRY(void, glXDestroyPbuffer, (Display * dpy, GLXPbuffer pbuffer), (dpy, pbuffer), (void)0)
PICTOR_GLX_ENTRY(GLXPixmap, glXCreatePixmap, (Display * dpy, GLXFBConfig fbc, Pixmap pixmap, const int* attribs),
                 (dpy, fbc, pixmap, attribs), None)
PICTOR_GLX_ENTRY(void, glXDestroyPixmap, (Display * dpy, GLXPixmap pixmap), (dpy, pixmap), (void)0)
PICTOR_GLX_ENTRY(GLXPixmap, glXCreateGLXPixmap, (Display * dpy, XVisualInfo* visual, Pixmap pixmap),
                 (dpy, visual, pixmap), None)
PICTOR_GLX_ENTRY(void, glXDestroyGLXPixmap, (Display * dpy, GLXPixmap pixmap), (dpy, pixmap), (void)0)
PICTOR_GLX_ENTRY(void, glXQueryDrawable, (Display * dpy, GLXDrawable drawable, int attribute, unsigned int* value),
                 (dpy, drawable, attribute, value), (void)0)
PICTOR_GLX_ENTRY(void, glXSelectEvent, (Display * dpy, GLXDrawable drawable, unsigned long mask),
                 (dpy, drawable, mask), (void)0)
PICTOR_GLX_ENTRY(void, glXGetSelectedEvent, (Display * dpy, GLXDrawable drawable, unsigned long* mask),
                 (dpy, drawable, mask), (void)0)
PICTOR_GLX_ENTRY(Bool, glXQueryExtension, (Display * dpy, int* error_base, int* event_base),
                 (dpy, error_base, event_base), False)
PICTOR_GLX_ENTRY(Bool, glXQueryVersion, (Display * dpy, int* major, int* minor), (dpy, major, minor), False)
PICTOR_GLX_ENTRY(const char*, glXQueryExtensionsString, (Display * dpy, int screen), (dpy, screen), nullptr)
PICTOR_GLX_ENTRY(const char*, glXQueryServerString, (Display * dpy, int screen, int name), (dpy, screen, name),
                 nullptr)
PICTOR_GLX_ENTRY(const char*, glXGetClientString, (Display * dpy, int name), (dpy, name), nullptr)
PICTOR_GLX_ENTRY(void, glXWaitGL, (), (), (void)0)
PICTOR_GLX_ENTRY(void, glXWaitX, (), (), (void)0)
PICTOR_GLX_ENTRY(void, glXUseXFont, (Font font, int first, int count, int list), (font, first, count, list), (void)0)
