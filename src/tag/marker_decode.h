// Finds and checks the tag marker in a captured frame (X11 image, decoded JPEG, video frame).
// A marker that is unclear or fails its check reads as "no tag", never as a wrong tag.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "tag/marker_code.h"
#include "tag/marker_layout.h"

namespace pictor::tag {

// Byte order of one pixel in memory. The X forms are 4 bytes with one unused byte: XGetImage of
// a 24/32-bit TrueColor visual on a little-endian machine gives bgrx.
enum class PixelFormat { bgrx, rgbx, xrgb, xbgr, rgb, bgr, gray };
// Where R, G and B lie inside one pixel of a format (byte offsets; gray: all three the same byte).
struct PixelLayout {
  int r, g, b, bytes;
};
PixelLayout pixel_layout(PixelFormat format);
int bytes_per_pixel(PixelFormat format);

// A captured image, origin top-left, rows `stride` bytes apart.
struct ImageView {
  const std::uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
  int stride = 0;
  PixelFormat format = PixelFormat::bgrx;
};

// Where the window lies inside the image (top-left origin). The marker's cells are read at
// their centres, so the rectangle may be off by up to 2 px and the marker still reads.
struct WindowRect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
};

enum class ReadStatus {
  ok,             // all cells clear and the check passed
  outside_image,  // the window is smaller than the marker or the marker lies outside the image
  unclear_cell,   // a cell is neither uniformly dark nor uniformly light: no marker here
  check_failed,   // all cells clear but the CRC does not match: damaged or no marker
};

// Everything a read found, for diagnostics and threshold studies; decode() is the fast path.
struct MarkerReading {
  ReadStatus status = ReadStatus::outside_image;
  std::optional<MarkerPayload> payload;  // set only when status == ok
  std::uint32_t word = 0;                // cell bits read (meaningful once all cells are clear)
  int cells_read = 0;                    // cells sampled before the read stopped
  int first_unclear_cell = -1;           // -1 when every sampled cell was clear
  std::array<std::uint8_t, kCells> mean_luma{};  // per cell read: mean of the sampled pixels
  std::array<std::uint8_t, kCells> luma_range{};  // per cell read: max - min of the samples
};

// How a cell is judged: mean luma of its central 4 x 4 pixels at most kDarkMax (bit 0) or at
// least kLightMin (bit 1), and those 16 pixels spanning at most kMaxLumaRange. Chosen from
// libjpeg-turbo round trips at quality 15, 4:2:0, every offset (docs/marker.md).
inline constexpr int kDarkMax = 80;
inline constexpr int kLightMin = 175;
inline constexpr int kMaxLumaRange = 160;

// Reads the marker of the window at `window` inside `image`. With stop_early the read ends at
// the first unclear cell (what decode() does); otherwise every cell is sampled.
// Throws UsageError when the image description is impossible (null pixels, stride too small).
MarkerReading read_marker(const ImageView& image, const WindowRect& window, Corner corner,
                          bool stop_early = false);

// The payload of the marker in the window at `window` of `image`, or nullopt when absent/invalid.
std::optional<MarkerPayload> decode(const ImageView& image, const WindowRect& window,
                                    Corner corner = kDefaultCorner);

// The payload of the marker in an image of exactly one window.
std::optional<MarkerPayload> decode(const std::uint8_t* pixels, int width, int height, int stride,
                                    PixelFormat format, Corner corner = kDefaultCorner);

}  // namespace pictor::tag
