// GLX served from EGL (docs/offload.md). Contexts are EGL contexts of the desktop GL API on one
// EGLDisplay (a render device, or Mesa's surfaceless platform); every GLX drawable is an EGL
// pbuffer of its window's size, so framebuffer 0 is the off-screen frame and apps need no
// redirection. GLXFBConfigs point at this file's config records: the X server's TrueColor
// visuals of depth 24 and 32 crossed with the device's 8-bit RGB pbuffer configs.
// Creation and destruction take one lock; a swap takes none.
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
#include "hook/real.h"

namespace pictor::hook {

namespace {

// --- records ---------------------------------------------------------------------------------

struct FbConfig {
  int id = 0;  // GLX_FBCONFIG_ID, from 1
  EGLConfig egl = nullptr;
  VisualID visual = 0;
  int depth = 24;  // the visual's
  int screen = 0;
  int red = 8, green = 8, blue = 8, alpha = 0, depth_size = 0, stencil = 0, samples = 0, sample_buffers = 0;
  bool doublebuffer = true;
  int max_pbuffer_width = 0, max_pbuffer_height = 0;
};

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

#define PICTOR_LOG_ONCE(what)                   \
  do {                                          \
    static std::atomic<bool> pictor_logged_{false}; \
    log_once(pictor_logged_, what);             \
  } while (0)

// --- the EGL display ---------------------------------------------------------------------------

bool has_word(const char* list, const char* word) noexcept {
  if (!list) return false;
  const std::size_t len = std::strlen(word);
  for (const char* p = std::strstr(list, word); p; p = std::strstr(p + 1, word))
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  return false;
}

bool contains_folded(const char* text, const std::string& what) noexcept {
  if (!text) return false;
  std::string a(text), b(what);
  for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a.find(b) != std::string::npos;
}

constexpr EGLint kRenderNodeFile = 0x3377;  // EGL_DRM_RENDER_NODE_FILE_EXT
constexpr EGLint kRendererName = 0x335F;    // EGL_RENDERER_EXT (EGL_EXT_device_query_name)

// PICTOR_OFFLOAD_DEVICE: empty = any (the first that initialises), an index, a DRM node path, or
// a word found in the device's vendor, renderer or extension names ("software", "nvidia").
bool device_matches(const std::string& want, int index, EGLDeviceEXT dev) noexcept {
  if (want.empty()) return true;
  const EglApi& e = egl_api();
  if (std::all_of(want.begin(), want.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::atoi(want.c_str()) == index;
  auto str = [&](EGLint name) -> const char* {
    const char* s = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, name) : nullptr;
    if (!s) e.GetError();  // a name the device does not answer: clear its error
    return s;
  };
  if (want[0] == '/') {
    const char* node = str(EGL_DRM_DEVICE_FILE_EXT);
    const char* render = str(kRenderNodeFile);
    return (node && want == node) || (render && want == render);
  }
  return contains_folded(str(EGL_VENDOR), want) || contains_folded(str(kRendererName), want) ||
         contains_folded(str(EGL_EXTENSIONS), want);
}

std::string describe_device(int index, EGLDeviceEXT dev) {
  const EglApi& e = egl_api();
  std::string d = "device " + std::to_string(index);
  const char* node = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, EGL_DRM_DEVICE_FILE_EXT) : nullptr;
  if (!node) e.GetError();
  const char* exts = e.QueryDeviceStringEXT ? e.QueryDeviceStringEXT(dev, EGL_EXTENSIONS) : nullptr;
  if (node) d += std::string(" ") + node;
  else if (has_word(exts, "EGL_MESA_device_software")) d += " (software)";
  return d;
}

EGLDisplay open_device(const std::string& want, std::string& described) {
  const EglApi& e = egl_api();
  constexpr int kMaxDevices = 16;
  EGLDeviceEXT devices[kMaxDevices];
  EGLint n = 0;
  if (!e.QueryDevicesEXT || !e.QueryDevicesEXT(kMaxDevices, devices, &n)) return EGL_NO_DISPLAY;
  for (int i = 0; i < n; ++i) {
    if (!device_matches(want, i, devices[i])) continue;
    EGLDisplay d = e.GetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && e.Initialize(d, &major, &minor)) {
      described = describe_device(i, devices[i]);
      return d;
    }
    e.GetError();
  }
  return EGL_NO_DISPLAY;
}

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

bool fb_attrib(const FbConfig& f, int attribute, int& value) noexcept {
  switch (attribute) {
    case GLX_USE_GL: value = True; return true;
    case GLX_RGBA: value = True; return true;
    case GLX_FBCONFIG_ID: value = f.id; return true;
    case GLX_BUFFER_SIZE: value = f.red + f.green + f.blue + f.alpha; return true;
    case GLX_LEVEL: value = 0; return true;
    case GLX_DOUBLEBUFFER: value = f.doublebuffer ? True : False; return true;
    case GLX_STEREO: value = False; return true;
    case GLX_AUX_BUFFERS: value = 0; return true;
    case GLX_RED_SIZE: value = f.red; return true;
    case GLX_GREEN_SIZE: value = f.green; return true;
    case GLX_BLUE_SIZE: value = f.blue; return true;
    case GLX_ALPHA_SIZE: value = f.alpha; return true;
    case GLX_DEPTH_SIZE: value = f.depth_size; return true;
    case GLX_STENCIL_SIZE: value = f.stencil; return true;
    case GLX_ACCUM_RED_SIZE:
    case GLX_ACCUM_GREEN_SIZE:
    case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE: value = 0; return true;
    case GLX_RENDER_TYPE: value = GLX_RGBA_BIT; return true;
    case GLX_DRAWABLE_TYPE: value = GLX_WINDOW_BIT | GLX_PBUFFER_BIT; return true;
    case GLX_X_RENDERABLE: value = True; return true;
    case GLX_VISUAL_ID: value = static_cast<int>(f.visual); return true;
    case GLX_X_VISUAL_TYPE: value = GLX_TRUE_COLOR; return true;
    case GLX_CONFIG_CAVEAT: value = GLX_NONE; return true;
    case GLX_TRANSPARENT_TYPE: value = GLX_NONE; return true;
    case GLX_TRANSPARENT_INDEX_VALUE:
    case GLX_TRANSPARENT_RED_VALUE:
    case GLX_TRANSPARENT_GREEN_VALUE:
    case GLX_TRANSPARENT_BLUE_VALUE:
    case GLX_TRANSPARENT_ALPHA_VALUE: value = 0; return true;
    case GLX_MAX_PBUFFER_WIDTH: value = f.max_pbuffer_width; return true;
    case GLX_MAX_PBUFFER_HEIGHT: value = f.max_pbuffer_height; return true;
    case GLX_MAX_PBUFFER_PIXELS: value = f.max_pbuffer_width * f.max_pbuffer_height; return true;
    case GLX_SAMPLE_BUFFERS: value = f.sample_buffers; return true;
    case GLX_SAMPLES: value = f.samples; return true;
    case GLX_SCREEN: value = f.screen; return true;
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: value = False; return true;
    case GLX_BIND_TO_TEXTURE_RGB_EXT:
    case GLX_BIND_TO_TEXTURE_RGBA_EXT:
    case GLX_BIND_TO_MIPMAP_TEXTURE_EXT: value = False; return true;
    default: return false;
  }
}

// What an attribute list asks for (glXChooseFBConfig's rules; glXChooseVisual's list is turned
// into one). GLX_DONT_CARE leaves a field alone.
struct Request {
  int fbconfig_id = static_cast<int>(GLX_DONT_CARE);
  int doublebuffer = static_cast<int>(GLX_DONT_CARE);
  int stereo = False;
  int level = 0;
  int render_type = GLX_RGBA_BIT;
  int drawable_type = GLX_WINDOW_BIT;
  int x_renderable = static_cast<int>(GLX_DONT_CARE);
  int visual_type = static_cast<int>(GLX_DONT_CARE);
  int caveat = static_cast<int>(GLX_DONT_CARE);
  int buffer_size = 0, red = 0, green = 0, blue = 0, alpha = 0, depth = 0, stencil = 0, aux = 0, accum = 0;
  int sample_buffers = 0, samples = 0;
  bool possible = true;  // false: asks for something no config has (colour index, ...)
};

constexpr int kDontCare = static_cast<int>(GLX_DONT_CARE);

void set_request(Request& r, int attribute, int value) {
  switch (attribute) {
    case GLX_FBCONFIG_ID: r.fbconfig_id = value; break;
    case GLX_DOUBLEBUFFER: r.doublebuffer = value; break;
    case GLX_STEREO: r.stereo = value; break;
    case GLX_LEVEL: r.level = value; break;
    case GLX_RENDER_TYPE: r.render_type = value; break;
    case GLX_DRAWABLE_TYPE: r.drawable_type = value; break;
    case GLX_X_RENDERABLE: r.x_renderable = value; break;
    case GLX_X_VISUAL_TYPE: r.visual_type = value; break;
    case GLX_CONFIG_CAVEAT: r.caveat = value; break;
    case GLX_BUFFER_SIZE: r.buffer_size = value; break;
    case GLX_RED_SIZE: r.red = value; break;
    case GLX_GREEN_SIZE: r.green = value; break;
    case GLX_BLUE_SIZE: r.blue = value; break;
    case GLX_ALPHA_SIZE: r.alpha = value; break;
    case GLX_DEPTH_SIZE: r.depth = value; break;
    case GLX_STENCIL_SIZE: r.stencil = value; break;
    case GLX_AUX_BUFFERS: r.aux = value; break;
    case GLX_ACCUM_RED_SIZE:
    case GLX_ACCUM_GREEN_SIZE:
    case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE:
      if (value != kDontCare) r.accum = std::max(r.accum, value);
      break;
    case GLX_SAMPLE_BUFFERS: r.sample_buffers = value; break;
    case GLX_SAMPLES: r.samples = value; break;
    case GLX_TRANSPARENT_TYPE:
      if (value != kDontCare && value != static_cast<int>(GLX_NONE)) r.possible = false;
      break;
    // Accepted whatever their value: none changes which pbuffer config serves.
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB:
    case GLX_TRANSPARENT_INDEX_VALUE:
    case GLX_TRANSPARENT_RED_VALUE:
    case GLX_TRANSPARENT_GREEN_VALUE:
    case GLX_TRANSPARENT_BLUE_VALUE:
    case GLX_TRANSPARENT_ALPHA_VALUE:
    case GLX_BIND_TO_TEXTURE_RGB_EXT:
    case GLX_BIND_TO_TEXTURE_RGBA_EXT:
    case GLX_BIND_TO_MIPMAP_TEXTURE_EXT:
    case GLX_BIND_TO_TEXTURE_TARGETS_EXT:
    case GLX_Y_INVERTED_EXT:
      break;
    default: {
      static std::atomic<bool> logged{false};
      if (!logged.exchange(true)) log_line("offload: config attribute 0x%x is not known: ignored", static_cast<unsigned>(attribute));
    }
  }
}

bool at_least(int have, int want) { return want == kDontCare || have >= want; }
bool exactly(int have, int want) { return want == kDontCare || have == want; }

bool matches(const FbConfig& f, const Request& r) {
  if (!r.possible) return false;
  if (r.fbconfig_id != kDontCare) return f.id == r.fbconfig_id;
  return exactly(f.doublebuffer ? True : False, r.doublebuffer) && exactly(False, r.stereo) && exactly(0, r.level) &&
         (r.render_type == kDontCare || (r.render_type & GLX_RGBA_BIT) == r.render_type) &&
         (r.drawable_type == kDontCare || ((GLX_WINDOW_BIT | GLX_PBUFFER_BIT) & r.drawable_type) == r.drawable_type) &&
         exactly(True, r.x_renderable) && exactly(GLX_TRUE_COLOR, r.visual_type) &&
         exactly(static_cast<int>(GLX_NONE), r.caveat) && at_least(f.red + f.green + f.blue + f.alpha, r.buffer_size) &&
         at_least(f.red, r.red) && at_least(f.green, r.green) && at_least(f.blue, r.blue) && at_least(f.alpha, r.alpha) &&
         at_least(f.depth_size, r.depth) && at_least(f.stencil, r.stencil) && at_least(0, r.aux) &&
         at_least(0, r.accum) && at_least(f.sample_buffers, r.sample_buffers) && at_least(f.samples, r.samples);
}

// GLX's sort order, the parts that differ between our configs: more of the colour bits asked
// for, a smaller buffer, single before double buffered, fewer samples, a deeper depth buffer
// when one is asked for (else a shallower one), less stencil, then the config id.
bool better(const FbConfig& a, const FbConfig& b, const Request& r) {
  auto asked = [](int v) { return v != kDontCare && v > 0; };
  auto colour = [&](const FbConfig& f) {
    return (asked(r.red) ? f.red : 0) + (asked(r.green) ? f.green : 0) + (asked(r.blue) ? f.blue : 0) +
           (asked(r.alpha) ? f.alpha : 0);
  };
  if (colour(a) != colour(b)) return colour(a) > colour(b);
  if (a.alpha != b.alpha) return a.alpha < b.alpha;
  if (a.doublebuffer != b.doublebuffer) return !a.doublebuffer;
  if (a.sample_buffers != b.sample_buffers) return a.sample_buffers < b.sample_buffers;
  if (a.samples != b.samples) return a.samples < b.samples;
  if (a.depth_size != b.depth_size) return asked(r.depth) ? a.depth_size > b.depth_size : a.depth_size < b.depth_size;
  if (a.stencil != b.stencil) return a.stencil < b.stencil;
  if (a.depth != b.depth) return a.depth < b.depth;
  return a.id < b.id;
}

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

}  // namespace

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
