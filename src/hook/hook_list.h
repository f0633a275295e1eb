// The one list of functions the interposer exports. It generates the forwarder table (real.h),
// the name lookup used by the GetProcAddress/dlsym hooks, and the linker's export list
// (CMake reads the PICTOR_HOOK lines of this file to write exports.map).
// X(name, library): library is where the real function lives (gl, egl, x11, xcb, dl).
#pragma once

// The rest of GLX 1.4 and the extensions apps call: exported so that PICTOR_RENDER=offload can
// serve them (offload_glx.h); with offload off each forwards to the real GLX untouched.
#define PICTOR_GLX_OFFLOAD_LIST(X)          \
  X(glXChooseVisual, gl)                    \
  X(glXChooseFBConfig, gl)                  \
  X(glXGetFBConfigs, gl)                    \
  X(glXGetFBConfigAttrib, gl)               \
  X(glXGetVisualFromFBConfig, gl)           \
  X(glXGetConfig, gl)                       \
  X(glXCreateContext, gl)                   \
  X(glXCreateNewContext, gl)                \
  X(glXCreateContextAttribsARB, gl)         \
  X(glXCopyContext, gl)                     \
  X(glXIsDirect, gl)                        \
  X(glXQueryContext, gl)                    \
  X(glXGetCurrentContext, gl)               \
  X(glXGetCurrentDrawable, gl)              \
  X(glXGetCurrentReadDrawable, gl)          \
  X(glXGetCurrentDisplay, gl)               \
  X(glXSwapIntervalEXT, gl)                 \
  X(glXSwapIntervalMESA, gl)                \
  X(glXGetSwapIntervalMESA, gl)             \
  X(glXSwapIntervalSGI, gl)                 \
  X(glXCreateWindow, gl)                    \
  X(glXDestroyWindow, gl)                   \
  X(glXCreatePbuffer, gl)                   \
  X(glXDestroyPbuffer, gl)                  \
  X(glXCreatePixmap, gl)                    \
  X(glXDestroyPixmap, gl)                   \
  X(glXCreateGLXPixmap, gl)                 \
  X(glXDestroyGLXPixmap, gl)                \
  X(glXQueryDrawable, gl)                   \
  X(glXSelectEvent, gl)                     \
  X(glXGetSelectedEvent, gl)                \
  X(glXQueryExtension, gl)                  \
  X(glXQueryVersion, gl)                    \
  X(glXQueryExtensionsString, gl)           \
  X(glXQueryServerString, gl)               \
  X(glXGetClientString, gl)                 \
  X(glXWaitGL, gl)                          \
  X(glXWaitX, gl)                           \
  X(glXUseXFont, gl)

#define PICTOR_HOOK_LIST(X)            \
  X(glXSwapBuffers, gl)                \
  X(glXSwapBuffersMscOML, gl)          \
  X(glXMakeCurrent, gl)                \
  X(glXMakeContextCurrent, gl)         \
  X(glXDestroyContext, gl)             \
  X(glXGetProcAddress, gl)             \
  X(glXGetProcAddressARB, gl)          \
  PICTOR_GLX_OFFLOAD_LIST(X)           \
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
