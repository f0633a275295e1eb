// The GLX entry points of the offload (offload_glx.h), on the state of offload_state.h.
// Unsupported requests fail the way GLX reports failure and are logged once (docs/offload.md).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "hook/config.h"
#include "hook/frame_copy.h"
#include "hook/hooks.h"
#include "hook/offload.h"
#include "hook/offload_api.h"
#include "hook/offload_glx.h"
#include "hook/offload_state.h"
#include "hook/real.h"

namespace pictor::hook {

using namespace offload;

// --- GLX -----------------------------------------------------------------------------------------

namespace glx_offload {

XVisualInfo* glXChooseVisual(Display* dpy, int screen, int* attribs) {
  if (!egl_ready()) return nullptr;
  Request r;
  r.doublebuffer = False;  // GLX 1.4: without GLX_DOUBLEBUFFER only single-buffered visuals
  r.render_type = 0;       // colour index unless GLX_RGBA
  for (const int* a = attribs; a && *a != None; ++a) {
    switch (*a) {
      case GLX_USE_GL: break;
      case GLX_RGBA: r.render_type = GLX_RGBA_BIT; break;
      case GLX_DOUBLEBUFFER: r.doublebuffer = True; break;
      case GLX_STEREO: r.stereo = True; break;
      default:
        set_request(r, a[0], a[1]);
        ++a;
    }
  }
  if (r.render_type == 0) {
    PICTOR_LOG_ONCE("glXChooseVisual without GLX_RGBA asks for colour index, which is not served: NULL");
    return nullptr;
  }
  std::lock_guard lock(g_mutex);
  ConfigSet* set = config_set(dpy, screen);
  if (!set) return nullptr;
  const auto found = choose(*set, r);
  if (found.empty()) return nullptr;
  set->chosen[found.front()->visual] = found.front();
  return visual_info(dpy, *found.front());
}

GLXFBConfig* glXChooseFBConfig(Display* dpy, int screen, const int* attribs, int* count) {
  if (count) *count = 0;
  if (!egl_ready()) return nullptr;
  Request r;
  for (const int* a = attribs; a && a[0] != None; a += 2) set_request(r, a[0], a[1]);
  std::lock_guard lock(g_mutex);
  ConfigSet* set = config_set(dpy, screen);
  return set ? config_array(choose(*set, r), count) : nullptr;
}

GLXFBConfig* glXGetFBConfigs(Display* dpy, int screen, int* count) {
  if (count) *count = 0;
  if (!egl_ready()) return nullptr;
  std::lock_guard lock(g_mutex);
  ConfigSet* set = config_set(dpy, screen);
  if (!set) return nullptr;
  std::vector<const FbConfig*> all;
  for (const FbConfig& f : set->configs) all.push_back(&f);
  return config_array(all, count);
}

int glXGetFBConfigAttrib(Display*, GLXFBConfig fbc, int attribute, int* value) {
  std::lock_guard lock(g_mutex);
  const FbConfig* f = as_config(fbc);
  if (!f) return GLX_BAD_VISUAL;
  int v = 0;
  if (!fb_attrib(*f, attribute, v)) return GLX_BAD_ATTRIBUTE;
  if (value) *value = v;
  return Success;
}

XVisualInfo* glXGetVisualFromFBConfig(Display* dpy, GLXFBConfig fbc) {
  std::lock_guard lock(g_mutex);
  const FbConfig* f = as_config(fbc);
  if (!f) return nullptr;
  set_of(f)->chosen[f->visual] = f;
  return visual_info(dpy, *f);
}

int glXGetConfig(Display* dpy, XVisualInfo* visual, int attribute, int* value) {
  if (!egl_ready()) return GLX_NO_EXTENSION;
  std::lock_guard lock(g_mutex);
  const FbConfig* f = config_of_visual(dpy, visual);
  if (!f) {
    // Not one of ours: GLX says GLX_USE_GL is False for it.
    if (attribute == GLX_USE_GL && value) *value = False;
    return attribute == GLX_USE_GL ? Success : GLX_BAD_VISUAL;
  }
  int v = 0;
  if (!fb_attrib(*f, attribute, v)) return GLX_BAD_ATTRIBUTE;
  if (value) *value = v;
  return Success;
}

GLXContext glXCreateContext(Display* dpy, XVisualInfo* visual, GLXContext share, Bool) {
  if (!egl_ready()) return nullptr;
  const FbConfig* f = nullptr;
  {
    std::lock_guard lock(g_mutex);
    f = config_of_visual(dpy, visual);
  }
  return create_context(dpy, f, share, nullptr);
}

GLXContext glXCreateNewContext(Display* dpy, GLXFBConfig fbc, int render_type, GLXContext share, Bool) {
  if (render_type != GLX_RGBA_TYPE) {
    PICTOR_LOG_ONCE("glXCreateNewContext for colour index is not served: NULL");
    return nullptr;
  }
  return create_context(dpy, reinterpret_cast<const FbConfig*>(fbc), share, nullptr);
}

GLXContext glXCreateContextAttribsARB(Display* dpy, GLXFBConfig fbc, GLXContext share, Bool,
                                      const int* attribs) {
  static const int kNone[] = {None};
  return create_context(dpy, reinterpret_cast<const FbConfig*>(fbc), share, attribs ? attribs : kNone);
}

void glXDestroyContext(Display*, GLXContext ctx) {
  if (!egl_ready() || !ctx) return;
  ContextRecord* c = find_context(ctx);
  if (!c) return;
  const EglApi& e = egl_api();
  Current& cur = t_current;
  flush_context(*c);
  // The interposer's own per-context state (GPU queries) goes while the context is current.
  before_destroy(ctx);
  if (cur.ctx == c) {
    release_copy_gl(c->copy);
    e.BindAPI(c->api);
    e.MakeCurrent(g_egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    cur = {};
  }
  e.DestroyContext(g_egl.dpy, c->egl);
  std::lock_guard lock(g_mutex);
  std::erase_if(g_contexts, [&](const std::unique_ptr<ContextRecord>& p) { return p.get() == c; });
}

void glXCopyContext(Display*, GLXContext, GLXContext, unsigned long) {
  PICTOR_LOG_ONCE("glXCopyContext is not served: ignored");
}

Bool glXIsDirect(Display*, GLXContext ctx) { return find_context(ctx) ? True : False; }

int glXQueryContext(Display*, GLXContext ctx, int attribute, int* value) {
  std::lock_guard lock(g_mutex);
  ContextRecord* c = as_context(ctx);
  if (!c) return GLX_BAD_CONTEXT;
  int v = 0;
  switch (attribute) {
    case GLX_FBCONFIG_ID: v = c->config->id; break;
    case GLX_RENDER_TYPE: v = GLX_RGBA_TYPE; break;
    case GLX_SCREEN: v = c->config->screen; break;
    default: return GLX_BAD_ATTRIBUTE;
  }
  if (value) *value = v;
  return Success;
}

Bool glXMakeCurrent(Display* dpy, GLXDrawable drawable, GLXContext ctx) {
  return make_current(dpy, drawable, drawable, ctx);
}

Bool glXMakeContextCurrent(Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx) {
  return make_current(dpy, draw, read, ctx);
}

GLXContext glXGetCurrentContext() { return reinterpret_cast<GLXContext>(t_current.ctx); }
GLXDrawable glXGetCurrentDrawable() { return t_current.draw ? t_current.draw->id : GLXDrawable{None}; }
GLXDrawable glXGetCurrentReadDrawable() { return t_current.read ? t_current.read->id : GLXDrawable{None}; }
Display* glXGetCurrentDisplay() { return t_current.dpy; }

void glXSwapBuffers(Display* dpy, GLXDrawable drawable) {
  Current& cur = t_current;
  DrawableRecord* d = cur.draw;
  if (!cur.ctx || !d || d->id != drawable || (d->dpy != dpy && drawable < kOwnIdBase)) {
    PICTOR_LOG_ONCE("glXSwapBuffers of a drawable not current on this thread: ignored");
    return;
  }
  SwapScope s = before_swap(Api::glx);
  int window_w = 0, window_h = 0;
  if (d->window && d->target.window) copy_frame(cur.ctx->copy, d->target, d->width, d->height, s, window_w, window_h);
  else finish_pending(cur.ctx->copy);  // nothing to show: frames in flight still go first, in order
  after_swap(s);
  // The next frame is drawn at the window's new size.
  if (window_w > 0 && window_h > 0 && (window_w != d->width || window_h != d->height)) {
    std::lock_guard lock(g_mutex);
    resize(*d, window_w, window_h);
  }
}

int64_t glXSwapBuffersMscOML(Display* dpy, GLXDrawable drawable, int64_t, int64_t, int64_t) {
  glx_offload::glXSwapBuffers(dpy, drawable);
  return 0;
}

void glXSwapIntervalEXT(Display* dpy, GLXDrawable drawable, int interval) {
  std::lock_guard lock(g_mutex);
  if (DrawableRecord* d = find_drawable(dpy, drawable)) d->swap_interval = std::max(interval, 0);
}

int glXSwapIntervalMESA(unsigned int interval) {
  if (!t_current.draw) return GLX_BAD_CONTEXT;
  t_current.draw->swap_interval = static_cast<int>(std::min(interval, 1000u));
  return 0;
}

int glXGetSwapIntervalMESA() { return t_current.draw ? t_current.draw->swap_interval : 0; }

int glXSwapIntervalSGI(int interval) {
  if (interval <= 0) return GLX_BAD_VALUE;
  if (!t_current.draw) return GLX_BAD_CONTEXT;
  t_current.draw->swap_interval = interval;
  return 0;
}

GLXWindow glXCreateWindow(Display* dpy, GLXFBConfig fbc, Window window, const int*) {
  if (!egl_ready()) return None;
  std::lock_guard lock(g_mutex);
  const FbConfig* f = as_config(fbc);
  if (!f) return None;
  // The GLX window is the X window: one id for both, as the app's swaps may name either.
  return window_drawable(dpy, window, f) ? window : GLXWindow{None};
}

void glXDestroyWindow(Display* dpy, GLXWindow window) {
  if (egl_ready()) destroy_drawable(dpy, window);
}

GLXPbuffer glXCreatePbuffer(Display* dpy, GLXFBConfig fbc, const int* attribs) {
  if (!egl_ready()) return None;
  int width = 0, height = 0;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    if (a[0] == GLX_PBUFFER_WIDTH) width = a[1];
    if (a[0] == GLX_PBUFFER_HEIGHT) height = a[1];
  }
  const FbConfig* f = nullptr;
  {
    std::lock_guard lock(g_mutex);
    f = as_config(fbc);
  }
  if (!f || width <= 0 || height <= 0) return None;
  return own_drawable(dpy, f, width, height);
}

void glXDestroyPbuffer(Display* dpy, GLXPbuffer pbuffer) {
  if (egl_ready()) destroy_drawable(dpy, pbuffer);
}

GLXPixmap glXCreatePixmap(Display*, GLXFBConfig, Pixmap, const int*) {
  PICTOR_LOG_ONCE("GLX pixmaps are not served: glXCreatePixmap returns None");
  return None;
}

void glXDestroyPixmap(Display*, GLXPixmap) {}

GLXPixmap glXCreateGLXPixmap(Display*, XVisualInfo*, Pixmap) {
  PICTOR_LOG_ONCE("GLX pixmaps are not served: glXCreateGLXPixmap returns None");
  return None;
}

void glXDestroyGLXPixmap(Display*, GLXPixmap) {}

void glXQueryDrawable(Display* dpy, GLXDrawable drawable, int attribute, unsigned int* value) {
  if (!value) return;
  std::lock_guard lock(g_mutex);
  const DrawableRecord* d = find_drawable(dpy, drawable);
  if (!d) {
    *value = 0;
    return;
  }
  switch (attribute) {
    case GLX_WIDTH: *value = static_cast<unsigned>(d->width); break;
    case GLX_HEIGHT: *value = static_cast<unsigned>(d->height); break;
    case GLX_FBCONFIG_ID: *value = static_cast<unsigned>(d->config->id); break;
    case GLX_PRESERVED_CONTENTS: *value = True; break;
    case GLX_LARGEST_PBUFFER: *value = False; break;
    case GLX_SWAP_INTERVAL_EXT: *value = static_cast<unsigned>(d->swap_interval); break;
    case GLX_MAX_SWAP_INTERVAL_EXT: *value = 1000; break;
    default: *value = 0;
  }
}

void glXSelectEvent(Display*, GLXDrawable, unsigned long) {}

void glXGetSelectedEvent(Display*, GLXDrawable, unsigned long* mask) {
  if (mask) *mask = 0;
}

Bool glXQueryExtension(Display* dpy, int* error_base, int* event_base) {
  if (!egl_ready()) return False;
  int opcode = 0, event = 0, error = 0;
  // The server's own GLX numbers where it has the extension; the app only compares with them.
  if (const auto query = x_api().QueryExtension; dpy && query) query(dpy, "GLX", &opcode, &event, &error);
  if (error_base) *error_base = error;
  if (event_base) *event_base = event;
  return True;
}

Bool glXQueryVersion(Display*, int* major, int* minor) {
  if (!egl_ready()) return False;
  if (major) *major = 1;
  if (minor) *minor = 4;
  return True;
}

const char* glXQueryExtensionsString(Display*, int) { return extensions(); }

const char* glXQueryServerString(Display*, int, int name) { return glXGetClientString(nullptr, name); }

const char* glXGetClientString(Display*, int name) {
  switch (name) {
    case GLX_VENDOR: return "Pictor (GLX offload to EGL)";
    case GLX_VERSION: return "1.4";
    case GLX_EXTENSIONS: return extensions();
    default: return nullptr;
  }
}

void glXWaitGL() {
  if (t_current.ctx && egl_api().WaitClient) egl_api().WaitClient();
}

void glXWaitX() {
  if (t_current.dpy && !t_current.dpy_closed) x_api().Sync(t_current.dpy, False);
}

void glXUseXFont(Font, int, int, int) { PICTOR_LOG_ONCE("glXUseXFont is not served: ignored"); }

__GLXextFuncPtr get_proc_address(const GLubyte* name) {
  const char* n = reinterpret_cast<const char*>(name);
  if (!n) return nullptr;
  if (void* h = hook_for(n)) return reinterpret_cast<__GLXextFuncPtr>(h);
  if (std::strncmp(n, "glX", 3) == 0) return nullptr;  // a GLX function this GLX does not serve
  return reinterpret_cast<__GLXextFuncPtr>(offload_gl_proc(n));
}

}  // namespace glx_offload

}  // namespace pictor::hook
