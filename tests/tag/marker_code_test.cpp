// Wire code of the tag marker: every payload round-trips, damaged words are rejected, patterns an
// unmarked frame tends to show are never valid, and the wrap-around helpers behave at the edges.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "core/error.h"
#include "tag/marker_code.h"
#include "tag/marker_layout.h"

namespace pictor::tag {
namespace {

// Independent reference: remainder of data(x) * x^8 divided by x^8+x^5+x^3+x^2+x+1 (0x12F),
// by plain long division over GF(2).
std::uint8_t reference_crc(std::uint32_t data24) {
  std::uint32_t r = data24 << 8;
  for (int bit = 31; bit >= 8; --bit) {
    if (r & (1u << bit)) r ^= 0x12Fu << (bit - 8);
  }
  return static_cast<std::uint8_t>(r);
}

TEST(MarkerCode, CrcMatchesLongDivision) {
  std::mt19937 rng(1);
  for (int i = 0; i < 20000; ++i) {
    const std::uint32_t d = static_cast<std::uint32_t>(rng()) & 0xFFFFFFu;
    ASSERT_EQ(marker_crc8(d), reference_crc(d)) << std::hex << d;
  }
  EXPECT_EQ(marker_crc8(0), 0);
  EXPECT_EQ(marker_crc8(1), 0x2F);  // x^8 mod P = the polynomial's low byte
}

TEST(MarkerCode, EveryTagAndFrameRoundTrips) {
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    for (std::uint32_t frame = 0; frame <= kFrameMask; ++frame) {
      const MarkerPayload p{tag, frame};
      const auto back = decode_word(encode_word(p));
      if (!back || !(*back == p)) FAIL() << "tag " << tag << " frame " << frame;
    }
  }
}

TEST(MarkerCode, PayloadTruncatesToWireWidths) {
  const MarkerPayload p = make_payload(0x12345678ABCDull, 0x1FF05ull);
  EXPECT_EQ(p.tag, 0xABCDu);
  EXPECT_EQ(p.frame_lo, 0x05u);
  EXPECT_EQ(encode_word(MarkerPayload{0x1ABCD, 0x105}), encode_word(MarkerPayload{0xABCD, 0x05}));
}

std::vector<MarkerPayload> sample_payloads(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<MarkerPayload> out{{0, 0}, {kTagMask, kFrameMask}, {1, 0}, {0x8000, 0x80}};
  while (static_cast<int>(out.size()) < n) out.push_back(make_payload(rng(), rng()));
  return out;
}

TEST(MarkerCode, OneTwoOrThreeWrongCellsAreRejected) {
  for (const MarkerPayload& p : sample_payloads(64, 2)) {
    const std::uint32_t w = encode_word(p);
    for (int a = 0; a < 32; ++a) {
      ASSERT_FALSE(decode_word(w ^ (1u << a)));
      for (int b = a + 1; b < 32; ++b) {
        ASSERT_FALSE(decode_word(w ^ (1u << a) ^ (1u << b)));
        for (int c = b + 1; c < 32; ++c) {
          ASSERT_FALSE(decode_word(w ^ (1u << a) ^ (1u << b) ^ (1u << c)))
              << "cells " << a << "," << b << "," << c;
        }
      }
    }
  }
}

// A JPEG block damages neighbouring cells together; within two adjacent columns any damage is
// a burst of at most 8 bits of the word, which a CRC-8 always detects.
TEST(MarkerCode, AnyDamageWithinTwoAdjacentColumnsIsRejected) {
  for (const MarkerPayload& p : sample_payloads(16, 3)) {
    const std::uint32_t w = encode_word(p);
    for (int col = 0; col + 1 < kColumns; ++col) {
      for (std::uint32_t pattern = 1; pattern < 256; ++pattern) {
        std::uint32_t e = 0;
        for (int i = 0; i < 2 * kRows; ++i) {
          if (pattern & (1u << i)) e |= 1u << (31 - (col * kRows + i));
        }
        ASSERT_FALSE(decode_word(w ^ e)) << "column " << col << " pattern " << pattern;
      }
    }
  }
}

std::uint32_t cell_bit(int column, int row) { return 1u << (31 - (column * kRows + row)); }

TEST(MarkerCode, StructuredPatternsAreNeverValid) {
  std::vector<std::uint32_t> patterns{0u, ~0u};
  for (int c0 = 0; c0 < kColumns; ++c0)
    for (int c1 = c0 + 1; c1 <= kColumns; ++c1)
      for (int r0 = 0; r0 < kRows; ++r0)
        for (int r1 = r0 + 1; r1 <= kRows; ++r1) {
          std::uint32_t m = 0;
          for (int c = c0; c < c1; ++c)
            for (int r = r0; r < r1; ++r) m |= cell_bit(c, r);
          patterns.push_back(m);   // one light rectangle on dark
          patterns.push_back(~m);  // one dark rectangle on light
        }
  for (std::uint32_t rows = 0; rows < 16; ++rows) {  // horizontal bands
    std::uint32_t m = 0;
    for (int r = 0; r < kRows; ++r)
      if (rows & (1u << r))
        for (int c = 0; c < kColumns; ++c) m |= cell_bit(c, r);
    patterns.push_back(m);
  }
  for (std::uint32_t cols = 0; cols < 256; ++cols) {  // vertical stripes
    std::uint32_t m = 0;
    for (int c = 0; c < kColumns; ++c)
      if (cols & (1u << c))
        for (int r = 0; r < kRows; ++r) m |= cell_bit(c, r);
    patterns.push_back(m);
  }
  for (std::uint32_t m : patterns) EXPECT_FALSE(decode_word(m)) << std::hex << m;
}

// A capture that tears between two consecutive frames takes the top rows of the marker from one
// frame and the bottom rows from the other: that must never read as a third payload.
TEST(MarkerCode, RowTearBetweenConsecutiveFramesNeverGivesAWrongPayload) {
  std::uint32_t row_mask[kRows + 1] = {};
  for (int split = 1; split < kRows; ++split)
    for (int r = 0; r < split; ++r)
      for (int c = 0; c < kColumns; ++c) row_mask[split] |= cell_bit(c, r);
  auto check = [&](std::uint32_t tag, std::uint32_t frame) {
    const MarkerPayload a{tag, frame};
    const std::uint32_t wa = encode_word(a);
    for (std::uint32_t dt = 0; dt <= 3; ++dt) {
      for (std::uint32_t df = 1; df <= 3; ++df) {
        const MarkerPayload b{(tag + dt) & kTagMask, (frame + df) & kFrameMask};
        const std::uint32_t wb = encode_word(b);
        for (int split = 1; split < kRows; ++split) {
          const std::uint32_t torn = (wa & row_mask[split]) | (wb & ~row_mask[split]);
          const auto got = decode_word(torn);
          if (got && !(*got == a) && !(*got == b)) return false;
          const auto got2 = decode_word((wb & row_mask[split]) | (wa & ~row_mask[split]));
          if (got2 && !(*got2 == a) && !(*got2 == b)) return false;
        }
      }
    }
    return true;
  };
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    for (std::uint32_t frame : {0u, 127u, 253u, 255u}) ASSERT_TRUE(check(tag, frame)) << tag;
  }
  for (std::uint32_t tag : {0u, 0xFFFFu, 0x7FFFu, 0x1234u}) {
    for (std::uint32_t frame = 0; frame <= kFrameMask; ++frame) ASSERT_TRUE(check(tag, frame));
  }
}

