// GLX framebuffer configs as the offload serves them (docs/offload.md): the record behind a
// GLXFBConfig, its attributes, and glXChooseFBConfig's matching and sort order. Pure: no X, no EGL.
#pragma once
#include "hook/gl_api.h"

#include <X11/Xutil.h>

namespace pictor::hook {

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

// The value of a GLX config attribute; false for one GLX does not define.
bool fb_attrib(const FbConfig& f, int attribute, int& value) noexcept;
// Takes one attribute/value pair of an attribute list into `r` (an unknown one is logged once).
void set_request(Request& r, int attribute, int value);
// Whether `f` has what `r` asks for.
bool matches(const FbConfig& f, const Request& r);
// GLX's sort order: whether `a` comes before `b` for `r`.
bool better(const FbConfig& a, const FbConfig& b, const Request& r);

}  // namespace pictor::hook
