// The tag marker as texels for a Vulkan swapchain image: pure black and white in the image's
// format, and the 64 x 32 block the layer copies into the image (the same rectangles the GL
// marker clears, turned from GL's bottom-left origin to the image's top-left one).
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "tag/marker_layout.h"

namespace pictor::hook::vk {

struct MarkerTexels {
  int bytes = 0;               // bytes per texel; 0: the format is not supported
  std::uint8_t black[8] = {};  // opaque black, as stored in memory
  std::uint8_t white[8] = {};  // opaque white
};

// Black and white for the colour formats swapchains use (8-bit UNORM/SRGB RGBA and BGRA, 10-bit
// packed, 16-bit float, 565); bytes == 0 for any other format (integer formats among them).
MarkerTexels marker_texels(VkFormat format) noexcept;

// Bytes of one marker block: kMarkerWidth x kMarkerHeight texels, rows tightly packed.
inline constexpr int marker_block_bytes(int texel_bytes) {
  return tag::kMarkerWidth * tag::kMarkerHeight * texel_bytes;
}

// Top-left texel of the marker block in an image of image_w x image_h (the marker's corner).
tag::PixelPoint marker_block_origin(int image_w, int image_h, tag::Corner corner) noexcept;

// Paints `marker` (a layout for an image_w x image_h window) into `block`, which receives the
// kMarkerWidth x kMarkerHeight texels that go at marker_block_origin(). False when the layout
// is empty (window smaller than the marker) or the texels unsupported; never allocates.
bool paint_marker_block(const tag::MarkerLayout& marker, int image_w, int image_h, tag::Corner corner,
                        const MarkerTexels& texels, std::uint8_t* block) noexcept;

}  // namespace pictor::hook::vk