TEST(MarkerCode, RandomWordsPassAtTheCrcRate) {
  // The check has 8 bits: about 1 random word in 256 passes. Cell clarity and the fixed position
  // keep unmarked frames from ever presenting 32 clear cells (see marker_decode_test).
  std::mt19937 rng(4);
  int valid = 0;
  const int n = 1 << 20;
  for (int i = 0; i < n; ++i) valid += decode_word(static_cast<std::uint32_t>(rng())) ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(valid) / n, 1.0 / 256, 0.2 / 256);
}

TEST(MarkerCode, TagAtLeastFollowsWrapAround) {
  EXPECT_TRUE(tag_at_least(7, 7));
  EXPECT_TRUE(tag_at_least(8, 7));
  EXPECT_FALSE(tag_at_least(6, 7));
  EXPECT_TRUE(tag_at_least(3, 65530));   // 65530 -> 3 wrapped forward by 9
  EXPECT_FALSE(tag_at_least(65530, 3));
  EXPECT_TRUE(tag_at_least(32767, 0));   // half range - 1 ahead: later
  EXPECT_FALSE(tag_at_least(32768, 0));  // half range ahead: taken as earlier
  EXPECT_TRUE(tag_at_least(0x1000F, 0xF));  // only the wire bits count
}

TEST(MarkerCode, UnwrapCounterFindsNearestFullValue) {
  EXPECT_EQ(unwrap_counter(5, 16, 65536 * 3 + 2), 65536u * 3 + 5);
  EXPECT_EQ(unwrap_counter(65534, 16, 65536 * 3 + 2), 65536u * 3 - 2);  // just before the wrap
  EXPECT_EQ(unwrap_counter(3, 16, 65536 * 3 - 10), 65536u * 3 + 3);      // just after it
  EXPECT_EQ(unwrap_counter(65535, 16, 2), 65535u);  // never below 0: the forward value
  EXPECT_EQ(unwrap_counter(0, 8, 255), 256u);
  EXPECT_EQ(unwrap_counter(200, 8, 1000), 968u);  // 1000 = 3*256+232: 200 is 32 behind
  EXPECT_EQ(unwrap_counter(0xFFFFFFFFu, 32, 0x100000000ull), 0xFFFFFFFFull);
  EXPECT_THROW(unwrap_counter(1, 0, 5), UsageError);
  EXPECT_THROW(unwrap_counter(1, 33, 5), UsageError);
}

TEST(MarkerCode, FramesBetweenCountsModulo256) {
  EXPECT_EQ(frames_between(10, 10), 0);  // duplicate
  EXPECT_EQ(frames_between(10, 11), 1);  // consecutive
  EXPECT_EQ(frames_between(10, 14), 4);  // three frames not received
  EXPECT_EQ(frames_between(254, 1), 3);  // across the wrap
}

TEST(MarkerCode, WhiteningBalancesTheColours) {
  // Not a correctness property, but the reason the whitening has a data part: tag 0, frame 0
  // must not paint a nearly black marker.
  const int white = std::popcount(encode_word(MarkerPayload{0, 0}));
  EXPECT_GE(white, 10);
  EXPECT_LE(white, 22);
}

}  // namespace
}  // namespace pictor::tag
