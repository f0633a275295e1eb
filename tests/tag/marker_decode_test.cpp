// Decoding the tag marker from captured images: every pixel format and corner, a window inside
// a screen image, noise, a slightly wrong window rectangle, damaged cells (rejected, never a wrong
// payload) and many unmarked images (never a payload).
#include <gtest/gtest.h>

#include <limits>

#include <random>

#include "core/error.h"
#include "marker_image.h"
#include "tag/marker_decode.h"

namespace pictor::tag {
namespace {

using testing::Background;
using testing::Canvas;

constexpr Corner kCorners[] = {Corner::bottom_left, Corner::bottom_right, Corner::top_left,
                               Corner::top_right};
constexpr PixelFormat kFormats[] = {PixelFormat::bgrx, PixelFormat::rgbx, PixelFormat::xrgb,
                                    PixelFormat::xbgr, PixelFormat::rgb,  PixelFormat::bgr,
                                    PixelFormat::gray};

// A window of w x h at (x, y) in a screen of sw x sh, showing background `bg` and a marker.
Canvas marked_screen(const MarkerPayload& p, const WindowRect& win, int sw, int sh, Corner corner,
                     Background bg, std::uint32_t seed, PixelFormat f = PixelFormat::rgb) {
  Canvas c = testing::make_background(sw, sh, f, bg, seed);
  testing::paint_layout(c, win, layout(p, win.width, win.height, corner));
  return c;
}

TEST(MarkerDecode, EveryPixelFormatAndCorner) {
  std::mt19937 rng(10);
  for (PixelFormat f : kFormats) {
    for (Corner corner : kCorners) {
      const MarkerPayload p = make_payload(rng(), rng());
      const Canvas c = marked_screen(p, WindowRect{0, 0, 203, 117}, 203, 117, corner,
                                     Background::gradient, 1, f);
      const auto got = decode(c.bytes.data(), c.width, c.height, c.stride(), f, corner);
      ASSERT_TRUE(got) << corner_name(corner) << " format " << static_cast<int>(f);
      EXPECT_EQ(*got, p);
      // The marker is only looked for in the configured corner.
      const Corner other = corner == Corner::top_left ? Corner::bottom_right : Corner::top_left;
      EXPECT_FALSE(decode(c.bytes.data(), c.width, c.height, c.stride(), f, other));
    }
  }
}

TEST(MarkerDecode, ImageLevelRoundTripForEveryTag) {
  Canvas c = testing::make_background(128, 64, PixelFormat::bgrx, Background::noise, 3);
  for (std::uint32_t tag = 0; tag <= kTagMask; ++tag) {
    const MarkerPayload p{tag, (tag * 7) & kFrameMask};
    testing::paint_layout(c, WindowRect{0, 0, 128, 64}, layout(p, 128, 64));
    const auto got = decode(c.bytes.data(), 128, 64, c.stride(), PixelFormat::bgrx);
    ASSERT_TRUE(got) << tag;
    ASSERT_EQ(*got, p);
  }
}

TEST(MarkerDecode, WindowInsideAScreenWithPaddedRows) {
  const MarkerPayload p{0xCAF, 0x42};
  const WindowRect win{37, 21, 250, 140};
  const Canvas c = marked_screen(p, win, 400, 300, Corner::bottom_left, Background::blocks, 2,
                                 PixelFormat::bgrx);
  // Same pixels with 52 bytes of padding per row, as X images with a scanline pad may have.
  const int stride = c.stride() + 52;
  std::vector<std::uint8_t> padded(static_cast<std::size_t>(stride) * 300, 0xEE);
  for (int y = 0; y < 300; ++y)
    std::copy_n(c.bytes.data() + y * c.stride(), c.stride(), padded.data() + y * stride);
  const ImageView view{padded.data(), 400, 300, stride, PixelFormat::bgrx};
  const auto got = decode(view, win);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, p);
  EXPECT_FALSE(decode(view, WindowRect{0, 0, 400, 300})) << "the screen's own corner is empty";
}

// Found by fuzz_marker_decode (UBSan: signed overflow adding the marker's place in the window to a
// window origin near INT_MAX; corpus marker_decode/window_origin_overflow): such a rectangle is
// simply not on the image.
TEST(MarkerDecode, AWindowFarOutsideIntsRangeIsNotOnTheImage) {
  const MarkerPayload p{0x123, 0x07};
  const WindowRect win{10, 10, 200, 120};
  const Canvas c = marked_screen(p, win, 320, 240, Corner::bottom_left, Background::blocks, 2, PixelFormat::bgrx);
  const ImageView view{c.bytes.data(), 320, 240, c.stride(), PixelFormat::bgrx};
  constexpr int big = std::numeric_limits<int>::max() - 50;
  for (const Corner corner : {Corner::bottom_left, Corner::bottom_right, Corner::top_left, Corner::top_right}) {
    EXPECT_FALSE(decode(view, WindowRect{big, big, 1747124293, 1751672904}, corner));
    EXPECT_FALSE(read_marker(view, WindowRect{big, 0, 200, 120}, corner, false).payload);
  }
  EXPECT_TRUE(decode(view, win));
}

TEST(MarkerDecode, ToleratesAWindowRectangleOffByTwoPixels) {
  const MarkerPayload p{0xF0F, 0xF0};
  const WindowRect win{40, 30, 200, 120};
  const Canvas c = marked_screen(p, win, 300, 200, Corner::bottom_left, Background::noise, 4);
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) {
      const WindowRect off{win.x + dx, win.y + dy, win.width, win.height};
      const auto got = decode(c.view(), off);
      ASSERT_TRUE(got) << dx << "," << dy;
      EXPECT_EQ(*got, p);
    }
  }
}

