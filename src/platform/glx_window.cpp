// X11 + GLX implementation of GlWindow.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>

#include <GL/gl.h>
#include <GL/glx.h>

#include <cstring>

#include "core/error.h"
#include "platform/gl_window.h"

namespace pictor::platform {
namespace {

class GlxWindow final : public GlWindow {
 public:
  explicit GlxWindow(const WindowOptions& options) : size_(options.size) {
    display_ = XOpenDisplay(options.display.empty() ? nullptr : options.display.c_str());
    if (!display_)
      throw RunError("cannot open X display '" +
                     (options.display.empty() ? std::string(getenv("DISPLAY") ? getenv("DISPLAY") : "")
                                              : options.display) + "'");
    const int attrs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                         GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                         GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24, GLX_DOUBLEBUFFER, True, None};
    int count = 0;
    GLXFBConfig* configs = glXChooseFBConfig(display_, DefaultScreen(display_), attrs, &count);
    if (!configs || count == 0) {
      XCloseDisplay(display_);
      throw RunError("no double-buffered RGB GLX framebuffer config on this display");
    }
    const GLXFBConfig config = configs[0];
    XFree(configs);
    XVisualInfo* visual = glXGetVisualFromFBConfig(display_, config);
    const ::Window root = RootWindow(display_, visual->screen);
    XSetWindowAttributes swa{};
    swa.colormap = XCreateColormap(display_, root, visual->visual, AllocNone);
    swa.event_mask = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask |
                     PointerMotionMask | StructureNotifyMask | ExposureMask;
    window_ = XCreateWindow(display_, root, 0, 0, static_cast<unsigned>(size_.width),
                            static_cast<unsigned>(size_.height), 0, visual->depth, InputOutput,
                            visual->visual, CWColormap | CWEventMask, &swa);
    XFree(visual);
    XStoreName(display_, window_, options.title.c_str());
    wm_delete_ = XInternAtom(display_, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(display_, window_, &wm_delete_, 1);
    XMapWindow(display_, window_);
    context_ = glXCreateNewContext(display_, config, GLX_RGBA_TYPE, nullptr, True);
    if (!context_) {
      XDestroyWindow(display_, window_);
      XCloseDisplay(display_);
      throw RunError("cannot create a GLX context");
    }
    glXMakeCurrent(display_, window_, context_);
    using SwapIntervalExt = void (*)(Display*, GLXDrawable, int);
    if (auto fn = reinterpret_cast<SwapIntervalExt>(
            glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXSwapIntervalEXT"))))
      fn(display_, window_, options.vsync ? 1 : 0);
    XSync(display_, False);
  }

  ~GlxWindow() override {
    glXMakeCurrent(display_, None, nullptr);
    glXDestroyContext(display_, context_);
    XDestroyWindow(display_, window_);
    XCloseDisplay(display_);
  }

  void swap() override { glXSwapBuffers(display_, window_); }
  Size size() const override { return size_; }

  bool pump(const std::function<void(const InputEvent&)>& on_input) override {
    while (XPending(display_) > 0) {
      XEvent ev;
      XNextEvent(display_, &ev);
      InputEvent in;
      switch (ev.type) {
        case KeyPress:
        case KeyRelease:
          in.kind = ev.type == KeyPress ? InputEvent::Kind::key_down : InputEvent::Kind::key_up;
          in.code = static_cast<unsigned>(XLookupKeysym(&ev.xkey, 0));
          in.x = ev.xkey.x;
          in.y = ev.xkey.y;
          if (on_input) on_input(in);
          break;
        case ButtonPress:
        case ButtonRelease:
          in.kind = ev.type == ButtonPress ? InputEvent::Kind::button_down
                                           : InputEvent::Kind::button_up;
          in.code = ev.xbutton.button;
          in.x = ev.xbutton.x;
          in.y = ev.xbutton.y;
          if (on_input) on_input(in);
          break;
        case MotionNotify:
          in.kind = InputEvent::Kind::motion;
          in.x = ev.xmotion.x;
          in.y = ev.xmotion.y;
          if (on_input) on_input(in);
          break;
        case ConfigureNotify:
          size_ = {ev.xconfigure.width, ev.xconfigure.height};
          break;
        case ClientMessage:
          if (static_cast<Atom>(ev.xclient.data.l[0]) == wm_delete_) return false;
          break;
        default:
          break;
      }
    }
    return true;
  }

  void* native_display() const override { return display_; }
  unsigned long native_window() const override { return window_; }

 private:
  Display* display_ = nullptr;
  ::Window window_ = 0;
  GLXContext context_ = nullptr;
  Atom wm_delete_ = 0;
  Size size_;
};

}  // namespace

std::unique_ptr<GlWindow> GlWindow::create(const WindowOptions& options) {
  return std::make_unique<GlxWindow>(options);
}

}  // namespace pictor::platform
