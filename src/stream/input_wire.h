// The stream adapter's input back-channel: one fixed 16-byte message per input, client → agent
// over TCP (Nagle off). Pure encoding, shared by the client and the server-side agent.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

namespace pictor::stream {

enum class WireKind : std::uint8_t { key = 1, button = 2, motion = 3 };

struct WireInput {
  WireKind kind = WireKind::key;
  bool down = false;        // press (key, button); unused for motion
  std::uint32_t code = 0;   // keysym (key) or button number
  std::int32_t x = -1, y = -1;  // pointer position on the server's screen; -1: leave it
  bool operator==(const WireInput&) const = default;
};

inline constexpr std::size_t kWireBytes = 16;
using WireMessage = std::array<std::uint8_t, kWireBytes>;

// Little-endian layout: magic 'P', kind, down, 0, code u32, x i32, y i32.
WireMessage encode(const WireInput& in);
// nullopt for a message that is not one (wrong magic, unknown kind, flags out of range).
std::optional<WireInput> decode(const WireMessage& m);

}  // namespace pictor::stream
