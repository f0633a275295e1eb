// The tag marker's wire code: the input tag's low 12 bits and the frame counter's low 8 bits,
// protected by a 12-bit CRC and whitened into the 32 black/white cells the interposer draws.
#pragma once
#include <cstdint>
#include <optional>

namespace pictor::tag {

inline constexpr int kTagBits = 12;    // wraps after 4096 inputs; compare with tag_at_least()
inline constexpr int kFrameBits = 8;   // wraps after 256 frames; compare with frames_between()
inline constexpr int kCheckBits = 12;  // CRC-12, polynomial 0x2A3, over tag and frame bits
inline constexpr int kDataBits = kTagBits + kFrameBits;
inline constexpr int kWordBits = kDataBits + kCheckBits;  // one bit per cell
static_assert(kWordBits == 32, "the marker has exactly 32 cells");

inline constexpr std::uint32_t kTagMask = (1u << kTagBits) - 1;
inline constexpr std::uint32_t kFrameMask = (1u << kFrameBits) - 1;
inline constexpr std::uint32_t kCheckMask = (1u << kCheckBits) - 1;

// What one marker carries, in wire widths: tag < 2^12, frame_lo < 2^8.
struct MarkerPayload {
  std::uint32_t tag = 0;       // low 12 bits of the input tag the frame answers
  std::uint32_t frame_lo = 0;  // low 8 bits of the app's frame counter
  bool operator==(const MarkerPayload&) const = default;
};

// Truncates full-width counters to the wire widths (the truncation is the wire format).
MarkerPayload make_payload(std::uint64_t tag, std::uint64_t frame);

// CRC-12 of the 20 data bits (tag then frame, most significant bit first): polynomial
// x^12+x^9+x^7+x^5+x+1 (0x2A3), initial value 0, no reflection, no final xor.
std::uint32_t marker_crc12(std::uint32_t data20);

// The 32 cell bits of a payload: (tag << 20 | frame << 12 | crc) xor kMarkerWhitening.
// Bit 31 is cell 0 (see marker_layout.h for where each cell sits).
std::uint32_t encode_word(const MarkerPayload& payload);

// The payload a 32-bit cell word carries, or nullopt when its check fails. Every pattern of
// 1 to 5 wrong cells, every odd number of wrong cells and every error confined to three
// adjacent cell columns is rejected; any other damage passes with probability 2^-12.
std::optional<MarkerPayload> decode_word(std::uint32_t word);

// Fixed xor applied to every word so that the patterns unmarked images tend to show are never
// valid words: all black, all white, one cell-aligned rectangle or its complement, and every
// pattern made of whole rows and whole columns (bands, stripes, checkerboards). Its check part
// is chosen so (docs/marker.md); its data part only balances the colours of low tags.
inline constexpr std::uint32_t kMarkerWhitening = 0x6A5C983Cu;

// True when tag a is b or later, modulo 2^12: (a - b) mod 2^12 < 2^11. Correct as long as the
// two tags are fewer than 2048 inputs apart, i.e. fewer than 2048 inputs are in flight.
bool tag_at_least(std::uint32_t a, std::uint32_t b);

// The full counter value whose low `bits` bits equal `wire` and which lies nearest to `reference`
// (within -2^(bits-1) .. 2^(bits-1)-1 of it); never below 0. Rebuilds a client's 64-bit tag or
// frame index from the marker, given the last full value it knows. bits: 1..32 (UsageError).
std::uint64_t unwrap_counter(std::uint32_t wire, int bits, std::uint64_t reference);

// Frames the app presented from `earlier` to `later` as seen through frame_lo, modulo 2^8:
// 0 = the same frame again (duplicate), 1 = the next frame, k > 1 = k - 1 frames not received
// (dropped or merged). Ambiguous when 256 or more frames pass between two received frames.
int frames_between(std::uint32_t earlier_lo, std::uint32_t later_lo);

}  // namespace pictor::tag
