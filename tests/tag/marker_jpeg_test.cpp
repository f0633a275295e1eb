// The marker through libjpeg-turbo: compressed with 4:2:0 subsampling at qualities 15..90, with
// the window at every offset modulo 8 from the codec's block grid, over backgrounds that stress
// the codec. It must decode to the payload drawn, and damage must never read as another payload.
#include <gtest/gtest.h>
#include <turbojpeg.h>

#include <random>

#include "marker_image.h"
#include "tag/marker_decode.h"

namespace pictor::tag {
namespace {

using testing::Background;
using testing::Canvas;

struct Trial {
  MarkerPayload payload;
  WindowRect window;
};

// A 208 x 128 screen with a 160 x 96 window whose top-left corner sits at (24 + ox, 16 + oy),
// so the marker's cells are offset (ox, oy + 96 - 32) from the JPEG grid of the screen image.
Trial place(int ox, int oy, std::mt19937& rng) {
  return Trial{make_payload(rng(), rng()), WindowRect{24 + ox, 16 + oy, 160, 96}};
}

void expect_all_offsets_decode(int quality, Corner corner, PixelFormat client_format) {
  std::mt19937 rng(static_cast<std::uint32_t>(quality * 131 + static_cast<int>(corner)));
  int decoded = 0, trials = 0;
  for (Background bg : testing::kAllBackgrounds) {
    for (int oy = 0; oy < 8; ++oy) {
      for (int ox = 0; ox < 8; ++ox) {
        const Trial t = place(ox, oy, rng);
        Canvas screen = testing::make_background(208, 128, PixelFormat::rgb, bg,
                                                 static_cast<std::uint32_t>(rng()));
        testing::paint_layout(screen, t.window,
                              layout(t.payload, t.window.width, t.window.height, corner));
        const Canvas received = testing::convert(testing::jpeg_round_trip(screen, quality),
                                                 client_format);
        const MarkerReading r = read_marker(received.view(), t.window, corner);
        ++trials;
        if (r.payload && *r.payload == t.payload) {
          ++decoded;
        } else {
          ADD_FAILURE() << "quality " << quality << " " << testing::background_name(bg)
                        << " offset " << ox << "," << oy << " status "
                        << static_cast<int>(r.status) << " first unclear cell "
                        << r.first_unclear_cell;
        }
      }
    }
  }
  EXPECT_EQ(decoded, trials);
}

TEST(MarkerJpeg, Quality15EveryOffset) {
  expect_all_offsets_decode(15, Corner::bottom_left, PixelFormat::rgb);
}
TEST(MarkerJpeg, Quality30EveryOffset) {
  expect_all_offsets_decode(30, Corner::bottom_left, PixelFormat::bgrx);
}
TEST(MarkerJpeg, Quality50EveryOffset) {
  expect_all_offsets_decode(50, Corner::bottom_left, PixelFormat::rgb);
}
TEST(MarkerJpeg, Quality90EveryOffset) {
  expect_all_offsets_decode(90, Corner::bottom_left, PixelFormat::bgrx);
}
TEST(MarkerJpeg, Quality15EveryOffsetOtherCorners) {
  expect_all_offsets_decode(15, Corner::top_right, PixelFormat::bgrx);
  expect_all_offsets_decode(15, Corner::bottom_right, PixelFormat::rgb);
  expect_all_offsets_decode(15, Corner::top_left, PixelFormat::rgb);
}

TEST(MarkerJpeg, NoiseThenJpeg) {
  std::mt19937 rng(21);
  for (int quality : {15, 30, 50, 90}) {
    for (int i = 0; i < 64; ++i) {
      const Trial t = place(i % 8, i / 8, rng);
      Canvas screen = testing::make_background(208, 128, PixelFormat::rgb, Background::gradient,
                                               static_cast<std::uint32_t>(rng()));
      testing::paint_layout(screen, t.window, layout(t.payload, 160, 96, Corner::bottom_left));
      testing::add_noise(screen, 24, static_cast<std::uint32_t>(rng()));
      const auto got = decode(testing::jpeg_round_trip(screen, quality).view(), t.window);
      ASSERT_TRUE(got) << "quality " << quality << " offset " << i % 8 << "," << i / 8;
      ASSERT_EQ(*got, t.payload);
    }
  }
}

// Below the supported quality, and with libjpeg-turbo's fast integer IDCT on decompression
// (which wraps some saturated pixels from white to black), reads may fail; they must fail as
// "no tag", never as a wrong tag.
TEST(MarkerJpeg, UnsupportedDecodingNeverGivesAWrongPayload) {
  std::mt19937 rng(22);
  int wrong = 0, decoded = 0, trials = 0;
  for (int quality : {2, 5, 8, 10, 15, 50, 90}) {
    for (int flags : {0, TJFLAG_FASTDCT}) {
      for (Background bg : testing::kAllBackgrounds) {
        for (int i = (quality + flags / 2048) % 2; i < 64; i += 2) {  // half the offsets each
          const Trial t = place(i % 8, i / 8, rng);
          Canvas screen = testing::make_background(208, 128, PixelFormat::rgb, bg,
                                                   static_cast<std::uint32_t>(rng()));
          testing::paint_layout(screen, t.window, layout(t.payload, 160, 96, Corner::bottom_left));
          const auto got = decode(testing::jpeg_round_trip(screen, quality, flags).view(), t.window);
          ++trials;
          if (got) (*got == t.payload ? decoded : wrong) += 1;
        }
      }
    }
  }
  RecordProperty("decoded", decoded);
  RecordProperty("trials", trials);
  EXPECT_EQ(wrong, 0);
}

TEST(MarkerJpeg, UnmarkedFramesStayUnmarkedThroughJpeg) {
  std::mt19937 rng(23);
  for (int quality : {15, 30, 50, 90}) {
    for (Background bg : testing::kAllBackgrounds) {
      for (int i = 0; i < 40; ++i) {
        const Canvas screen = testing::make_background(208, 128, PixelFormat::rgb, bg,
                                                       static_cast<std::uint32_t>(rng()));
        const Canvas received = testing::jpeg_round_trip(screen, quality);
        for (Corner corner : {Corner::bottom_left, Corner::top_right}) {
          ASSERT_FALSE(decode(received.view(), WindowRect{24 + i % 8, 16 + i / 8, 160, 96}, corner));
        }
      }
    }
  }
}

}  // namespace
}  // namespace pictor::tag
