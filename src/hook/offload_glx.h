// The GLX 1.4 implementation the interposer serves when offload is on (docs/offload.md): one
// function per GLX entry point, named as GLX names it, called by glx_hooks.cpp's exports instead
// of the real GLX. Failures are GLX's own (NULL, False, an error code) and logged once.
#pragma once
#include "hook/gl_api.h"

namespace pictor::hook::glx_offload {

XVisualInfo* glXChooseVisual(Display* dpy, int screen, int* attribs);
GLXFBConfig* glXChooseFBConfig(Display* dpy, int screen, const int* attribs, int* count);
GLXFBConfig* glXGetFBConfigs(Display* dpy, int screen, int* count);
int glXGetFBConfigAttrib(Display* dpy, GLXFBConfig config, int attribute, int* value);
XVisualInfo* glXGetVisualFromFBConfig(Display* dpy, GLXFBConfig config);
int glXGetConfig(Display* dpy, XVisualInfo* visual, int attribute, int* value);

GLXContext glXCreateContext(Display* dpy, XVisualInfo* visual, GLXContext share, Bool direct);
GLXContext glXCreateNewContext(Display* dpy, GLXFBConfig config, int render_type, GLXContext share, Bool direct);
GLXContext glXCreateContextAttribsARB(Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                      const int* attribs);
void glXDestroyContext(Display* dpy, GLXContext ctx);
void glXCopyContext(Display* dpy, GLXContext src, GLXContext dst, unsigned long mask);
Bool glXIsDirect(Display* dpy, GLXContext ctx);
int glXQueryContext(Display* dpy, GLXContext ctx, int attribute, int* value);

Bool glXMakeCurrent(Display* dpy, GLXDrawable drawable, GLXContext ctx);
Bool glXMakeContextCurrent(Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx);
GLXContext glXGetCurrentContext();
GLXDrawable glXGetCurrentDrawable();
GLXDrawable glXGetCurrentReadDrawable();
Display* glXGetCurrentDisplay();

void glXSwapBuffers(Display* dpy, GLXDrawable drawable);
int64_t glXSwapBuffersMscOML(Display* dpy, GLXDrawable drawable, int64_t target_msc, int64_t divisor,
                             int64_t remainder);
void glXSwapIntervalEXT(Display* dpy, GLXDrawable drawable, int interval);
int glXSwapIntervalMESA(unsigned int interval);
int glXGetSwapIntervalMESA();
int glXSwapIntervalSGI(int interval);

GLXWindow glXCreateWindow(Display* dpy, GLXFBConfig config, Window window, const int* attribs);
void glXDestroyWindow(Display* dpy, GLXWindow window);
GLXPbuffer glXCreatePbuffer(Display* dpy, GLXFBConfig config, const int* attribs);
void glXDestroyPbuffer(Display* dpy, GLXPbuffer pbuffer);
GLXPixmap glXCreatePixmap(Display* dpy, GLXFBConfig config, Pixmap pixmap, const int* attribs);
void glXDestroyPixmap(Display* dpy, GLXPixmap pixmap);
GLXPixmap glXCreateGLXPixmap(Display* dpy, XVisualInfo* visual, Pixmap pixmap);
void glXDestroyGLXPixmap(Display* dpy, GLXPixmap pixmap);
void glXQueryDrawable(Display* dpy, GLXDrawable drawable, int attribute, unsigned int* value);
void glXSelectEvent(Display* dpy, GLXDrawable drawable, unsigned long mask);
void glXGetSelectedEvent(Display* dpy, GLXDrawable drawable, unsigned long* mask);

Bool glXQueryExtension(Display* dpy, int* error_base, int* event_base);
Bool glXQueryVersion(Display* dpy, int* major, int* minor);
const char* glXQueryExtensionsString(Display* dpy, int screen);
const char* glXQueryServerString(Display* dpy, int screen, int name);
const char* glXGetClientString(Display* dpy, int name);
void glXWaitGL();
void glXWaitX();
void glXUseXFont(Font font, int first, int count, int list);

// glXGetProcAddress(ARB): GLX names get the interposer's functions (null for GLX functions it
// does not serve), GL names what eglGetProcAddress answers.
__GLXextFuncPtr get_proc_address(const GLubyte* name);

}  // namespace pictor::hook::glx_offload
