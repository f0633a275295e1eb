// The EGL, Xlib and MIT-SHM functions the offload path calls, resolved at run time (the
// interposer links nothing but libc): typed pointers in two loader structs, null when absent.
#pragma once
#include "hook/gl_api.h"

#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

namespace pictor::hook {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
struct EglApi {
  decltype(&::eglGetProcAddress) GetProcAddress = nullptr;
  decltype(&::eglQueryString) QueryString = nullptr;
  decltype(&::eglGetError) GetError = nullptr;
  decltype(&::eglInitialize) Initialize = nullptr;
  decltype(&::eglChooseConfig) ChooseConfig = nullptr;
  decltype(&::eglGetConfigAttrib) GetConfigAttrib = nullptr;
  decltype(&::eglBindAPI) BindAPI = nullptr;
  decltype(&::eglCreateContext) CreateContext = nullptr;
  decltype(&::eglDestroyContext) DestroyContext = nullptr;
  decltype(&::eglMakeCurrent) MakeCurrent = nullptr;
  decltype(&::eglCreatePbufferSurface) CreatePbufferSurface = nullptr;
  decltype(&::eglDestroySurface) DestroySurface = nullptr;
  decltype(&::eglWaitClient) WaitClient = nullptr;
  PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT = nullptr;
  PFNEGLQUERYDEVICESEXTPROC QueryDevicesEXT = nullptr;
  PFNEGLQUERYDEVICESTRINGEXTPROC QueryDeviceStringEXT = nullptr;
};

struct XApi {
  decltype(&::XGetVisualInfo) GetVisualInfo = nullptr;
  decltype(&::XFree) Free = nullptr;
  decltype(&::XGetWindowAttributes) GetWindowAttributes = nullptr;
  decltype(&::XCreateGC) CreateGC = nullptr;
  decltype(&::XFreeGC) FreeGC = nullptr;
  decltype(&::XCreateImage) CreateImage = nullptr;
  decltype(&::XPutImage) PutImage = nullptr;
  decltype(&::XSync) Sync = nullptr;
  decltype(&::XFlush) Flush = nullptr;
  decltype(&::XSetErrorHandler) SetErrorHandler = nullptr;
  decltype(&::XQueryExtension) QueryExtension = nullptr;
  // libXext (MIT-SHM); absent: frames go with XPutImage.
  decltype(&::XShmQueryExtension) ShmQueryExtension = nullptr;
  decltype(&::XShmCreateImage) ShmCreateImage = nullptr;
  decltype(&::XShmAttach) ShmAttach = nullptr;
  decltype(&::XShmDetach) ShmDetach = nullptr;
  decltype(&::XShmPutImage) ShmPutImage = nullptr;
};
#pragma GCC diagnostic pop

// Catches the X errors of the calls made while it lives, so a refused request (a window that is
// not one, an MIT-SHM attach across hosts) reaches neither the app's handler nor Xlib's default
// one, which exits. Xlib's handler is process-wide: only for rare calls, never per frame.
class XErrorTrap {
 public:
  explicit XErrorTrap(Display* dpy) noexcept;
  ~XErrorTrap();
  // Waits for the server to answer everything sent so far; true when any of it failed.
  bool failed() noexcept;
  XErrorTrap(const XErrorTrap&) = delete;
  XErrorTrap& operator=(const XErrorTrap&) = delete;

 private:
  Display* dpy_;
  XErrorHandler previous_ = nullptr;
};

// Loaded once, on first use, under a lock; `usable` says whether everything needed was found
// (MIT-SHM is optional). Never null.
const EglApi& egl_api() noexcept;
bool egl_api_usable() noexcept;
const XApi& x_api() noexcept;
bool x_api_usable() noexcept;

}  // namespace pictor::hook
