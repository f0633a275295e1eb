// Xlib event reads: every path apps use to take or peek an event (SFML reads only through
// XCheckIfEvent, SDL and GLFW through XNextEvent). Each forwards, then notes what was returned.
// Also XCloseDisplay, which takes a still-current GLX context down with the display.
#include <atomic>

#include "hook/config.h"
#include "hook/hooks.h"
#include "hook/input_tracker.h"
#include "hook/offload.h"
#include "hook/real.h"

using namespace pictor::hook;

namespace {

// A press of PICTOR_OVERLAY_KEY: its modifiers down (others ignored) and its keysym, looked up
// in the display's own keyboard map (Xlib fetches the map once, on the first lookup).
bool overlay_key(const XEvent* ev) noexcept {
  const Config& c = config();
  if (!c.overlay || ev->type != KeyPress || (ev->xkey.state & kOverlayModMask) != c.overlay_key_mods) return false;
  static std::atomic<decltype(&::XLookupKeysym)> lookup{nullptr};
  auto fn = resolve(lookup, "XLookupKeysym", "x11");
  XKeyEvent key = ev->xkey;  // XLookupKeysym takes a non-const event; the app's stays untouched
  return fn && fn(&key, 0) == c.overlay_key_sym;
}

void note(const XEvent* ev) noexcept {
  if (!ev) return;
  const int type = ev->type;
  std::uint32_t detail = 0;
  std::uint64_t time = 0;
  if (type == KeyPress || type == KeyRelease) {
    detail = ev->xkey.keycode;
    time = ev->xkey.time;
  } else if (type == ButtonPress || type == ButtonRelease) {
    detail = ev->xbutton.button;
    time = ev->xbutton.time;
  } else if (type != MotionNotify) {
    // The memo strategy's window geometry (docs/offload.md): the resizes the app hears about.
    if (type == ConfigureNotify && offload_on())
      offload_note_configure(ev->xconfigure.window, ev->xconfigure.width, ev->xconfigure.height);
    return;
  }
  // The low 16 bits of Xlib's serial are the XCB sequence: the same identity on both paths.
  const std::uint64_t identity = (static_cast<std::uint64_t>(ev->xany.serial & 0xffff) << 48) ^
                                 (time << 16) ^ (static_cast<std::uint64_t>(detail) << 4) ^
                                 static_cast<std::uint64_t>(type);
  note_input(type, detail, identity, overlay_key(ev));
}

void missing(const char* name) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line("real %s not found; call ignored", name);
}

}  // namespace

#define PICTOR_EXPORT extern "C" __attribute__((visibility("default")))

// Not an event read: a GLX context still current on the display dies with it, and its timer
// queries must be finished first (see GpuTimer::retire).
PICTOR_EXPORT int XCloseDisplay(Display* dpy) {
  auto fn = PICTOR_REAL(XCloseDisplay, x11);
  if (!fn) return missing("XCloseDisplay"), 0;
  before_display_close(dpy);
  return fn(dpy);
}

PICTOR_EXPORT int XNextEvent(Display* dpy, XEvent* ev) {
  auto fn = PICTOR_REAL(XNextEvent, x11);
  if (!fn) return missing("XNextEvent"), 0;
  const int r = fn(dpy, ev);
  note(ev);
  return r;
}

PICTOR_EXPORT int XPeekEvent(Display* dpy, XEvent* ev) {
  auto fn = PICTOR_REAL(XPeekEvent, x11);
  if (!fn) return missing("XPeekEvent"), 0;
  const int r = fn(dpy, ev);
  note(ev);
  return r;
}

PICTOR_EXPORT int XWindowEvent(Display* dpy, Window w, long mask, XEvent* ev) {
  auto fn = PICTOR_REAL(XWindowEvent, x11);
  if (!fn) return missing("XWindowEvent"), 0;
  const int r = fn(dpy, w, mask, ev);
  note(ev);
  return r;
}

PICTOR_EXPORT int XMaskEvent(Display* dpy, long mask, XEvent* ev) {
  auto fn = PICTOR_REAL(XMaskEvent, x11);
  if (!fn) return missing("XMaskEvent"), 0;
  const int r = fn(dpy, mask, ev);
  note(ev);
  return r;
}

PICTOR_EXPORT Bool XCheckWindowEvent(Display* dpy, Window w, long mask, XEvent* ev) {
  auto fn = PICTOR_REAL(XCheckWindowEvent, x11);
  if (!fn) return missing("XCheckWindowEvent"), False;
  const Bool r = fn(dpy, w, mask, ev);
  if (r) note(ev);
  return r;
}

PICTOR_EXPORT Bool XCheckMaskEvent(Display* dpy, long mask, XEvent* ev) {
  auto fn = PICTOR_REAL(XCheckMaskEvent, x11);
  if (!fn) return missing("XCheckMaskEvent"), False;
  const Bool r = fn(dpy, mask, ev);
  if (r) note(ev);
  return r;
}

PICTOR_EXPORT Bool XCheckTypedEvent(Display* dpy, int type, XEvent* ev) {
  auto fn = PICTOR_REAL(XCheckTypedEvent, x11);
  if (!fn) return missing("XCheckTypedEvent"), False;
  const Bool r = fn(dpy, type, ev);
  if (r) note(ev);
  return r;
}

PICTOR_EXPORT Bool XCheckTypedWindowEvent(Display* dpy, Window w, int type, XEvent* ev) {
  auto fn = PICTOR_REAL(XCheckTypedWindowEvent, x11);
  if (!fn) return missing("XCheckTypedWindowEvent"), False;
  const Bool r = fn(dpy, w, type, ev);
  if (r) note(ev);
  return r;
}

PICTOR_EXPORT int XIfEvent(Display* dpy, XEvent* ev, Bool (*pred)(Display*, XEvent*, XPointer), XPointer arg) {
  auto fn = PICTOR_REAL(XIfEvent, x11);
  if (!fn) return missing("XIfEvent"), 0;
  const int r = fn(dpy, ev, pred, arg);
  note(ev);
  return r;
}

PICTOR_EXPORT Bool XCheckIfEvent(Display* dpy, XEvent* ev, Bool (*pred)(Display*, XEvent*, XPointer),
                                 XPointer arg) {
  auto fn = PICTOR_REAL(XCheckIfEvent, x11);
  if (!fn) return missing("XCheckIfEvent"), False;
  const Bool r = fn(dpy, ev, pred, arg);
  if (r) note(ev);
  return r;
}

PICTOR_EXPORT int XPeekIfEvent(Display* dpy, XEvent* ev, Bool (*pred)(Display*, XEvent*, XPointer),
                               XPointer arg) {
  auto fn = PICTOR_REAL(XPeekIfEvent, x11);
  if (!fn) return missing("XPeekIfEvent"), 0;
  const int r = fn(dpy, ev, pred, arg);
  note(ev);
  return r;
}
