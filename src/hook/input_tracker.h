// Counts the tracked input events (key and button press/release) the app reads, through any
// Xlib or XCB path, once each however often they are peeked: the n-th one gets tag n. The
// current tag is what the next swap's marker carries.
#pragma once
#include <cstdint>

namespace pictor::hook {

// X core event types (identical in Xlib and XCB).
enum : int { kXKeyPress = 2, kXKeyRelease = 3, kXButtonPress = 4, kXButtonRelease = 5, kXMotionNotify = 6 };

// Called with every event an app read returned. `identity` distinguishes this event from any
// other (serial/sequence, time, detail, type mixed); peeks of the same event give the same one.
// `overlay_key`: it is a press of PICTOR_OVERLAY_KEY, which toggles the overlay (once per event).
void note_input(int type, std::uint32_t detail, std::uint64_t identity, bool overlay_key = false) noexcept;

// Monotonic time at which the app read its last tracked (key or button) event; 0 before any.
std::int64_t last_input_ns() noexcept;

// Tag of the last tracked event read (0 before any).
std::uint64_t current_tag() noexcept;
std::uint64_t motion_events() noexcept;

}  // namespace pictor::hook
