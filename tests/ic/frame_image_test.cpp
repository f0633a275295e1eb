// The one downscaler: every-pixel means (recorded frames, thumbnails), means over at most N
// points per axis (the detector's input), packed and planar output, upscaling, bad input.
#include "ic/frame_image.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/error.h"

namespace pictor::ic {
namespace {

// A BGRX image whose red is f(x, y), green 2 x red mod 256, blue the row.
struct Bgrx {
  int w, h;
  std::vector<std::uint8_t> px;
  template <class F>
  Bgrx(int width, int height, F red) : w(width), h(height), px(static_cast<std::size_t>(width * height * 4)) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint8_t* p = &px[static_cast<std::size_t>((y * w + x) * 4)];
        const auto r = static_cast<std::uint8_t>(red(x, y));
        p[0] = static_cast<std::uint8_t>(y);                 // blue
        p[1] = static_cast<std::uint8_t>((2 * r) & 0xff);    // green
        p[2] = r;                                             // red
        p[3] = 0;
      }
  }
  tag::ImageView view() const { return {px.data(), w, h, w * 4, tag::PixelFormat::bgrx}; }
};

TEST(Downscale, EveryPixelIsTheRoundedMeanOfItsRectangle) {
  const Bgrx img(4, 2, [](int x, int y) { return 10 * x + 100 * y; });
  const RgbImage out = downscale_rgb(img.view(), {2, 1});
  ASSERT_EQ(out.rgb.size(), 6u);
  // Left 2x2: red 0, 10, 100, 110 -> 55; green 2x mod 256: 0, 20, 200, 220 -> 110; blue 0, 0, 1, 1 -> 0.5 -> 1.
  EXPECT_EQ(out.rgb[0], 55);
  EXPECT_EQ(out.rgb[1], 110);
  EXPECT_EQ(out.rgb[2], 1);
  // Right 2x2: red 20, 30, 120, 130 -> 75.
  EXPECT_EQ(out.rgb[3], 75);
}

TEST(Downscale, PlanarHoldsTheSameMeansPlaneByPlane) {
  const Bgrx img(16, 8, [](int x, int y) { return (x * 7 + y * 13) % 200; });
  const RgbImage packed = downscale_rgb(img.view(), {4, 2});
  std::vector<std::uint8_t> planar(3 * 4 * 2);
  // 4x4 blocks and at most 4 samples per axis: every pixel, as the packed one reads.
  downscale_planar(img.view(), 4, 2, planar.data());
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(planar[c * 8 + i], packed.rgb[i * 3 + c]) << i << " " << c;
}

TEST(Downscale, LargeRectanglesAreSampledOnAtMostFourPointsPerAxis) {
  // 10x10 blocks: the detector's input reads columns and rows 0, 3, 6, 9 of each block.
  const Bgrx img(20, 10, [](int x, int) { return x % 10 == 1 ? 250 : 10 * (x % 10); });
  std::vector<std::uint8_t> sampled(3 * 2 * 1);
  downscale_planar(img.view(), 2, 1, sampled.data());
  EXPECT_EQ(sampled[0], (0 + 30 + 60 + 90) / 4);  // column 1 (250) is never read
  std::vector<std::uint8_t> full(3 * 2 * 1);
  downscale(img.view(), {2, 1}, PixelOrder::planar, 0, full.data());
  EXPECT_EQ(full[0], (0 + 250 + 20 + 30 + 40 + 50 + 60 + 70 + 80 + 90 + 5) / 10);  // every column, rounded
  EXPECT_NE(sampled[0], full[0]);
}

TEST(Downscale, UpscalingRepeatsPixels) {
  const Bgrx img(2, 1, [](int x, int) { return x ? 200 : 40; });
  const RgbImage out = downscale_rgb(img.view(), {4, 2});
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(out.rgb[static_cast<std::size_t>((y * 4 + x) * 3)], x < 2 ? 40 : 200);
}

TEST(Downscale, EmptyImageOrSizeIsAUsageError) {
  const Bgrx img(4, 4, [](int, int) { return 1; });
  std::vector<std::uint8_t> out(64);
  EXPECT_THROW(downscale_rgb(img.view(), {0, 2}), UsageError);
  EXPECT_THROW(downscale_planar(tag::ImageView{}, 2, 2, out.data()), UsageError);
}

}  // namespace
}  // namespace pictor::ic
