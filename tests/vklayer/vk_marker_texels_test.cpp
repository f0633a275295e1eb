// The Vulkan marker's pure parts: black and white per swapchain format, the 64 x 32 block the
// layer copies into an image (it must be the GL marker's rectangles, and decode), and the GPU
// time from two raw timestamps.
#include "hook/vk_marker_texels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "hook/vk_gpu_timer.h"
#include "marker_image.h"
#include "tag/marker_code.h"
#include "tag/marker_decode.h"

using namespace pictor;
using namespace pictor::hook::vk;

namespace {

constexpr tag::Corner kCorners[] = {tag::Corner::bottom_left, tag::Corner::bottom_right, tag::Corner::top_left,
                                    tag::Corner::top_right};

// A w x h BGRA image of mid grey with the block copied in where the layer's copy region puts it.
std::vector<std::uint8_t> image_with_block(int w, int h, tag::Corner corner, const std::uint8_t* block) {
  std::vector<std::uint8_t> image(static_cast<std::size_t>(w) * h * 4, 128);
  const tag::PixelPoint o = marker_block_origin(w, h, corner);
  for (int y = 0; y < tag::kMarkerHeight; ++y)
    std::memcpy(&image[(static_cast<std::size_t>(o.y + y) * w + o.x) * 4], block + y * tag::kMarkerWidth * 4,
                tag::kMarkerWidth * 4);
  return image;
}

}  // namespace

TEST(VkMarkerTexels, BlackAndWhitePerFormat) {
  const MarkerTexels bgra = marker_texels(VK_FORMAT_B8G8R8A8_UNORM);
  ASSERT_EQ(bgra.bytes, 4);
  EXPECT_EQ(std::vector<int>(bgra.black, bgra.black + 4), (std::vector<int>{0, 0, 0, 255}));
  EXPECT_EQ(std::vector<int>(bgra.white, bgra.white + 4), (std::vector<int>{255, 255, 255, 255}));
  EXPECT_EQ(marker_texels(VK_FORMAT_R8G8B8A8_SRGB).bytes, 4);
  const MarkerTexels packed10 = marker_texels(VK_FORMAT_A2B10G10R10_UNORM_PACK32);
  ASSERT_EQ(packed10.bytes, 4);
  std::uint32_t black = 0, white = 0;
  std::memcpy(&black, packed10.black, 4);
  std::memcpy(&white, packed10.white, 4);
  EXPECT_EQ(black, 0xC0000000u);  // opaque alpha, zero colour
  EXPECT_EQ(white, 0xFFFFFFFFu);
  const MarkerTexels half = marker_texels(VK_FORMAT_R16G16B16A16_SFLOAT);
  ASSERT_EQ(half.bytes, 8);
  std::uint16_t w[4], b[4];
  std::memcpy(w, half.white, 8);
  std::memcpy(b, half.black, 8);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(w[c], 0x3C00) << "1.0 in half float";
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[3], 0x3C00) << "opaque";
  // Integer formats cannot take a normalised black and white: no marker.
  EXPECT_EQ(marker_texels(VK_FORMAT_R8G8B8A8_UINT).bytes, 0);
  EXPECT_EQ(marker_texels(VK_FORMAT_UNDEFINED).bytes, 0);
}

TEST(VkMarkerTexels, BlockIsTheGlMarkerAndDecodes) {
  const MarkerTexels t = marker_texels(VK_FORMAT_B8G8R8A8_SRGB);
  for (const auto corner : kCorners) {
    for (const auto& [w, h] : {std::pair{64, 32}, std::pair{640, 360}, std::pair{333, 177}}) {
      for (const std::uint64_t tag_value : {0ull, 1ull, 77ull, 4095ull, 4096ull + 5}) {
        const std::uint64_t frame = tag_value * 7 + 3;
        const tag::MarkerLayout layout = tag::layout(tag::make_payload(tag_value, frame), w, h, corner);
        std::vector<std::uint8_t> block(static_cast<std::size_t>(marker_block_bytes(4)), 0x55);
        ASSERT_TRUE(paint_marker_block(layout, w, h, corner, t, block.data()));
        const auto image = image_with_block(w, h, corner, block.data());
        // Pixel for pixel what the GL marker's scissored clears give in the same window.
        tag::testing::Canvas gl(w, h, tag::PixelFormat::bgrx);
        for (auto& byte : gl.bytes) byte = 128;
        tag::testing::paint_layout(gl, tag::WindowRect{0, 0, w, h}, layout);
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
              ASSERT_EQ(image[(static_cast<std::size_t>(y) * w + x) * 4 + c],
                        gl.bytes[(static_cast<std::size_t>(y) * w + x) * 4 + c])
                  << "corner " << tag::corner_name(corner) << " " << w << "x" << h << " at " << x << "," << y;
        const auto read = tag::decode(image.data(), w, h, w * 4, tag::PixelFormat::bgrx, corner);
        ASSERT_TRUE(read.has_value()) << tag::corner_name(corner) << " " << w << "x" << h << " tag " << tag_value;
        EXPECT_EQ(*read, tag::make_payload(tag_value, frame));
      }
    }
  }
}

TEST(VkMarkerTexels, NothingToPaintInATinyImageOrUnknownFormat) {
  const tag::MarkerLayout tiny = tag::layout(tag::make_payload(3, 4), 63, 32);
  std::vector<std::uint8_t> block(static_cast<std::size_t>(marker_block_bytes(4)), 0x55);
  EXPECT_FALSE(paint_marker_block(tiny, 63, 32, tag::Corner::bottom_left, marker_texels(VK_FORMAT_B8G8R8A8_UNORM),
                                  block.data()));
  const tag::MarkerLayout fits = tag::layout(tag::make_payload(3, 4), 64, 32);
  EXPECT_FALSE(
      paint_marker_block(fits, 64, 32, tag::Corner::bottom_left, marker_texels(VK_FORMAT_R8_UINT), block.data()));
  for (auto b : block) EXPECT_EQ(b, 0x55) << "untouched";
}

TEST(VkGpuTimer, TimestampDeltaWrapsAtTheValidBitsAndScalesByThePeriod) {
  EXPECT_EQ(timestamp_delta_ns(1000, 4000, 64, 1.f), 3000);
  EXPECT_EQ(timestamp_delta_ns(1000, 4000, 64, 2.5f), 7500);
  // A 32-bit counter that wrapped between the two timestamps.
  EXPECT_EQ(timestamp_delta_ns(0xFFFFFFF0u, 0x10u, 32, 1.f), 0x20);
  // Bits above the valid ones are garbage and ignored.
  EXPECT_EQ(timestamp_delta_ns(0xAB00000000000100ull, 0xCD00000000000300ull, 36, 1.f), 0x200);
  EXPECT_EQ(timestamp_delta_ns(~0ull - 9, 10, 64, 1.f), 20);
}
