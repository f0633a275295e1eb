// Delivery hooks (SP end, PS start): x11vnc hands inputs to the X server with XTest. Xvnc
// injects inside its own binary, where no preload can see it: it records no deliveries.
#include "core/clock.h"
#include "proxyhook/proxy_state.h"
#include "proxyhook/real.h"

namespace pp = pictor::proxyhook;

namespace {

void delivered(pp::InputKind kind, unsigned detail, Bool press, std::int64_t start) {
  if (!pp::writer() || pp::on_writer_thread()) return;
  pp::ProxyRecord r;
  r.kind = pp::ProxyRecordKind::deliver;
  r.input = kind;
  r.start_ns = start;
  r.end_ns = pictor::monotonic_ns();
  r.detail = detail;
  r.down = press ? 1 : 0;
  pp::writer()->push(r);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int XTestFakeKeyEvent(Display* dpy, unsigned int keycode, Bool is_press,
                                                             unsigned long delay) {
  auto real_fn = PICTOR_PROXY_REAL(XTestFakeKeyEvent);
  if (!real_fn) return 0;
  const std::int64_t start = pictor::monotonic_ns();
  const int rc = real_fn(dpy, keycode, is_press, delay);
  delivered(pp::InputKind::key, keycode, is_press, start);
  return rc;
}

__attribute__((visibility("default"))) int XTestFakeButtonEvent(Display* dpy, unsigned int button, Bool is_press,
                                                                unsigned long delay) {
  auto real_fn = PICTOR_PROXY_REAL(XTestFakeButtonEvent);
  if (!real_fn) return 0;
  const std::int64_t start = pictor::monotonic_ns();
  const int rc = real_fn(dpy, button, is_press, delay);
  delivered(pp::InputKind::button, button, is_press, start);
  return rc;
}

}  // extern "C"
