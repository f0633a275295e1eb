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

// Independent reference: remainder of data(x) * x^12 divided by x^12+x^9+x^7+x^5+x+1
// (0x12A3), by plain long division over GF(2).
std::uint32_t reference_crc(std::uint32_t data20) {
  std::uint32_t r = data20 << 12;
  for (int bit = 31; bit >= 12; --bit) {
    if (r & (1u << bit)) r ^= 0x12A3u << (bit - 12);
  }
  return r;
}

TEST(MarkerCode, CrcMatchesLongDivision) {
  std::mt19937 rng(1);
  for (int i = 0; i < 20000; ++i) {
    const std::uint32_t d = static_cast<std::uint32_t>(rng()) & 0xFFFFFu;
    ASSERT_EQ(marker_crc12(d), reference_crc(d)) << std::hex << d;
  }
  EXPECT_EQ(marker_crc12(0), 0u);
  EXPECT_EQ(marker_crc12(1), 0x2A3u);  // x^12 mod P = the polynomial's low part
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
  EXPECT_EQ(p.tag, 0xBCDu);
  EXPECT_EQ(p.frame_lo, 0x05u);
  EXPECT_EQ(encode_word(MarkerPayload{0x1BCD, 0x105}), encode_word(MarkerPayload{0xBCD, 0x05}));
}

std::vector<MarkerPayload> sample_payloads(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<MarkerPayload> out{{0, 0}, {kTagMask, kFrameMask}, {1, 0}, {0x800, 0x80}};
  while (static_cast<int>(out.size()) < n) out.push_back(make_payload(rng(), rng()));
  return out;
}

// Calls f(e) for every 32-bit error pattern with 1..max_weight bits set.
template <typename F>
void for_each_error(int max_weight, F&& f, std::uint32_t pattern = 0, int from = 0, int weight = 0) {
  for (int i = from; i < 32; ++i) {
    const std::uint32_t e = pattern | (1u << i);
    f(e);
    if (weight + 1 < max_weight) for_each_error(max_weight, f, e, i + 1, weight + 1);
  }
}

TEST(MarkerCode, OneToFiveWrongCellsAreRejected) {
  for (const MarkerPayload& p : sample_payloads(8, 2)) {
    const std::uint32_t w = encode_word(p);
    long patterns = 0;
    for_each_error(5, [&](std::uint32_t e) {
      ++patterns;
      if (decode_word(w ^ e)) ADD_FAILURE() << "error pattern " << std::hex << e << " accepted";
    });
    ASSERT_EQ(patterns, 32 + 496 + 4960 + 35960 + 201376);
  }
}

TEST(MarkerCode, AnyOddNumberOfWrongCellsIsRejected) {
  std::mt19937 rng(6);
  const std::uint32_t w = encode_word(MarkerPayload{0x5A5, 0x3C});
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t e = static_cast<std::uint32_t>(rng());
    if (std::popcount(e) % 2 == 0) e ^= 1u << (i % 32);
    ASSERT_FALSE(decode_word(w ^ e)) << std::hex << e;
  }
}

// A JPEG block damages neighbouring cells together; within three adjacent columns any damage
// is a burst of at most 12 bits of the word, which a CRC-12 always detects.
TEST(MarkerCode, AnyDamageWithinThreeAdjacentColumnsIsRejected) {
  for (const MarkerPayload& p : sample_payloads(16, 3)) {
    const std::uint32_t w = encode_word(p);
    for (int col = 0; col + 2 < kColumns; ++col) {
      for (std::uint32_t pattern = 1; pattern < (1u << (3 * kRows)); ++pattern) {
        std::uint32_t e = 0;
        for (int i = 0; i < 3 * kRows; ++i) {
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
  // Whole rows xor whole columns: bands, stripes, checkerboards and their mixtures.
  for (std::uint32_t rows = 0; rows < 16; ++rows) {
    for (std::uint32_t cols = 0; cols < 256; ++cols) {
      std::uint32_t m = 0;
      for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kColumns; ++c)
          if (((rows >> r) ^ (cols >> c)) & 1u) m |= cell_bit(c, r);
      patterns.push_back(m);
    }
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
  for (std::uint32_t tag : {0u, 0xFFFu, 0x7FFu, 0x123u}) {
    for (std::uint32_t frame = 0; frame <= kFrameMask; ++frame) ASSERT_TRUE(check(tag, frame));
  }
}

TEST(MarkerCode, RandomWordsPassAtTheCrcRate) {
  // The check has 12 bits: about 1 random word in 4096 passes. Cell clarity keeps unmarked
  // frames from presenting 32 clear cells at all, almost always (see marker_decode_test).
  std::mt19937 rng(4);
  int valid = 0;
  const int n = 1 << 22;
  for (int i = 0; i < n; ++i) valid += decode_word(static_cast<std::uint32_t>(rng())) ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(valid) / n, 1.0 / 4096, 0.15 / 4096);
}

TEST(MarkerCode, TagAtLeastFollowsWrapAround) {
  EXPECT_TRUE(tag_at_least(7, 7));
  EXPECT_TRUE(tag_at_least(8, 7));
  EXPECT_FALSE(tag_at_least(6, 7));
  EXPECT_TRUE(tag_at_least(3, 4090));    // 4090 -> 3 wrapped forward by 9
  EXPECT_FALSE(tag_at_least(4090, 3));
  EXPECT_TRUE(tag_at_least(2047, 0));    // half range - 1 ahead: later
  EXPECT_FALSE(tag_at_least(2048, 0));   // half range ahead: taken as earlier
  EXPECT_TRUE(tag_at_least(0x100F, 0xF));  // only the wire bits count
}

TEST(MarkerCode, UnwrapCounterFindsNearestFullValue) {
  EXPECT_EQ(unwrap_counter(5, 16, 65536 * 3 + 2), 65536u * 3 + 5);
  EXPECT_EQ(unwrap_counter(65534, 16, 65536 * 3 + 2), 65536u * 3 - 2);  // just before the wrap
  EXPECT_EQ(unwrap_counter(3, 16, 65536 * 3 - 10), 65536u * 3 + 3);      // just after it
  EXPECT_EQ(unwrap_counter(65535, 16, 2), 65535u);  // never below 0: the forward value
  EXPECT_EQ(unwrap_counter(4095, kTagBits, 4096 * 10 + 1), 4096u * 10 - 1);
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
