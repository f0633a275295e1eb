#include "hook/offload_fbconfig.h"

#include <algorithm>
#include <atomic>

#include "hook/config.h"

namespace pictor::hook {

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

namespace {

constexpr int kDontCare = static_cast<int>(GLX_DONT_CARE);

bool at_least(int have, int want) { return want == kDontCare || have >= want; }
bool exactly(int have, int want) { return want == kDontCare || have == want; }

}  // namespace

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

}  // namespace pictor::hook
