// A window with an OpenGL context for Pictor's own scenes (built-in apps, mark tests): X11 + GLX
// today, behind one small interface so other window systems/context APIs can be added.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/units.h"

namespace pictor::platform {

struct WindowOptions {
  Size size{1280, 720};
  std::string title = "pictor";
  // X display name; empty means $DISPLAY.
  std::string display;
  // Ask for vsync (swap interval 1) where the display has it; Xvfb has none.
  bool vsync = false;
};

// A user input as the scene sees it (already decoded from X11 events).
struct InputEvent {
  // (Not KeyPress etc.: Xlib defines those as macros.)
  enum class Kind { key_down, key_up, button_down, button_up, motion };
  Kind kind = Kind::key_down;
  unsigned code = 0;  // X keysym for keys, button number for buttons
  int x = 0, y = 0;   // pointer position in window pixels, origin top-left
};

class GlWindow {
 public:
  // Opens the display, creates the window and a current GL context; throws pictor::RunError.
  static std::unique_ptr<GlWindow> create(const WindowOptions& options);
  virtual ~GlWindow() = default;
  virtual void swap() = 0;
  virtual Size size() const = 0;
  // Handles pending window-system events, calling on_input for each input; returns false once the
  // window was closed (WM_DELETE_WINDOW) or the display went away.
  virtual bool pump(const std::function<void(const InputEvent&)>& on_input) = 0;
  // The X11 Display* and Window, for code that needs them (clients, tests); may be null/0.
  virtual void* native_display() const = 0;
  virtual unsigned long native_window() const = 0;
};

}  // namespace pictor::platform
