#include "client/x_connection.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "core/error.h"

namespace pictor::client {

namespace {

// Xlib's error handlers are process-wide. Ours serve the connections registered here and pass
// every other display to whatever handler was installed before, so other Xlib users in the
// process (the mark harness, a GL window) keep their behaviour.
struct HandlerRegistry {
  std::mutex mutex;
  std::map<Display*, XConnection*> connections;
  XErrorHandler previous_error = nullptr;
  XIOErrorHandler previous_io = nullptr;
  bool installed = false;
};

HandlerRegistry& registry() {
  static HandlerRegistry r;
  return r;
}

XConnection* registered(Display* dpy) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.connections.find(dpy);
  return it == r.connections.end() ? nullptr : it->second;
}

}  // namespace

int XConnection::on_error(Display* dpy, XErrorEvent* event) {
  if (XConnection* self = registered(dpy)) {
    if (self->error_.empty()) {
      char text[128] = "";
      XGetErrorText(dpy, event->error_code, text, sizeof text);
      self->error_ = fmt::format("{} (request {}.{})", text, event->request_code, event->minor_code);
    }
    return 0;
  }
  auto& r = registry();
  return r.previous_error ? r.previous_error(dpy, event) : 0;
}

int XConnection::on_io_error(Display* dpy) {
  if (XConnection* self = registered(dpy)) {
    self->lost_.store(true);
    return 0;  // returning is safe since libX11 1.7: the exit handler below then decides
  }
  auto& r = registry();
  return r.previous_io ? r.previous_io(dpy) : 0;
}

void XConnection::on_io_exit(Display*, void* self) {
  // Instead of exit(): mark the connection dead; the client thread sees lost() and stops.
  static_cast<XConnection*>(self)->lost_.store(true);
}

std::unique_ptr<XConnection> XConnection::open(const std::string& display) {
  std::unique_ptr<XConnection> x(new XConnection());
  x->name_ = display;
  x->dpy_ = XOpenDisplay(display.c_str());
  if (!x->dpy_) throw RunError("client: cannot open X display '" + display + "'");
  auto& r = registry();
  {
    std::lock_guard lock(r.mutex);
    if (!r.installed) {
      r.previous_error = XSetErrorHandler(&XConnection::on_error);
      r.previous_io = XSetIOErrorHandler(&XConnection::on_io_error);
      r.installed = true;
    }
    r.connections[x->dpy_] = x.get();
  }
  XSetIOErrorExitHandler(x->dpy_, &XConnection::on_io_exit, x.get());
  return x;
}

XConnection::~XConnection() {
  if (!dpy_) return;
  if (lost_.load()) {
    // After an I/O error on another thread, threaded Xlib can leave a waiter flag set that makes
    // XCloseDisplay block for ever. The server is gone: close the socket and leave the small
    // Display structure allocated rather than risk hanging the process that hosts the client.
    ::close(ConnectionNumber(dpy_));
  } else {
    XCloseDisplay(dpy_);
  }
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.connections.erase(dpy_);
}

std::string XConnection::take_error() {
  std::string e;
  e.swap(error_);
  return e;
}

std::optional<WindowInfo> window_info(XConnection& x, Window w) {
  XWindowAttributes a{};
  if (!XGetWindowAttributes(x.display(), w, &a)) {
    x.take_error();  // BadWindow: it went away
    return std::nullopt;
  }
  if (a.map_state != IsViewable) return std::nullopt;
  WindowInfo info;
  info.id = w;
  info.width = a.width;
  info.height = a.height;
  info.depth = a.depth;
  info.visual = a.visual;
  info.screen_width = WidthOfScreen(a.screen);
  info.screen_height = HeightOfScreen(a.screen);
  // Without a window manager the parent is the root, but ask the server to be sure.
  Window child = 0;
  if (!XTranslateCoordinates(x.display(), w, a.root, 0, 0, &info.x, &info.y, &child)) return std::nullopt;
  return info;
}

std::vector<unsigned long> top_level_windows(XConnection& x) {
  std::vector<unsigned long> out;
  Window root_out = 0, parent = 0;
  Window* children = nullptr;
  unsigned count = 0;
  if (XQueryTree(x.display(), DefaultRootWindow(x.display()), &root_out, &parent, &children, &count))
    out.assign(children, children + count);
  if (children) XFree(children);
  return out;
}

WindowInfo wait_for_app_window(XConnection& x, double timeout_s,
                               const std::function<bool()>& app_running,
                               const std::vector<unsigned long>& ignore) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  Display* dpy = x.display();
  const Window root = DefaultRootWindow(dpy);
  for (;;) {
    Window root_out = 0, parent = 0;
    Window* children = nullptr;
    unsigned count = 0;
    std::optional<WindowInfo> best;
    if (XQueryTree(dpy, root, &root_out, &parent, &children, &count)) {
      for (unsigned i = 0; i < count; ++i) {
        if (std::find(ignore.begin(), ignore.end(), children[i]) != ignore.end()) continue;
        XWindowAttributes a{};
        if (!XGetWindowAttributes(dpy, children[i], &a)) continue;
        // Override-redirect windows are menus and tooltips, InputOnly ones have no pixels.
        if (a.map_state != IsViewable || a.override_redirect || a.c_class != InputOutput) continue;
        const auto info = window_info(x, children[i]);
        if (info && (!best || info->width * info->height >= best->width * best->height)) best = info;
      }
      if (children) XFree(children);
    }
    x.take_error();  // windows that vanished between the query and the attributes
    if (x.lost()) throw RunError("client: lost the connection to X display '" + x.name() + "'");
    if (best) return *best;
    if (app_running && !app_running()) {
      throw RunError("client: the app exited before it mapped a window on display '" + x.name() + "'");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      throw RunError(fmt::format("client: no app window appeared on display '{}' within {:g} s",
                                 x.name(), timeout_s));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace pictor::client
