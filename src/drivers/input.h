// The inputs Pictor sends: key and button presses and releases (tracked and tagged: the four X event
// kinds the interposer counts) and pointer motion (sent, not tagged). Shared by drivers and clients.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace pictor::drivers {

// Not KeyPress etc.: Xlib defines those names as macros.
enum class InputKind { key_press, key_release, button_press, button_release, pointer_motion };

// "key_press", "key_release", "button_press", "button_release", "pointer_motion": the names in
// every session file.
std::string_view input_kind_name(InputKind kind);
std::optional<InputKind> parse_input_kind(std::string_view name);
bool is_key(InputKind kind);
// Key and button presses and releases carry tags; pointer motion does not (DESIGN §3).
bool is_tracked(InputKind kind);
bool is_press(InputKind kind);
// The release that ends a press of the same key or button (a release maps to itself).
InputKind release_of(InputKind kind);

// One input. code: an X keysym for keys, a pointer button number (1..9) for buttons, unused for
// motion. x, y: the pointer position in window pixels (origin top-left) to move to first; -1 = do
// not move (required for pointer_motion, optional for buttons).
struct Input {
  InputKind kind = InputKind::key_press;
  unsigned code = 0;
  int x = -1, y = -1;
  bool operator==(const Input&) const = default;
};

// A key or button named the way users write them: an X keysym name ("space", "Left", "a",
// "Return") or "button1".."button9". Throws UsageError naming the text when it is neither.
struct InputCode {
  bool button = false;
  unsigned code = 0;
  bool operator==(const InputCode&) const = default;
};
InputCode parse_input_code(std::string_view name);
// The name parse_input_code() reads back ("space", "button1"); "0x..." for an unnamed keysym.
std::string input_code_name(bool button, unsigned code);

}  // namespace pictor::drivers
