#include "tag/marker_code.h"

#include <string>

#include "core/error.h"

namespace pictor::tag {

namespace {

// CRC-8/AUTOSAR's polynomial x^8+x^5+x^3+x^2+x+1. Among the 8-bit polynomials with Hamming
// distance 4 on 32-bit words it is the one for which no row-wise tear between two consecutive
// frames (frame + 1..3, tag + 0..3) forms a valid word: see docs/marker.md.
constexpr std::uint8_t kPolynomial = 0x2F;

constexpr std::uint8_t crc8_bitwise(std::uint32_t data24) {
  std::uint8_t remainder = 0;
  for (int i = 23; i >= 0; --i) {
    const bool in = ((data24 >> i) & 1u) != 0;
    const bool top = (remainder & 0x80u) != 0;
    remainder = static_cast<std::uint8_t>(remainder << 1);
    if (in != top) remainder ^= kPolynomial;
  }
  return remainder;
}

// One table per data byte position would cost 768 bytes; a single byte-wise table is enough,
// since the CRC has no init or final xor and the data is three whole bytes.
struct Crc8Table {
  std::uint8_t value[256] = {};
  constexpr Crc8Table() {
    for (int b = 0; b < 256; ++b) {
      std::uint8_t r = static_cast<std::uint8_t>(b);
      for (int i = 0; i < 8; ++i) {
        r = static_cast<std::uint8_t>((r & 0x80u) ? ((r << 1) ^ kPolynomial) : (r << 1));
      }
      value[b] = r;
    }
  }
};
constexpr Crc8Table kCrcTable{};

constexpr std::uint8_t crc8_table(std::uint32_t data24) {
  std::uint8_t r = 0;
  for (int shift = 16; shift >= 0; shift -= 8) {
    r = kCrcTable.value[static_cast<std::uint8_t>(r ^ ((data24 >> shift) & 0xFFu))];
  }
  return r;
}

static_assert(crc8_table(0x123456) == crc8_bitwise(0x123456));
static_assert(crc8_table(0xFFFFFF) == crc8_bitwise(0xFFFFFF));

}  // namespace

MarkerPayload make_payload(std::uint64_t tag, std::uint64_t frame) {
  return MarkerPayload{static_cast<std::uint32_t>(tag & kTagMask),
                       static_cast<std::uint32_t>(frame & kFrameMask)};
}

std::uint8_t marker_crc8(std::uint32_t data24) { return crc8_table(data24 & 0xFFFFFFu); }

std::uint32_t encode_word(const MarkerPayload& payload) {
  const std::uint32_t data = ((payload.tag & kTagMask) << kFrameBits) | (payload.frame_lo & kFrameMask);
  return ((data << kCheckBits) | marker_crc8(data)) ^ kMarkerWhitening;
}

std::optional<MarkerPayload> decode_word(std::uint32_t word) {
  const std::uint32_t plain = word ^ kMarkerWhitening;
  const std::uint32_t data = plain >> kCheckBits;
  if (marker_crc8(data) != (plain & 0xFFu)) return std::nullopt;
  return MarkerPayload{data >> kFrameBits, data & kFrameMask};
}

bool tag_at_least(std::uint32_t a, std::uint32_t b) {
  return ((a - b) & kTagMask) < (1u << (kTagBits - 1));
}

std::uint64_t unwrap_counter(std::uint32_t wire, int bits, std::uint64_t reference) {
  if (bits < 1 || bits > 32) {
    throw UsageError("unwrap_counter: width " + std::to_string(bits) + " is not 1..32 bits");
  }
  const std::uint64_t modulus = std::uint64_t{1} << bits;
  const std::uint64_t mask = modulus - 1;
  const std::uint64_t half = modulus >> 1;
  // Signed distance from reference to the wire value, folded into -half .. half-1.
  const std::uint64_t forward = (std::uint64_t{wire} - reference) & mask;
  if (forward < half) return reference + forward;
  const std::uint64_t back = modulus - forward;
  // Near zero the value cannot lie below 0: take the forward candidate instead.
  return back <= reference ? reference - back : reference + forward;
}

int frames_between(std::uint32_t earlier_lo, std::uint32_t later_lo) {
  return static_cast<int>((later_lo - earlier_lo) & kFrameMask);
}

}  // namespace pictor::tag
