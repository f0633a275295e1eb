// X11 plumbing of the local client: a display connection whose protocol and I/O errors are caught
// per connection (Xlib's defaults would exit the whole process), and the app's top-level window.
#pragma once
#include <X11/Xlib.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pictor::client {

class XConnection {
 public:
  // Opens `display`; throws RunError naming it when the server cannot be reached.
  static std::unique_ptr<XConnection> open(const std::string& display);
  ~XConnection();
  XConnection(const XConnection&) = delete;
  XConnection& operator=(const XConnection&) = delete;

  Display* display() const { return dpy_; }
  const std::string& name() const { return name_; }
  // True once the connection broke (X server gone); every later Xlib call on it is a no-op.
  bool lost() const { return lost_.load(); }
  // The first protocol error since the last call ("BadMatch (request 130.4)"), or empty.
  std::string take_error();

 private:
  XConnection() = default;
  static int on_error(Display* dpy, XErrorEvent* event);
  static int on_io_error(Display* dpy);
  static void on_io_exit(Display* dpy, void* self);
  Display* dpy_ = nullptr;
  std::string name_;
  std::atomic<bool> lost_{false};
  std::string error_;  // written by the error handler on the thread that uses the connection
};

// Where a window lies on its screen and how its pixels are stored.
struct WindowInfo {
  Window id = 0;
  int x = 0, y = 0;          // top-left in root coordinates
  int width = 0, height = 0;
  int depth = 0;
  Visual* visual = nullptr;
  int screen_width = 0, screen_height = 0;
};

// The window's current geometry, or nullopt when it no longer exists or is not mapped.
std::optional<WindowInfo> window_info(XConnection& x, Window w);

// Waits until the app maps a top-level window (no window manager on a private Xvfb: a viewable
// child of the root) and returns it; the largest one when there are several. Polls every 20 ms
// for at most timeout_s; `app_running` (optional) returning false ends the wait early.
// Throws RunError naming the display and the cause.
// `ignore`: windows passed over (they were there before the app started).
WindowInfo wait_for_app_window(XConnection& x, double timeout_s,
                               const std::function<bool()>& app_running,
                               const std::vector<unsigned long>& ignore = {});

// The root window's children now (mapped or not), in stacking order.
std::vector<unsigned long> top_level_windows(XConnection& x);

}  // namespace pictor::client
