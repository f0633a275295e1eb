#include "drivers/input.h"

#include <X11/Xlib.h>

#include <charconv>
#include <cstdio>

#include "core/error.h"

namespace pictor::drivers {

std::string_view input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::key_press: return "key_press";
    case InputKind::key_release: return "key_release";
    case InputKind::button_press: return "button_press";
    case InputKind::button_release: return "button_release";
    case InputKind::pointer_motion: return "pointer_motion";
  }
  return "key_press";
}

std::optional<InputKind> parse_input_kind(std::string_view name) {
  for (InputKind k : {InputKind::key_press, InputKind::key_release, InputKind::button_press,
                      InputKind::button_release, InputKind::pointer_motion}) {
    if (input_kind_name(k) == name) return k;
  }
  return std::nullopt;
}

bool is_key(InputKind kind) { return kind == InputKind::key_press || kind == InputKind::key_release; }

bool is_tracked(InputKind kind) { return kind != InputKind::pointer_motion; }

bool is_press(InputKind kind) {
  return kind == InputKind::key_press || kind == InputKind::button_press;
}

InputKind release_of(InputKind kind) {
  return is_key(kind) ? InputKind::key_release : InputKind::button_release;
}

InputCode parse_input_code(std::string_view name) {
  constexpr std::string_view kButton = "button";
  if (name.substr(0, kButton.size()) == kButton && name.size() > kButton.size()) {
    const std::string_view digits = name.substr(kButton.size());
    unsigned n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    // X numbers pointer buttons 1..255, but XTest on a core pointer only has the 9 Xvfb maps.
    if (ec != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 9) {
      throw UsageError("unknown input '" + std::string(name) + "': buttons are button1..button9");
    }
    return InputCode{true, n};
  }
  // XStringToKeysym needs no display connection: the keysym names are compiled into Xlib.
  const std::string text(name);
  const KeySym sym = text.empty() ? NoSymbol : XStringToKeysym(text.c_str());
  if (sym == NoSymbol) {
    throw UsageError("unknown key '" + text +
                     "': expected an X keysym name (space, Left, a, Return, ...) or button1..button9");
  }
  return InputCode{false, static_cast<unsigned>(sym)};
}

std::string input_code_name(bool button, unsigned code) {
  if (button) return "button" + std::to_string(code);
  if (const char* s = XKeysymToString(static_cast<KeySym>(code))) return s;
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", code);
  return hex;
}

}  // namespace pictor::drivers
