// A small GLX app for the offload tests (docs/offload.md): it asks GLX for an absurd context
// (which must fail, not crash), then draws N frames, each cleared to a colour that encodes its
// index, reads the window back from X after every swap and checks which frame it shows: the
// frame just swapped (vgl, memo), or an earlier one, never going backwards (async). It resizes
// its window part-way and checks the next frames fill the new size. Exit 0 when every check
// held; the failures on stderr otherwise.
//   offload_probe FRAMES MAX_LAG [native]   (native: skip what only the offload GLX answers)
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int g_failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "offload_probe: %s\n", what.c_str());
  ++g_failures;
}

int ignore_x_error(Display*, XErrorEvent*) { return 0; }

// Frame i is cleared to (i mod 256, i / 256 mod 256, 77): the index survives 8-bit channels.
void clear_to_frame(int i) {
  glClearColor(static_cast<float>(i % 256) / 255.0f, static_cast<float>((i / 256) % 256) / 255.0f, 77.0f / 255.0f,
               1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

// The frame a window pixel shows (-1: not one of ours).
int frame_at(Display* dpy, Window win, int x, int y) {
  XImage* img = XGetImage(dpy, win, x, y, 1, 1, AllPlanes, ZPixmap);
  if (!img) return -1;
  const unsigned long p = XGetPixel(img, 0, 0);
  XDestroyImage(img);
  const int r = static_cast<int>((p >> 16) & 0xff), g = static_cast<int>((p >> 8) & 0xff),
            b = static_cast<int>(p & 0xff);
  if (b < 75 || b > 79) return -1;
  return r + 256 * g;
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 60;
  const int max_lag = argc > 2 ? std::atoi(argv[2]) : 0;
  const bool native = argc > 3 && std::strcmp(argv[3], "native") == 0;
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) {
    std::fprintf(stderr, "offload_probe: no display\n");
    return 2;
  }
  // A real GLX reports an impossible context as an X error: the probe survives it either way.
  XSetErrorHandler(ignore_x_error);
  int major = 0, minor = 0;
  if (!glXQueryVersion(dpy, &major, &minor) || major != 1 || minor < 3) fail("GLX is not 1.3 or newer");
  const char* exts = glXQueryExtensionsString(dpy, DefaultScreen(dpy));
  if (!exts || !std::strstr(exts, "GLX_ARB_create_context")) fail("no GLX_ARB_create_context");

  const int attrs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
                       GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24, GLX_DOUBLEBUFFER,
                       True, None};
  int count = 0;
  GLXFBConfig* configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attrs, &count);
  if (!configs || count == 0) {
    std::fprintf(stderr, "offload_probe: no GLX config\n");
    return 1;
  }
  const GLXFBConfig config = configs[0];
  XFree(configs);
  int doublebuffer = 0, depth = 0;
  glXGetFBConfigAttrib(dpy, config, GLX_DOUBLEBUFFER, &doublebuffer);
  glXGetFBConfigAttrib(dpy, config, GLX_DEPTH_SIZE, &depth);
  if (!doublebuffer || depth < 24) fail("the chosen config is not what was asked for");
  XVisualInfo* vi = glXGetVisualFromFBConfig(dpy, config);
  if (!vi) {
    std::fprintf(stderr, "offload_probe: no visual for the config\n");
    return 1;
  }
  const Window root = RootWindow(dpy, vi->screen);
  XSetWindowAttributes swa{};
  swa.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
  swa.event_mask = StructureNotifyMask;
  int w = 320, h = 240;
  const Window win = XCreateWindow(dpy, root, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h), 0, vi->depth,
                                   InputOutput, vi->visual, CWColormap | CWEventMask, &swa);
  XFree(vi);
  XMapWindow(dpy, win);
  for (XEvent ev;;) {
    XNextEvent(dpy, &ev);
    if (ev.type == MapNotify) break;
  }

  using CreateAttribs = PFNGLXCREATECONTEXTATTRIBSARBPROC;
  auto create = reinterpret_cast<CreateAttribs>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXCreateContextAttribsARB")));
  if (!create) {
    std::fprintf(stderr, "offload_probe: no glXCreateContextAttribsARB\n");
    return 1;
  }
  const int absurd[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 99, GLX_CONTEXT_MINOR_VERSION_ARB, 0, None};
  if (GLXContext c = create(dpy, config, nullptr, True, absurd)) {
    fail("a GL 99.0 context was created");
    glXDestroyContext(dpy, c);
  }
  XSync(dpy, False);
  std::printf("absurd context: refused\n");
  const int core[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                      GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
  GLXContext ctx = create(dpy, config, nullptr, True, core);
  if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
    std::fprintf(stderr, "offload_probe: no GL 3.3 core context\n");
    return 1;
  }
  if (glXGetCurrentContext() != ctx || glXGetCurrentDrawable() != win || glXGetCurrentDisplay() != dpy)
    fail("glXGetCurrent* do not name what was made current");
  std::printf("renderer: %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  const int resize_at = frames / 2;
  int last_seen = -1;
  for (int i = 0; i < frames; ++i) {
    if (i == resize_at) {
      XResizeWindow(dpy, win, 400, 300);
      XSync(dpy, False);
      // The app hears of it like any app (the memo strategy's cache is fed from here).
      for (XEvent ev; XCheckTypedWindowEvent(dpy, win, ConfigureNotify, &ev);) {
        w = ev.xconfigure.width;
        h = ev.xconfigure.height;
      }
      if (w != 400 || h != 300) fail("no ConfigureNotify for the resize");
    }
    glViewport(0, 0, w, h);
    clear_to_frame(i);
    glXSwapBuffers(dpy, win);
    const int seen = frame_at(dpy, win, 10, 10);
    // A resize may clear the window (ForgetGravity) until the next frame is put there.
    const bool cleared_by_resize = i >= resize_at && i <= resize_at + max_lag;
    if (seen > i || (seen >= 0 && seen < i - max_lag) || (seen >= 0 && seen < last_seen) ||
        (seen < 0 && i >= max_lag && !cleared_by_resize))
      fail("after swap " + std::to_string(i) + " the window shows frame " + std::to_string(seen) +
           " (the one before showed " + std::to_string(last_seen) + ", lag allowed " + std::to_string(max_lag) + ")");
    if (seen >= 0) last_seen = seen;
    // Two frames after the resize the frames fill the new size.
    if (i >= resize_at + 2 + max_lag) {
      const int corner = frame_at(dpy, win, 395, 295);
      if (corner < resize_at) fail("frame " + std::to_string(i) + " does not fill the resized window");
    }
  }
  unsigned int drawable_w = 0;
  if (!native) glXQueryDrawable(dpy, win, GLX_WIDTH, &drawable_w);
  if (!native && drawable_w != 400)
    fail("glXQueryDrawable says width " + std::to_string(drawable_w) + " after the resize");
  // Released first, destroyed after: frames still in flight must reach the window all the same.
  glXMakeCurrent(dpy, None, nullptr);
  glXDestroyContext(dpy, ctx);
  const int final_seen = frame_at(dpy, win, 10, 10);
  if (final_seen != frames - 1) fail("after the context went the window shows frame " + std::to_string(final_seen));
  XDestroyWindow(dpy, win);
  XCloseDisplay(dpy);
  std::printf("frames: %d, failures: %d\n", frames, g_failures);
  return g_failures == 0 ? 0 : 1;
}
