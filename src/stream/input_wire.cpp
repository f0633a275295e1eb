#include "stream/input_wire.h"

namespace pictor::stream {

namespace {

constexpr std::uint8_t kMagic = 'P';

void put32(WireMessage& m, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) m[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::uint32_t get32(const WireMessage& m, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(m[at + i]) << (8 * i);
  return v;
}

}  // namespace

WireMessage encode(const WireInput& in) {
  WireMessage m{};
  m[0] = kMagic;
  m[1] = static_cast<std::uint8_t>(in.kind);
  m[2] = in.down ? 1 : 0;
  put32(m, 4, in.code);
  put32(m, 8, static_cast<std::uint32_t>(in.x));
  put32(m, 12, static_cast<std::uint32_t>(in.y));
  return m;
}

std::optional<WireInput> decode(const WireMessage& m) {
  if (m[0] != kMagic || m[1] < 1 || m[1] > 3 || m[2] > 1 || m[3] != 0) return std::nullopt;
  WireInput in;
  in.kind = static_cast<WireKind>(m[1]);
  in.down = m[2] == 1;
  in.code = get32(m, 4);
  in.x = static_cast<std::int32_t>(get32(m, 8));
  in.y = static_cast<std::int32_t>(get32(m, 12));
  return in;
}

}  // namespace pictor::stream
