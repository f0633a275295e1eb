#include "tag/marker_code.h"

#include <string>

#include "core/error.h"

namespace pictor::tag {

namespace {

// Among the 12-bit polynomials with Hamming distance 6 on 32-bit words, 0x2A3 is the smallest of
// the four with the fewest undetected 6-cell errors and no row-wise tear between two consecutive
// frames (frame + 1..3, tag + 0..3) that forms a valid word; it has an even number of terms, so
// every odd number of errors is detected too. tests/tag/marker_code_search.cpp redoes the search.
constexpr std::uint32_t kPolynomial = 0x2A3;

// Bitwise on purpose: 20 steps cost nanoseconds and leave nothing to get wrong.
constexpr std::uint32_t crc12(std::uint32_t data20) {
  std::uint32_t remainder = 0;
  for (int i = kDataBits - 1; i >= 0; --i) {
    const std::uint32_t in = (data20 >> i) & 1u;
    const std::uint32_t top = (remainder >> (kCheckBits - 1)) & 1u;
    remainder = (remainder << 1) & kCheckMask;
    if (in != top) remainder ^= kPolynomial;
  }
  return remainder;
}

static_assert(crc12(1) == kPolynomial, "x^12 mod P is the polynomial's low part");

}  // namespace

MarkerPayload make_payload(std::uint64_t tag, std::uint64_t frame) {
  return MarkerPayload{static_cast<std::uint32_t>(tag & kTagMask),
                       static_cast<std::uint32_t>(frame & kFrameMask)};
}

std::uint32_t marker_crc12(std::uint32_t data20) {
  return crc12(data20 & ((1u << kDataBits) - 1));
}

std::uint32_t encode_word(const MarkerPayload& payload) {
  const std::uint32_t data =
      ((payload.tag & kTagMask) << kFrameBits) | (payload.frame_lo & kFrameMask);
  return ((data << kCheckBits) | crc12(data)) ^ kMarkerWhitening;
}

std::optional<MarkerPayload> decode_word(std::uint32_t word) {
  const std::uint32_t plain = word ^ kMarkerWhitening;
  const std::uint32_t data = plain >> kCheckBits;
  if (crc12(data) != (plain & kCheckMask)) return std::nullopt;
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
  // Distance from reference forward to the wire value, modulo 2^bits.
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