TEST(MarkerDecode, SurvivesAdditiveNoise) {
  std::mt19937 rng(11);
  int decoded = 0;
  for (int i = 0; i < 200; ++i) {
    const MarkerPayload p = make_payload(rng(), rng());
    Canvas c = marked_screen(p, WindowRect{0, 0, 160, 90}, 160, 90, Corner::bottom_left,
                             Background::gradient, static_cast<std::uint32_t>(i));
    testing::add_noise(c, 48, static_cast<std::uint32_t>(rng()));
    const auto got = decode(c.view(), WindowRect{0, 0, 160, 90});
    ASSERT_TRUE(got) << i;
    ASSERT_EQ(*got, p);
    ++decoded;
  }
  EXPECT_EQ(decoded, 200);
}

TEST(MarkerDecode, HeavyNoiseGivesNoTagNeverAWrongOne) {
  std::mt19937 rng(12);
  for (int i = 0; i < 500; ++i) {
    const MarkerPayload p = make_payload(rng(), rng());
    Canvas c = marked_screen(p, WindowRect{0, 0, 96, 64}, 96, 64, Corner::bottom_left,
                             Background::noise, static_cast<std::uint32_t>(i));
    testing::add_noise(c, 90 + i % 100, static_cast<std::uint32_t>(rng()));
    const auto got = decode(c.view(), WindowRect{0, 0, 96, 64});
    if (got) {
      ASSERT_EQ(*got, p) << i;
    }
  }
}

// Overwrites cell `cell` of the marker at the window's bottom-left with a solid luma.
void paint_cell(Canvas& c, const WindowRect& win, int cell, int luma) {
  const int x0 = win.x + cell_column(cell) * kCellPx;
  const int y0 = win.y + win.height - kMarkerHeight + cell_row(cell) * kCellPx;
  for (int y = y0; y < y0 + kCellPx; ++y)
    for (int x = x0; x < x0 + kCellPx; ++x) c.set_rgb(x, y, luma, luma, luma);
}

