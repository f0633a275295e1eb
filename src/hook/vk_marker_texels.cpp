#include "hook/vk_marker_texels.h"

#include <cstring>

namespace pictor::hook::vk {

namespace {

MarkerTexels texels(int bytes, std::uint64_t black, std::uint64_t white) {
  // Little-endian memory order of packed values (x86-64, aarch64): byte i = bits 8i..8i+7.
  MarkerTexels t;
  t.bytes = bytes;
  for (int i = 0; i < bytes; ++i) {
    t.black[i] = static_cast<std::uint8_t>(black >> (8 * i));
    t.white[i] = static_cast<std::uint8_t>(white >> (8 * i));
  }
  return t;
}

}  // namespace

MarkerTexels marker_texels(VkFormat format) noexcept {
  switch (format) {
    // Four bytes, alpha in the last one; 0 and 255 are fixed points of the sRGB encoding.
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
      return texels(4, 0xFF000000u, 0xFFFFFFFFu);
    // Two alpha bits on top of three 10-bit channels.
    case VK_FORMAT_A2R10G10B10_UNORM_PACK32:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
      return texels(4, 0xC0000000u, 0xFFFFFFFFu);
    // Half floats: 1.0 is 0x3C00; alpha is the fourth channel.
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      return texels(8, 0x3C00000000000000ull, 0x3C003C003C003C00ull);
    case VK_FORMAT_R5G6B5_UNORM_PACK16:
    case VK_FORMAT_B5G6R5_UNORM_PACK16:
      return texels(2, 0x0000u, 0xFFFFu);
    default:
      return MarkerTexels{};
  }
}

tag::PixelPoint marker_block_origin(int image_w, int image_h, tag::Corner corner) noexcept {
  return tag::marker_origin_in_image(image_w, image_h, corner);
}

bool paint_marker_block(const tag::MarkerLayout& marker, int image_w, int image_h, tag::Corner corner,
                        const MarkerTexels& t, std::uint8_t* block) noexcept {
  if (marker.count <= 0 || t.bytes <= 0 || !block) return false;
  const tag::PixelPoint origin = marker_block_origin(image_w, image_h, corner);
  const int row_bytes = tag::kMarkerWidth * t.bytes;
  for (int i = 0; i < marker.count; ++i) {
    const tag::MarkerRect& r = marker.rects[i];
    // GL rows count up from the window's bottom; image rows down from its top.
    const int y0 = image_h - (r.y + r.h) - origin.y;
    const int x0 = r.x - origin.x;
    const std::uint8_t* texel = r.white ? t.white : t.black;
    for (int y = y0 < 0 ? 0 : y0; y < y0 + r.h && y < tag::kMarkerHeight; ++y) {
      std::uint8_t* row = block + y * row_bytes;
      for (int x = x0 < 0 ? 0 : x0; x < x0 + r.w && x < tag::kMarkerWidth; ++x)
        std::memcpy(row + x * t.bytes, texel, static_cast<std::size_t>(t.bytes));
    }
  }
  return true;
}

}  // namespace pictor::hook::vk
