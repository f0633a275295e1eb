// The one list of functions the interposer exports. It generates the forwarder table (real.h),
// the name lookup used by the GetProcAddress/dlsym hooks, and the linker's export list
// (CMake reads the PICTOR_HOOK lines of this file to write exports.map).
// X(name, library): library is where the real function lives (gl, egl, x11, xcb, dl).
#pragma once

#define PICTOR_HOOK_LIST(X)            \
  X(glXSwapBuffers, gl)                \
  X(glXSwapBuffersMscOML, gl)          \
  X(glXMakeCurrent, gl)                \
  X(glXMakeContextCurrent, gl)         \
  X(glXDestroyContext, gl)             \
  X(glXGetProcAddress, gl)             \
  X(glXGetProcAddressARB, gl)          \
  X(eglSwapBuffers, egl)               \
  X(eglSwapBuffersWithDamageKHR, egl)  \
  X(eglSwapBuffersWithDamageEXT, egl)  \
  X(eglMakeCurrent, egl)               \
  X(eglDestroyContext, egl)            \
  X(eglGetProcAddress, egl)            \
  X(XCloseDisplay, x11)                \
  X(XNextEvent, x11)                   \
  X(XPeekEvent, x11)                   \
  X(XWindowEvent, x11)                 \
  X(XMaskEvent, x11)                   \
  X(XCheckWindowEvent, x11)            \
  X(XCheckMaskEvent, x11)              \
  X(XCheckTypedEvent, x11)             \
  X(XCheckTypedWindowEvent, x11)       \
  X(XIfEvent, x11)                     \
  X(XCheckIfEvent, x11)                \
  X(XPeekIfEvent, x11)                 \
  X(xcb_wait_for_event, xcb)           \
  X(xcb_poll_for_event, xcb)           \
  X(xcb_poll_for_queued_event, xcb)    \
  X(dlsym, dl)
