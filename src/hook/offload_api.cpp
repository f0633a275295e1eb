#include "hook/offload_api.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "hook/config.h"
#include "hook/real.h"

namespace pictor::hook {

namespace {

template <typename Fn>
void sym(Fn& slot, void* lib, const char* name) noexcept {
  slot = reinterpret_cast<Fn>(lib ? real_dlsym(lib, name) : nullptr);
}

struct EglLoad {
  EglApi api;
  bool usable = false;
};

struct XLoad {
  XApi api;
  bool usable = false;
};

EglLoad load_egl() noexcept {
  EglLoad l;
  // Loaded by us: a GLX app has no libEGL of its own. Local, so the app's symbol lookups are
  // as they were.
  void* lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    log_line("offload: cannot load libEGL.so.1 (%s): GLX calls fail", dlerror());
    return l;
  }
  EglApi& e = l.api;
  sym(e.GetProcAddress, lib, "eglGetProcAddress");
  sym(e.QueryString, lib, "eglQueryString");
  sym(e.GetError, lib, "eglGetError");
  sym(e.Initialize, lib, "eglInitialize");
  sym(e.ChooseConfig, lib, "eglChooseConfig");
  sym(e.GetConfigAttrib, lib, "eglGetConfigAttrib");
  sym(e.BindAPI, lib, "eglBindAPI");
  sym(e.CreateContext, lib, "eglCreateContext");
  sym(e.DestroyContext, lib, "eglDestroyContext");
  sym(e.MakeCurrent, lib, "eglMakeCurrent");
  sym(e.CreatePbufferSurface, lib, "eglCreatePbufferSurface");
  sym(e.DestroySurface, lib, "eglDestroySurface");
  sym(e.WaitClient, lib, "eglWaitClient");
  if (e.GetProcAddress) {
    e.GetPlatformDisplayEXT =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(e.GetProcAddress("eglGetPlatformDisplayEXT"));
    e.QueryDevicesEXT = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(e.GetProcAddress("eglQueryDevicesEXT"));
    e.QueryDeviceStringEXT =
        reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(e.GetProcAddress("eglQueryDeviceStringEXT"));
  }
  l.usable = e.GetProcAddress && e.QueryString && e.GetError && e.Initialize && e.ChooseConfig &&
             e.GetConfigAttrib && e.BindAPI && e.CreateContext && e.DestroyContext && e.MakeCurrent &&
             e.CreatePbufferSurface && e.DestroySurface && e.GetPlatformDisplayEXT;
  if (!l.usable) log_line("offload: libEGL lacks functions the offload needs: GLX calls fail");
  return l;
}

XLoad load_x() noexcept {
  XLoad l;
  // The app talks to X through Xlib already (its Display* is what GLX takes).
  void* x11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (!x11) x11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL);
  XApi& x = l.api;
  sym(x.GetVisualInfo, x11, "XGetVisualInfo");
  sym(x.Free, x11, "XFree");
  sym(x.GetWindowAttributes, x11, "XGetWindowAttributes");
  sym(x.CreateGC, x11, "XCreateGC");
  sym(x.FreeGC, x11, "XFreeGC");
  sym(x.CreateImage, x11, "XCreateImage");
  sym(x.PutImage, x11, "XPutImage");
  sym(x.Sync, x11, "XSync");
  sym(x.Flush, x11, "XFlush");
  sym(x.SetErrorHandler, x11, "XSetErrorHandler");
  sym(x.QueryExtension, x11, "XQueryExtension");
  l.usable = x.GetVisualInfo && x.Free && x.GetWindowAttributes && x.CreateGC && x.FreeGC && x.CreateImage &&
             x.PutImage && x.Sync && x.Flush && x.SetErrorHandler;
  if (!l.usable) {
    log_line("offload: libX11 lacks functions the frame copy needs: GLX calls fail");
    return l;
  }
  void* xext = dlopen("libXext.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (!xext) xext = dlopen("libXext.so.6", RTLD_LAZY | RTLD_LOCAL);
  sym(x.ShmQueryExtension, xext, "XShmQueryExtension");
  sym(x.ShmCreateImage, xext, "XShmCreateImage");
  sym(x.ShmAttach, xext, "XShmAttach");
  sym(x.ShmDetach, xext, "XShmDetach");
  sym(x.ShmPutImage, xext, "XShmPutImage");
  return l;
}

std::once_flag g_egl_once, g_x_once;
EglLoad* g_egl = nullptr;
XLoad* g_x = nullptr;
const EglApi kNoEgl{};
const XApi kNoX{};

void ensure_egl() noexcept {
  try {
    std::call_once(g_egl_once, [] { g_egl = new EglLoad(load_egl()); });
  } catch (...) {
  }
}

void ensure_x() noexcept {
  try {
    std::call_once(g_x_once, [] { g_x = new XLoad(load_x()); });
  } catch (...) {
  }
}

std::atomic<bool> g_x_error{false};

int note_x_error(Display*, XErrorEvent*) {
  g_x_error.store(true);
  return 0;
}

}  // namespace

XErrorTrap::XErrorTrap(Display* dpy) noexcept : dpy_(dpy) {
  g_x_error.store(false);
  previous_ = x_api().SetErrorHandler(note_x_error);
}

XErrorTrap::~XErrorTrap() { x_api().SetErrorHandler(previous_); }

bool XErrorTrap::failed() noexcept {
  x_api().Sync(dpy_, False);
  return g_x_error.load();
}

const EglApi& egl_api() noexcept {
  ensure_egl();
  return g_egl ? g_egl->api : kNoEgl;
}

bool egl_api_usable() noexcept {
  ensure_egl();
  return g_egl && g_egl->usable;
}

const XApi& x_api() noexcept {
  ensure_x();
  return g_x ? g_x->api : kNoX;
}

bool x_api_usable() noexcept {
  ensure_x();
  return g_x && g_x->usable;
}

}  // namespace pictor::hook
