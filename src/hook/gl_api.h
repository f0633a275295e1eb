// Declarations of every GL/GLX/EGL entry point the interposer touches, so hooks and forwarders
// can be typed as decltype(&::name). Included only inside src/hook.
#pragma once
#define GL_GLEXT_PROTOTYPES 1
#define GLX_GLXEXT_PROTOTYPES 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <dlfcn.h>
#include <xcb/xcb.h>

// glext.h has no typedef for glGetString (it is GL 1.0).
using GetStringFn = const GLubyte* (*)(GLenum);
