// The one list of functions the interposer exports. It generates the forwarder table (real.h),
// the name lookup used by the GetProcAddress/dlsym hooks, and the linker's export list
// (CMake reads the PICTOR_HOOK lines of this file to write exports.map).
// PICTOR_HOOK(name, library): library is where the real function lives (gl, egl, dl).
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
  X(dlsym, dl)
