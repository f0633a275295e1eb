// The GLX offload's state, shared by its two halves: offload_glx.cpp (the records, the EGL
// display, configs, contexts and drawables) and offload_glx_calls.cpp (the GLX entry points).
// Internal to the interposer's offload (docs/offload.md).
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hook/frame_copy.h"
#include "hook/gl_api.h"
#include "hook/offload_fbconfig.h"

namespace pictor::hook::offload {

struct ConfigSet {
  Display* dpy = nullptr;
  int screen = 0;
  bool closed = false;
  std::vector<FbConfig> configs;  // never resized after it is built: GLXFBConfigs point into it
  std::map<VisualID, const FbConfig*> chosen;  // the config a visual was handed out for
};

struct DrawableRecord;

struct ContextRecord {
  EGLContext egl = EGL_NO_CONTEXT;
  EGLenum api = EGL_OPENGL_API;
  const FbConfig* config = nullptr;
  Display* dpy = nullptr;
  DrawableRecord* last_draw = nullptr;
  CopyContext copy;
};

// GLX drawables the app never made with X (pbuffers) get ids X never hands out: X resource ids
// have their top three bits clear.
constexpr GLXDrawable kOwnIdBase = 0xe0000000;

struct DrawableRecord {
  Display* dpy = nullptr;
  GLXDrawable id = 0;
  const FbConfig* config = nullptr;
  EGLSurface surface = EGL_NO_SURFACE;
  int width = 0, height = 0;
  bool window = false;  // false: a GLX pbuffer, nothing to show
  bool closed = false;  // destroyed, or its display closed: kept so pointers stay valid
  int swap_interval = 0;  // what the app set; reported, not honoured (a pbuffer has no vblank)
  XTarget target;
};

struct Current {
  ContextRecord* ctx = nullptr;
  DrawableRecord* draw = nullptr;
  DrawableRecord* read = nullptr;
  Display* dpy = nullptr;
  bool dpy_closed = false;
};

struct Egl {
  EGLDisplay dpy = EGL_NO_DISPLAY;
  std::string device;   // what was chosen: "device 0 (EGL_MESA_device_software)", "surfaceless"
  std::string vendor;   // the EGL display's EGL_VENDOR
  bool surfaceless_ctx = false;  // EGL_KHR_surfaceless_context: a context without drawable
};

extern std::mutex g_mutex;  // guards everything but t_current
extern Egl g_egl;
extern std::vector<std::unique_ptr<ContextRecord>> g_contexts;
extern thread_local Current t_current;

void log_once(std::atomic<bool>& flag, const char* what) noexcept;
#define PICTOR_LOG_ONCE(what)                       \
  do {                                              \
    static std::atomic<bool> pictor_logged_{false}; \
    log_once(pictor_logged_, what);                 \
  } while (0)

// The EGL display, opened once (false: every GLX call fails).
bool egl_ready() noexcept;
// Configs (under g_mutex): the set of a screen, built on first use; the set a config points into;
// a GLXFBConfig checked; the configs of a request, best first; a config's visual; the config
// behind a visual; an XFree-able array.
ConfigSet* config_set(Display* dpy, int screen);
ConfigSet* set_of(const FbConfig* f);
const FbConfig* as_config(GLXFBConfig c);
GLXFBConfig as_handle(const FbConfig* f);
std::vector<const FbConfig*> choose(const ConfigSet& set, const Request& r);
XVisualInfo* visual_info(Display* dpy, const FbConfig& f);
const FbConfig* config_of_visual(Display* dpy, const XVisualInfo* vis);
GLXFBConfig* config_array(const std::vector<const FbConfig*>& configs, int* count);
// Contexts and drawables (under g_mutex unless said).
ContextRecord* as_context(GLXContext c);
ContextRecord* find_context(GLXContext c);
DrawableRecord* find_drawable(Display* dpy, GLXDrawable id);
DrawableRecord* window_drawable(Display* dpy, Window window, const FbConfig* fbc);
void resize(DrawableRecord& d, int width, int height);
void flush_context(ContextRecord& c);
GLXContext create_context(Display* dpy, const FbConfig* fbc, GLXContext share, const int* attribs);
Bool make_current(Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx);
void destroy_drawable(Display* dpy, GLXDrawable id);
GLXDrawable own_drawable(Display* dpy, const FbConfig* fbc, int width, int height);
// The GLX extension string the offload serves.
const char* extensions();

}  // namespace pictor::hook::offload