TEST(MarkerDecode, FlippedCellsAreRejected) {
  const WindowRect win{0, 0, 96, 48};
  for (const MarkerPayload p : {MarkerPayload{0, 0}, MarkerPayload{0xFFFF, 0xFF},
                                MarkerPayload{0x1357, 0x9B}}) {
    const Canvas clean = marked_screen(p, win, 96, 48, Corner::bottom_left, Background::flat_grey, 0);
    const std::uint32_t word = encode_word(p);
    auto flipped = [&](std::initializer_list<int> cells) {
      Canvas c = clean;
      for (int cell : cells) paint_cell(c, win, cell, ((word >> (31 - cell)) & 1u) ? 0 : 255);
      return read_marker(c.view(), win, Corner::bottom_left);
    };
    for (int a = 0; a < kCells; ++a) {
      for (int b = a + 1; b < kCells; ++b) {
        for (int c3 = b + 1; c3 < kCells; ++c3) {
          const MarkerReading r = flipped({a, b, c3});
          ASSERT_EQ(r.status, ReadStatus::check_failed) << a << "," << b << "," << c3;
          ASSERT_FALSE(r.payload);
        }
        ASSERT_EQ(flipped({a, b}).status, ReadStatus::check_failed) << a << "," << b;
      }
      ASSERT_EQ(flipped({a}).status, ReadStatus::check_failed) << a;
    }
  }
}

TEST(MarkerDecode, GreyOrTexturedCellIsUnclear) {
  const WindowRect win{0, 0, 96, 48};
  const MarkerPayload p{77, 7};
  Canvas c = marked_screen(p, win, 96, 48, Corner::bottom_left, Background::flat_grey, 0);
  paint_cell(c, win, 9, 128);
  MarkerReading r = read_marker(c.view(), win, Corner::bottom_left);
  EXPECT_EQ(r.status, ReadStatus::unclear_cell);
  EXPECT_EQ(r.first_unclear_cell, 9);
  EXPECT_EQ(r.cells_read, kCells);
  EXPECT_FALSE(r.payload);
  // A dark cell with one bright stroke through its centre (text on a dark HUD) is not "dark".
  c = marked_screen(p, win, 96, 48, Corner::bottom_left, Background::flat_grey, 0);
  paint_cell(c, win, 20, 0);
  const int x = cell_column(20) * kCellPx + 4;
  for (int y = 0; y < 48; ++y) c.set_rgb(x, y, 255, 255, 255);
  r = read_marker(c.view(), win, Corner::bottom_left, /*stop_early=*/true);
  EXPECT_EQ(r.status, ReadStatus::unclear_cell);
  EXPECT_LE(r.first_unclear_cell, 20);
  EXPECT_EQ(r.cells_read, r.first_unclear_cell + 1) << "fast path stops at the first unclear cell";
}

TEST(MarkerDecode, MarkerOutsideTheImage) {
  const Canvas c = testing::make_background(100, 50, PixelFormat::rgb, Background::flat_grey, 0);
  EXPECT_EQ(read_marker(c.view(), WindowRect{0, 0, 63, 50}, Corner::bottom_left).status,
            ReadStatus::outside_image);
  EXPECT_EQ(read_marker(c.view(), WindowRect{50, 0, 100, 50}, Corner::bottom_right).status,
            ReadStatus::outside_image);
  EXPECT_EQ(read_marker(c.view(), WindowRect{-1, 0, 100, 50}, Corner::bottom_left).status,
            ReadStatus::outside_image);
  EXPECT_FALSE(decode(c.bytes.data(), 60, 30, c.stride(), PixelFormat::rgb));
}

TEST(MarkerDecode, ImpossibleImageDescriptionsThrow) {
  const Canvas c = testing::make_background(100, 50, PixelFormat::bgrx, Background::flat_grey, 0);
  EXPECT_THROW(decode(nullptr, 100, 50, 400, PixelFormat::bgrx), UsageError);
  EXPECT_THROW(decode(c.bytes.data(), 100, 50, 399, PixelFormat::bgrx), UsageError);
  EXPECT_THROW(decode(c.bytes.data(), 0, 50, 400, PixelFormat::bgrx), UsageError);
  try {
    decode(c.bytes.data(), 100, 50, 300, PixelFormat::bgrx);
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("stride 300"), std::string::npos) << e.what();
  }
}

