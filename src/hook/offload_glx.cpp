// GLX served from EGL (docs/offload.md). Contexts are EGL contexts of the desktop GL API on one
// EGLDisplay (a render device, or Mesa's surfaceless platform); every GLX drawable is an EGL
// pbuffer of its window's size, so framebuffer 0 is the off-screen frame and apps need no
// redirection. GLXFBConfigs point at this file's config records: the X server's TrueColor
// visuals of depth 24 and 32 crossed with the device's 8-bit RGB pbuffer configs.
// Creation and destruction take one lock; a swap takes none. This file keeps the state
// (offload_state.h); the GLX entry points are in offload_glx_calls.cpp.
#include "hook/offload_glx.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hook/config.h"
#include "hook/frame_copy.h"
#include "hook/hooks.h"
#include "hook/offload.h"
#include "hook/offload_api.h"
#include "hook/offload_device.h"
#include "hook/offload_fbconfig.h"
#include "hook/offload_state.h"
#include "hook/real.h"

namespace pictor::hook {

namespace offload {

std::mutex g_mutex;  // guards everything below but t_current
std::atomic<int> g_egl_state{0};  // 0 not tried, 1 ready, 2 failed
Egl g_egl;
std::vector<std::unique_ptr<ConfigSet>> g_sets;
std::vector<std::unique_ptr<ContextRecord>> g_contexts;
std::vector<std::unique_ptr<DrawableRecord>> g_drawables;  // never erased: apps may hold stale ids
GLXDrawable g_next_own_id = kOwnIdBase;
thread_local Current t_current;

void log_once(std::atomic<bool>& flag, const char* what) noexcept {
  if (!flag.exchange(true)) log_line("offload: %s", what);
}

// --- the EGL display ---------------------------------------------------------------------------

void flush_at_exit();

// Once per process, under g_mutex.
bool open_egl() {
  if (!egl_api_usable() || !x_api_usable()) return false;
  const EglApi& e = egl_api();
  const char* client = e.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const std::string want = config().offload_device;
  EGLDisplay d = EGL_NO_DISPLAY;
  std::string described;
  if (want != "surfaceless" && has_word(client, "EGL_EXT_platform_device")) d = open_device(want, described);
  if (d == EGL_NO_DISPLAY && !want.empty() && want != "surfaceless")
    log_line("offload: no EGL device matches PICTOR_OFFLOAD_DEVICE=%s: trying the surfaceless platform", want.c_str());
  if (d == EGL_NO_DISPLAY && has_word(client, "EGL_MESA_platform_surfaceless")) {
    d = e.GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && !e.Initialize(d, &major, &minor)) d = EGL_NO_DISPLAY;
    described = "surfaceless";
  }
  if (d == EGL_NO_DISPLAY) {
    log_line("offload: no EGL device or surfaceless platform initialises (EGL error 0x%x): GLX calls fail",
             static_cast<unsigned>(e.GetError()));
    return false;
  }
  g_egl.dpy = d;
  g_egl.device = described;
  const char* vendor = e.QueryString(d, EGL_VENDOR);
  g_egl.vendor = vendor ? vendor : "";
  g_egl.surfaceless_ctx = has_word(e.QueryString(d, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
  log_line("offload: GLX served from EGL %s (%s), frame copy %s", g_egl.device.c_str(), g_egl.vendor.c_str(),
           frame_copy_name(config().frame_copy));
  std::atexit(flush_at_exit);
  return true;
}

bool egl_ready() noexcept {
  const int state = g_egl_state.load(std::memory_order_acquire);
  if (state != 0) return state == 1;
  try {
    std::lock_guard lock(g_mutex);
    if (g_egl_state.load() == 0) g_egl_state.store(open_egl() ? 1 : 2, std::memory_order_release);
  } catch (...) {
    g_egl_state.store(2);
  }
  return g_egl_state.load() == 1;
}

// --- configs -------------------------------------------------------------------------------

EGLint egl_attrib(EGLConfig c, EGLint name) noexcept {
  EGLint v = 0;
  if (!egl_api().GetConfigAttrib(g_egl.dpy, c, name, &v)) return 0;
  return v;
}

// Under g_mutex.
ConfigSet* config_set(Display* dpy, int screen) {
  for (auto& s : g_sets)
    if (s->dpy == dpy && s->screen == screen && !s->closed) return s.get();
  if (!dpy || screen < 0 || screen >= ScreenCount(dpy)) return nullptr;
  const XApi& x = x_api();
  const EglApi& e = egl_api();
  auto set = std::make_unique<ConfigSet>();
  set->dpy = dpy;
  set->screen = screen;
  XVisualInfo tmpl{};
  tmpl.screen = screen;
  tmpl.c_class = TrueColor;
  int nv = 0;
  XVisualInfo* visuals = x.GetVisualInfo(dpy, VisualScreenMask | VisualClassMask, &tmpl, &nv);
  const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                         EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                         EGL_NONE};
  constexpr int kMaxConfigs = 256;
  EGLConfig found[kMaxConfigs];
  EGLint nc = 0;
  if (!e.ChooseConfig(g_egl.dpy, want, found, kMaxConfigs, &nc)) nc = 0;
  int id = 1;
  for (int v = 0; v < nv; ++v) {
    const XVisualInfo& vi = visuals[v];
    if ((vi.depth != 24 && vi.depth != 32) || vi.red_mask != 0xff0000 || vi.green_mask != 0xff00 ||
        vi.blue_mask != 0xff)
      continue;
    for (int c = 0; c < nc; ++c) {
      FbConfig f;
      f.egl = found[c];
      f.red = egl_attrib(found[c], EGL_RED_SIZE);
      f.green = egl_attrib(found[c], EGL_GREEN_SIZE);
      f.blue = egl_attrib(found[c], EGL_BLUE_SIZE);
      f.alpha = egl_attrib(found[c], EGL_ALPHA_SIZE);
      if (f.red != 8 || f.green != 8 || f.blue != 8 || (f.alpha != 0 && f.alpha != 8)) continue;
      if (vi.depth == 32 && f.alpha != 8) continue;
      f.depth_size = egl_attrib(found[c], EGL_DEPTH_SIZE);
      f.stencil = egl_attrib(found[c], EGL_STENCIL_SIZE);
      f.samples = egl_attrib(found[c], EGL_SAMPLES);
      f.sample_buffers = egl_attrib(found[c], EGL_SAMPLE_BUFFERS);
      f.max_pbuffer_width = egl_attrib(found[c], EGL_MAX_PBUFFER_WIDTH);
      f.max_pbuffer_height = egl_attrib(found[c], EGL_MAX_PBUFFER_HEIGHT);
      f.visual = vi.visualid;
      f.depth = vi.depth;
      f.screen = screen;
      for (const bool db : {true, false}) {
        f.doublebuffer = db;
        f.id = id++;
        set->configs.push_back(f);
      }
    }
  }
  if (visuals) x.Free(visuals);
  if (set->configs.empty()) {
    PICTOR_LOG_ONCE("no X TrueColor visual of depth 24/32 pairs with an 8-bit RGB EGL pbuffer config: no GLX configs");
  }
  g_sets.push_back(std::move(set));
  return g_sets.back().get();
}

// The set a GLXFBConfig points into (under g_mutex), or null.
ConfigSet* set_of(const FbConfig* f) {
  for (auto& s : g_sets)
    if (!s->configs.empty() && f >= s->configs.data() && f < s->configs.data() + s->configs.size()) return s.get();
  return nullptr;
}

const FbConfig* as_config(GLXFBConfig c) {
  const auto* f = reinterpret_cast<const FbConfig*>(c);
  return f && set_of(f) ? f : nullptr;
}

GLXFBConfig as_handle(const FbConfig* f) { return reinterpret_cast<GLXFBConfig>(const_cast<FbConfig*>(f)); }

std::vector<const FbConfig*> choose(const ConfigSet& set, const Request& r) {
  std::vector<const FbConfig*> out;
  for (const FbConfig& f : set.configs)
    if (matches(f, r)) out.push_back(&f);
  std::stable_sort(out.begin(), out.end(), [&](const FbConfig* a, const FbConfig* b) { return better(*a, *b, r); });
  return out;
}

XVisualInfo* visual_info(Display* dpy, const FbConfig& f) {
  XVisualInfo tmpl{};
  tmpl.visualid = f.visual;
  tmpl.screen = f.screen;
  int n = 0;
  return x_api().GetVisualInfo(dpy, VisualIDMask | VisualScreenMask, &tmpl, &n);
}

// The config behind a visual the app got from us (or, for one it found itself, the best
// double-buffered config of that visual with a depth and a stencil buffer). Under g_mutex.
const FbConfig* config_of_visual(Display* dpy, const XVisualInfo* vis) {
  if (!vis) return nullptr;
  ConfigSet* set = config_set(dpy, vis->screen);
  if (!set) return nullptr;
  if (auto it = set->chosen.find(vis->visualid); it != set->chosen.end()) return it->second;
  Request r;
  r.doublebuffer = True;
  r.depth = 1;
  r.stencil = 1;
  const FbConfig* best = nullptr;
  for (const FbConfig* f : choose(*set, r))
    if (f->visual == vis->visualid) {
      best = f;
      break;
    }
  if (best) set->chosen[vis->visualid] = best;
  return best;
}

GLXFBConfig* config_array(const std::vector<const FbConfig*>& configs, int* count) {
  if (count) *count = static_cast<int>(configs.size());
  if (configs.empty()) return nullptr;
  // The app frees it with XFree, which is free().
  auto* out = static_cast<GLXFBConfig*>(std::malloc(configs.size() * sizeof(GLXFBConfig)));
  if (!out) {
    if (count) *count = 0;
    return nullptr;
  }
  for (std::size_t i = 0; i < configs.size(); ++i) out[i] = as_handle(configs[i]);
  return out;
}

// --- contexts and drawables ------------------------------------------------------------------

ContextRecord* as_context(GLXContext c) {
  for (auto& ctx : g_contexts)
    if (reinterpret_cast<GLXContext>(ctx.get()) == c) return ctx.get();
  return nullptr;
}

ContextRecord* find_context(GLXContext c) {
  std::lock_guard lock(g_mutex);
  return as_context(c);
}

EGLSurface make_pbuffer(const FbConfig& f, int width, int height) {
  const EGLint attribs[] = {EGL_WIDTH, std::max(width, 1), EGL_HEIGHT, std::max(height, 1), EGL_NONE};
  return egl_api().CreatePbufferSurface(g_egl.dpy, f.egl, attribs);
}

DrawableRecord* find_drawable(Display* dpy, GLXDrawable id) {
  for (auto& d : g_drawables)
    if (d->id == id && !d->closed && (d->dpy == dpy || id >= kOwnIdBase)) return d.get();
  return nullptr;
}

// The drawable of an X window, made on first sight with `config`. Under g_mutex.
DrawableRecord* window_drawable(Display* dpy, Window window, const FbConfig* fbc) {
  if (DrawableRecord* d = find_drawable(dpy, window)) return d;
  if (!fbc || !window) return nullptr;
  XWindowAttributes wa{};
  {
    XErrorTrap trap(dpy);
    const Status ok = x_api().GetWindowAttributes(dpy, window, &wa);
    if (trap.failed() || !ok) {
      PICTOR_LOG_ONCE("a drawable that is not a window (a GLX pixmap?) cannot be offloaded: make-current fails");
      return nullptr;
    }
  }
  auto d = std::make_unique<DrawableRecord>();
  d->dpy = dpy;
  d->id = window;
  d->config = fbc;
  d->window = true;
  d->width = wa.width;
  d->height = wa.height;
  d->surface = make_pbuffer(*fbc, wa.width, wa.height);
  if (d->surface == EGL_NO_SURFACE) {
    log_line("offload: an EGL pbuffer of %dx%d cannot be made (EGL error 0x%x): make-current fails", wa.width,
             wa.height, static_cast<unsigned>(egl_api().GetError()));
    return nullptr;
  }
  XTarget& t = d->target;
  t.dpy = dpy;
  t.window = window;
  t.visual = wa.visual;
  t.depth = wa.depth;
  t.created_width = wa.width;
  t.created_height = wa.height;
  if (config().frame_copy != FrameCopy::vgl) t.geometry_slot = watch_window(window, wa.width, wa.height);
  g_drawables.push_back(std::move(d));
  return g_drawables.back().get();
}

// The drawable follows its window's new size: a new pbuffer, current in place of the old one
// where it was current on this thread.
void resize(DrawableRecord& d, int width, int height) {
  const EglApi& e = egl_api();
  EGLSurface fresh = make_pbuffer(*d.config, width, height);
  if (fresh == EGL_NO_SURFACE) {
    PICTOR_LOG_ONCE("a pbuffer for the window's new size cannot be made: frames keep the old size");
    return;
  }
  EGLSurface old = d.surface;
  d.surface = fresh;
  d.width = width;
  d.height = height;
  Current& cur = t_current;
  if (cur.ctx && (cur.draw == &d || cur.read == &d)) {
    e.BindAPI(cur.ctx->api);
    e.MakeCurrent(g_egl.dpy, cur.draw ? cur.draw->surface : EGL_NO_SURFACE,
                  cur.read ? cur.read->surface : EGL_NO_SURFACE, cur.ctx->egl);
  }
  e.DestroySurface(g_egl.dpy, old);
}

void follow_window_size(DrawableRecord& d) {
  if (!d.window || d.closed) return;
  int w = 0, h = 0;
  if (window_size(d.target, w, h) && (w != d.width || h != d.height)) resize(d, w, h);
}

// Ends `c`'s pending copies, binding it on this thread for that if it is not current here.
void flush_context(ContextRecord& c) {
  if (c.copy.issued == c.copy.finished) return;
  Current& cur = t_current;
  if (cur.ctx == &c) {
    finish_pending(c.copy);
    return;
  }
  const EglApi& e = egl_api();
  DrawableRecord* d = c.last_draw && !c.last_draw->closed ? c.last_draw : nullptr;
  e.BindAPI(c.api);
  if (d && e.MakeCurrent(g_egl.dpy, d->surface, d->surface, c.egl)) {
    finish_pending(c.copy);
  } else {
    PICTOR_LOG_ONCE("a context's last frames could not be finished (its drawable is gone): they are not put");
    for (PendingCopy& p : c.copy.ring) p.target = nullptr;
    c.copy.finished = c.copy.issued;
  }
  if (cur.ctx) {
    e.BindAPI(cur.ctx->api);
    e.MakeCurrent(g_egl.dpy, cur.draw ? cur.draw->surface : EGL_NO_SURFACE,
                  cur.read ? cur.read->surface : EGL_NO_SURFACE, cur.ctx->egl);
  } else {
    e.MakeCurrent(g_egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
}

void flush_at_exit() {
  // An app that exits with its context current: the frames still in the ring reach X, unless
  // its display went first (then they were put when it closed).
  Current& cur = t_current;
  if (cur.ctx && !cur.dpy_closed) finish_pending(cur.ctx->copy);
}

// glXCreateContextAttribsARB's attributes as EGL's; false for one EGL cannot express.
bool egl_context_attribs(const int* attribs, std::vector<EGLint>& out, EGLenum& api) {
  api = EGL_OPENGL_API;
  if (!attribs) {
    out.push_back(EGL_NONE);
    return true;
  }
  int profile = -1;
  for (const int* a = attribs; a[0] != None; a += 2) {
    const int v = a[1];
    switch (a[0]) {
      case GLX_CONTEXT_MAJOR_VERSION_ARB: out.insert(out.end(), {EGL_CONTEXT_MAJOR_VERSION, v}); break;
      case GLX_CONTEXT_MINOR_VERSION_ARB: out.insert(out.end(), {EGL_CONTEXT_MINOR_VERSION, v}); break;
      case GLX_CONTEXT_FLAGS_ARB:
        // Debug, forward-compatible and robust-access bits have the same values in EGL.
        if (v & ~(GLX_CONTEXT_DEBUG_BIT_ARB | GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB | GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB))
          return false;
        out.insert(out.end(), {EGL_CONTEXT_FLAGS_KHR, v});
        break;
      case GLX_CONTEXT_PROFILE_MASK_ARB: profile = v; break;
      case GLX_RENDER_TYPE:
        if (v != GLX_RGBA_TYPE) return false;
        break;
      case GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB:
        out.insert(out.end(), {EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                               v == GLX_LOSE_CONTEXT_ON_RESET_ARB ? EGL_LOSE_CONTEXT_ON_RESET : EGL_NO_RESET_NOTIFICATION});
        break;
      case GLX_CONTEXT_OPENGL_NO_ERROR_ARB: out.insert(out.end(), {EGL_CONTEXT_OPENGL_NO_ERROR_KHR, v}); break;
      case GLX_CONTEXT_RELEASE_BEHAVIOR_ARB:
        out.insert(out.end(), {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR,
                               v == GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB ? EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR
                                                                          : EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR});
        break;
      case GLX_SCREEN: break;
      default: return false;
    }
  }
  if (profile == GLX_CONTEXT_ES2_PROFILE_BIT_EXT) {
    api = EGL_OPENGL_ES_API;
  } else if (profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB || profile == GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB) {
    out.insert(out.end(), {EGL_CONTEXT_OPENGL_PROFILE_MASK,
                           profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                                                       : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT});
  } else if (profile != -1) {
    return false;
  }
  out.push_back(EGL_NONE);
  return true;
}

GLXContext create_context(Display* dpy, const FbConfig* fbc, GLXContext share, const int* attribs) {
  if (!egl_ready()) return nullptr;
  std::vector<EGLint> egl_attribs;
  EGLenum api = EGL_OPENGL_API;
  if (!egl_context_attribs(attribs, egl_attribs, api)) {
    PICTOR_LOG_ONCE("glXCreateContextAttribsARB with an attribute or value EGL has no match for: context not created");
    return nullptr;
  }
  std::lock_guard lock(g_mutex);
  if (!fbc || !set_of(fbc)) {
    PICTOR_LOG_ONCE("a context for a config or visual that is not one of ours: context not created");
    return nullptr;
  }
  EGLContext share_egl = EGL_NO_CONTEXT;
  if (share) {
    ContextRecord* s = as_context(share);
    if (!s) {
      PICTOR_LOG_ONCE("a share context that is not one of ours: context not created");
      return nullptr;
    }
    share_egl = s->egl;
  }
  const EglApi& e = egl_api();
  e.BindAPI(api);
  EGLContext egl = e.CreateContext(g_egl.dpy, fbc->egl, share_egl, egl_attribs.data());
  if (egl == EGL_NO_CONTEXT) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      log_line("offload: EGL refuses the context the app asks for (EGL error 0x%x): glXCreateContext* returns NULL",
               static_cast<unsigned>(e.GetError()));
    return nullptr;
  }
  auto c = std::make_unique<ContextRecord>();
  c->egl = egl;
  c->api = api;
  c->config = fbc;
  c->dpy = dpy;
  g_contexts.push_back(std::move(c));
  return reinterpret_cast<GLXContext>(g_contexts.back().get());
}

Bool make_current(Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx) {
  if (!egl_ready()) return False;
  const EglApi& e = egl_api();
  Current& cur = t_current;
  if (!ctx) {
    if (cur.ctx) {
      e.BindAPI(cur.ctx->api);
      e.MakeCurrent(g_egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    cur = {};
    return draw == None && read == None ? True : False;
  }
  ContextRecord* c = nullptr;
  DrawableRecord *d = nullptr, *r = nullptr;
  {
    std::lock_guard lock(g_mutex);
    c = as_context(ctx);
    if (!c) {
      PICTOR_LOG_ONCE("make-current of a context that is not one of ours: False");
      return False;
    }
    if (draw != None) {
      d = find_drawable(dpy, draw);
      if (!d) d = window_drawable(dpy, draw, c->config);
      if (!d) return False;
    }
    if (read == draw) {
      r = d;
    } else if (read != None) {
      r = find_drawable(dpy, read);
      if (!r) r = window_drawable(dpy, read, c->config);
      if (!r) return False;
    }
    if ((!d || !r) && !(d == nullptr && r == nullptr && g_egl.surfaceless_ctx)) return False;
    // A window resized since its last frame: its next frame is drawn at the new size.
    if (d) follow_window_size(*d);
    if (r && r != d) follow_window_size(*r);
  }
  e.BindAPI(c->api);
  if (!e.MakeCurrent(g_egl.dpy, d ? d->surface : EGL_NO_SURFACE, r ? r->surface : EGL_NO_SURFACE, c->egl)) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true))
      log_line("offload: eglMakeCurrent fails (EGL error 0x%x): glXMakeCurrent returns False",
               static_cast<unsigned>(e.GetError()));
    return False;
  }
  // Frames of a context now bound to another thread or drawable still finish in order.
  cur = {c, d, r, dpy, false};
  if (d) c->last_draw = d;
  return True;
}

void destroy_drawable(Display* dpy, GLXDrawable id) {
  std::lock_guard lock(g_mutex);
  DrawableRecord* d = find_drawable(dpy, id);
  if (!d) return;
  Current& cur = t_current;
  // Its frames still in a ring reach the window first where that context is current here.
  if (cur.ctx) finish_pending(cur.ctx->copy);
  for (auto& c : g_contexts) {
    forget_target(c->copy, &d->target);
    if (c->last_draw == d) c->last_draw = nullptr;
  }
  release_target(d->target);
  d->target.window = 0;
  d->closed = true;
  // A surface still current somewhere is freed by EGL once it is released.
  egl_api().DestroySurface(g_egl.dpy, d->surface);
}

GLXDrawable own_drawable(Display* dpy, const FbConfig* fbc, int width, int height) {
  std::lock_guard lock(g_mutex);
  auto d = std::make_unique<DrawableRecord>();
  d->dpy = dpy;
  d->config = fbc;
  d->width = width;
  d->height = height;
  d->surface = make_pbuffer(*fbc, width, height);
  if (d->surface == EGL_NO_SURFACE) return None;
  d->id = g_next_own_id++;
  g_drawables.push_back(std::move(d));
  return g_drawables.back()->id;
}

const char* extensions() {
  return "GLX_ARB_create_context GLX_ARB_create_context_profile GLX_EXT_create_context_es2_profile "
         "GLX_EXT_create_context_es_profile GLX_ARB_get_proc_address GLX_ARB_multisample GLX_EXT_visual_info "
         "GLX_EXT_swap_control GLX_MESA_swap_control GLX_SGI_swap_control";
}

}  // namespace offload

using namespace offload;

// --- what the hooks outside call ---------------------------------------------------------------

void* offload_gl_proc(const char* name) noexcept {
  if (!name || !egl_ready()) return nullptr;
  return reinterpret_cast<void*>(egl_api().GetProcAddress(name));
}

void* offload_current_context() noexcept { return t_current.ctx; }
void* offload_current_display() noexcept { return t_current.dpy; }

void offload_display_closing(void* display) noexcept {
  if (g_egl_state.load() != 1) return;
  try {
    Current& cur = t_current;
    std::lock_guard lock(g_mutex);
    // Every context of the display, current here or not, puts what it still holds.
    for (auto& c : g_contexts)
      if (c->dpy == display) flush_context(*c);
    if (cur.ctx && cur.dpy == display) cur.dpy_closed = true;
    for (auto& d : g_drawables) {
      if (d->dpy != display || d->closed) continue;
      for (auto& c : g_contexts) forget_target(c->copy, &d->target);
      release_target(d->target);
      d->target.window = 0;
      d->closed = true;
    }
    for (auto& s : g_sets)
      if (s->dpy == display) s->closed = true;
  } catch (...) {
  }
}

std::uint64_t offload_frames_put() noexcept { return frames_put(); }

std::string offload_json() {
  if (!offload_on()) return {};
  std::string device, vendor;
  if (g_egl_state.load() == 1) {
    std::lock_guard lock(g_mutex);
    device = g_egl.device;
    vendor = g_egl.vendor;
  }
  auto quoted = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out + "\"";
  };
  return std::string(", \"render\": \"offload\", \"offload\": {\"frame_copy\": \"") +
         frame_copy_name(config().frame_copy) + "\", \"egl_device\": " + quoted(device) +
         ", \"egl_vendor\": " + quoted(vendor) + ", \"frames_put\": " + std::to_string(frames_put()) + "}";
}


}  // namespace pictor::hook
