// The tag marker's wire code: a 16-bit input tag and the frame counter's low 8 bits, protected by
// a CRC-8 and whitened into the 32 black/white cells the interposer draws and the client reads.
#pragma once
#include <cstdint>
#include <optional>

namespace pictor::tag {

inline constexpr int kTagBits = 16;    // wraps after 65536 inputs; compare with tag_at_least()
inline constexpr int kFrameBits = 8;   // wraps after 256 frames; compare with frames_between()
inline constexpr int kCheckBits = 8;   // CRC-8/AUTOSAR polynomial 0x2F over tag and frame bits
inline constexpr int kWordBits = kTagBits + kFrameBits + kCheckBits;  // one bit per cell
static_assert(kWordBits == 32, "the marker has exactly 32 cells");

inline constexpr std::uint32_t kTagMask = (1u << kTagBits) - 1;
inline constexpr std::uint32_t kFrameMask = (1u << kFrameBits) - 1;

// What one marker carries, in wire widths: tag < 2^16, frame_lo < 2^8.
struct MarkerPayload {
  std::uint32_t tag = 0;       // low 16 bits of the input tag the frame answers
  std::uint32_t frame_lo = 0;  // low 8 bits of the app's frame counter
  bool operator==(const MarkerPayload&) const = default;
};

// Truncates full-width counters to the wire widths (the truncation is the wire format).
MarkerPayload make_payload(std::uint64_t tag, std::uint64_t frame);

// CRC-8, polynomial 0x2F, initial value 0, no reflection, no final xor, over the 24 data bits
// (tag then frame, most significant bit first).
std::uint8_t marker_crc8(std::uint32_t data24);

// The 32 cell bits of a payload: (tag << 16 | frame << 8 | crc) xor kMarkerWhitening.
// Bit 31 is cell 0 (see marker_layout.h for where each cell sits).
std::uint32_t encode_word(const MarkerPayload& payload);

// The payload a 32-bit cell word carries, or nullopt when its check fails. Every pattern of
// 1, 2 or 3 wrong cells and every error confined to two adjacent cell columns is rejected.
std::optional<MarkerPayload> decode_word(std::uint32_t word);

// Fixed xor applied to every word so that the patterns unmarked images tend to show (all black,
// all white, one cell-aligned rectangle or its complement, rows or columns of one colour) are
// never valid words. Its check part is chosen so; its data part only balances the colours.
inline constexpr std::uint32_t kMarkerWhitening = 0x6A5C93D5u;

// True when tag a is b or later, modulo 2^16: (a - b) mod 2^16 < 2^15. Correct as long as the
// two tags are fewer than 32768 inputs apart, i.e. fewer than 32768 inputs are in flight.
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