// Content a frame without a marker shows in its corner: textures, gradients, HUD-like blocks,
// 1-px checkerboards, flat colours (black and white included) and bright strokes on dark, as
// captured and after JPEG. None may decode.
TEST(MarkerDecode, UnmarkedContentNeverDecodes) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> byte(0, 255);
  int reads = 0, fully_clear = 0;
  for (int i = 0; i < 7000; ++i) {
    Canvas c(96, 64, PixelFormat::rgb);
    const int kind = i % 7;
    if (kind < 5) {
      c = testing::make_background(96, 64, PixelFormat::rgb, testing::kAllBackgrounds[kind],
                                   static_cast<std::uint32_t>(rng()));
    } else if (kind == 5) {  // one flat colour; a quarter of them pure black or pure white
      const bool pure = byte(rng) < 64;
      const int r = pure ? (byte(rng) & 1) * 255 : byte(rng), g = pure ? r : byte(rng),
                b = pure ? r : byte(rng);
      for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x) c.set_rgb(x, y, r, g, b);
    } else {  // strokes of text on a dark background
      for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x) c.set_rgb(x, y, 10, 10, 20);
      for (int s = 0; s < 40; ++s) {
        const int x0 = byte(rng) % 96, y0 = byte(rng) % 64, len = 3 + byte(rng) % 8;
        const bool horizontal = byte(rng) & 1;
        for (int k = 0; k < len; ++k) {
          const int x = horizontal ? std::min(95, x0 + k) : x0, y = horizontal ? y0 : std::min(63, y0 + k);
          c.set_rgb(x, y, 240, 240, 240);
        }
      }
    }
    const int quality = i % 3 == 0 ? 0 : 15 + (i % 5) * 20;  // 0: as captured
    const Canvas seen = quality == 0 ? c : testing::jpeg_round_trip(c, quality);
    for (Corner corner : kCorners) {
      const MarkerReading r = read_marker(seen.view(), WindowRect{0, 0, 96, 64}, corner);
      ++reads;
      if (r.first_unclear_cell < 0) ++fully_clear;
      ASSERT_FALSE(r.payload) << "image " << i << " kind " << kind << " corner "
                              << corner_name(corner);
    }
  }
  // Flat content is the usual way a corner shows 32 clear cells; the whitening rejects it.
  RecordProperty("fully_clear_corners", fully_clear);
  EXPECT_EQ(reads, 28000);
}

// Black-and-white blocks of random size and phase are the one content that imitates the marker:
// when every cell centre happens to be clear the word is effectively random and the 12-bit check
// passes it with probability 2^-12. Checks that rate stays at the check's, not above.
TEST(MarkerDecode, MarkerLikeBlocksPassOnlyAtTheCheckRate) {
  std::mt19937 rng(14);
  std::uniform_int_distribution<int> byte(0, 255);
  int fully_clear = 0, accepted = 0;
  std::vector<int> grid(64);
  Canvas c(96, 64, PixelFormat::gray);
  for (int i = 0; i < 30000; ++i) {
    const int size = 4 + byte(rng) % 29, px = byte(rng) % size, py = byte(rng) % size;
    for (int& g : grid) g = (byte(rng) & 1) * 255;
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 96; ++x) {
        const int v = grid[static_cast<std::size_t>(((x + px) / size) % 8 + 8 * (((y + py) / size) % 8))];
        c.bytes[static_cast<std::size_t>(y * 96 + x)] = static_cast<std::uint8_t>(v);
      }
    const MarkerReading r = read_marker(c.view(), WindowRect{0, 0, 96, 64}, Corner::bottom_left);
    if (r.first_unclear_cell < 0) ++fully_clear;
    if (r.payload) ++accepted;
  }
  RecordProperty("fully_clear", fully_clear);
  RecordProperty("accepted", accepted);
  ASSERT_GT(fully_clear, 1000) << "the test must produce marker-like corners to mean anything";
  const double expected = fully_clear / 4096.0;
  EXPECT_LE(accepted, static_cast<int>(3 * expected) + 3);
}

}  // namespace
}  // namespace pictor::tag
