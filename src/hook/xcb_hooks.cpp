// XCB event reads (Qt and other XCB-native toolkits). Xlib itself reads through XCB: calls that
// come from inside libX11 are only Xlib filling its queue, not the app reading, so they are
// skipped here and seen by the Xlib hooks when the app takes the event.
#include <link.h>

#include <atomic>
#include <cstring>

#include "hook/config.h"
#include "hook/input_tracker.h"
#include "hook/offload.h"
#include "hook/real.h"

using namespace pictor::hook;

namespace {

struct Range {
  std::uintptr_t begin = 0, end = 0;
};

// The address range of libX11's loaded segments, found once it is loaded.
Range libx11_range() noexcept {
  static std::atomic<bool> found{false};
  static Range range;
  static std::atomic<unsigned> calls{0};
  if (found.load(std::memory_order_acquire)) return range;
  // Not loaded (yet): look again now and then only, libX11 may be dlopened later.
  if (calls.fetch_add(1, std::memory_order_relaxed) % 512 != 0) return {};
  Range r;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libX11.so")) return 0;
        auto* out = static_cast<Range*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const std::uintptr_t b = info->dlpi_addr + ph.p_vaddr, e = b + ph.p_memsz;
          if (!out->begin || b < out->begin) out->begin = b;
          if (e > out->end) out->end = e;
        }
        return 1;
      },
      &r);
  if (r.begin) {
    range = r;
    found.store(true, std::memory_order_release);
  }
  return r;
}

bool called_from_xlib(void* return_address) noexcept {
  const Range r = libx11_range();
  const auto a = reinterpret_cast<std::uintptr_t>(return_address);
  return r.begin && a >= r.begin && a < r.end;
}

void note(const xcb_generic_event_t* ev) noexcept {
  if (!ev) return;
  const int type = ev->response_type & 0x7f;
  if (type == XCB_CONFIGURE_NOTIFY && offload_on()) {
    const auto* c = reinterpret_cast<const xcb_configure_notify_event_t*>(ev);
    offload_note_configure(c->window, c->width, c->height);
    return;
  }
  if (type < 2 || type > 6) return;
  // Key, button and motion events share this layout (xcb_key_press_event_t).
  const auto* k = reinterpret_cast<const xcb_key_press_event_t*>(ev);
  const std::uint64_t identity = (static_cast<std::uint64_t>(k->sequence) << 48) ^
                                 (static_cast<std::uint64_t>(k->time) << 16) ^
                                 (static_cast<std::uint64_t>(k->detail) << 4) ^ static_cast<std::uint64_t>(type);
  // The XCB path has no keyboard map at hand: the key is its evdev keycode (Xvfb's and Xorg's
  // default keymap; docs/overlay.md).
  const Config& c = config();
  const bool overlay_key = c.overlay && type == 2 && (k->state & kOverlayModMask) == c.overlay_key_mods &&
                           k->detail == c.overlay_key_code;
  note_input(type, k->detail, identity, overlay_key);
}

}  // namespace

#define PICTOR_EXPORT extern "C" __attribute__((visibility("default")))

PICTOR_EXPORT xcb_generic_event_t* xcb_wait_for_event(xcb_connection_t* c) {
  auto fn = PICTOR_REAL(xcb_wait_for_event, xcb);
  if (!fn) return nullptr;
  xcb_generic_event_t* ev = fn(c);
  if (!called_from_xlib(__builtin_return_address(0))) note(ev);
  return ev;
}

PICTOR_EXPORT xcb_generic_event_t* xcb_poll_for_event(xcb_connection_t* c) {
  auto fn = PICTOR_REAL(xcb_poll_for_event, xcb);
  if (!fn) return nullptr;
  xcb_generic_event_t* ev = fn(c);
  if (ev && !called_from_xlib(__builtin_return_address(0))) note(ev);
  return ev;
}

PICTOR_EXPORT xcb_generic_event_t* xcb_poll_for_queued_event(xcb_connection_t* c) {
  auto fn = PICTOR_REAL(xcb_poll_for_queued_event, xcb);
  if (!fn) return nullptr;
  xcb_generic_event_t* ev = fn(c);
  if (ev && !called_from_xlib(__builtin_return_address(0))) note(ev);
  return ev;
}
