#include "tag/marker_decode.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace pictor::tag {

namespace {

// The central 4 x 4 pixels of a cell: far enough from its edges that a window rectangle off by
// 2 px, and JPEG ringing at an edge, still leave them inside the cell.
constexpr int kSampleInset = 2;
constexpr int kSampleSide = 4;
constexpr int kSamples = kSampleSide * kSampleSide;

// BT.601 luma in 8-bit fixed point, the weights JPEG uses, so luma survives 4:2:0 best.
inline int luma(const std::uint8_t* p, const PixelLayout& c) {
  return (77 * p[c.r] + 150 * p[c.g] + 29 * p[c.b] + 128) >> 8;
}

void check_image(const ImageView& image) {
  if (image.pixels == nullptr) throw UsageError("marker decode: image has no pixels");
  if (image.width <= 0 || image.height <= 0) {
    throw UsageError("marker decode: image size " + std::to_string(image.width) + "x" +
                     std::to_string(image.height) + " is not positive");
  }
  const long row_bytes = static_cast<long>(image.width) * bytes_per_pixel(image.format);
  if (image.stride < row_bytes) {
    throw UsageError("marker decode: stride " + std::to_string(image.stride) +
                     " is smaller than one row of " + std::to_string(row_bytes) + " bytes");
  }
}

}  // namespace

PixelLayout pixel_layout(PixelFormat format) {
  switch (format) {
    case PixelFormat::bgrx: return {2, 1, 0, 4};
    case PixelFormat::rgbx: return {0, 1, 2, 4};
    case PixelFormat::xrgb: return {1, 2, 3, 4};
    case PixelFormat::xbgr: return {3, 2, 1, 4};
    case PixelFormat::rgb: return {0, 1, 2, 3};
    case PixelFormat::bgr: return {2, 1, 0, 3};
    case PixelFormat::gray: return {0, 0, 0, 1};
  }
  return {0, 0, 0, 1};
}

int bytes_per_pixel(PixelFormat format) { return pixel_layout(format).bytes; }

MarkerReading read_marker(const ImageView& image, const WindowRect& window, Corner corner,
                          bool stop_early) {
  check_image(image);
  MarkerReading reading;
  if (window.width < kMarkerWidth || window.height < kMarkerHeight) return reading;
  const PixelPoint in_window = marker_origin_in_image(window.width, window.height, corner);
  // In 64 bits: a window rectangle from outside (a server's, a file's) may lie anywhere in int's
  // range, and its corner must not overflow on the way to being refused.
  const std::int64_t x0_wide = std::int64_t{window.x} + in_window.x;
  const std::int64_t y0_wide = std::int64_t{window.y} + in_window.y;
  if (x0_wide < 0 || y0_wide < 0 || x0_wide + kMarkerWidth > image.width || y0_wide + kMarkerHeight > image.height) {
    return reading;
  }
  const int x0 = static_cast<int>(x0_wide);
  const int y0 = static_cast<int>(y0_wide);

  const PixelLayout ch = pixel_layout(image.format);
  std::uint32_t word = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    const int sx = x0 + cell_column(cell) * kCellPx + kSampleInset;
    const int sy = y0 + cell_row(cell) * kCellPx + kSampleInset;
    int sum = 0;
    int lo = 255;
    int hi = 0;
    for (int dy = 0; dy < kSampleSide; ++dy) {
      const std::uint8_t* p = image.pixels + static_cast<std::ptrdiff_t>(sy + dy) * image.stride +
                              static_cast<std::ptrdiff_t>(sx) * ch.bytes;
      for (int dx = 0; dx < kSampleSide; ++dx, p += ch.bytes) {
        const int y = luma(p, ch);
        sum += y;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
    }
    const int mean = (sum + kSamples / 2) / kSamples;
    reading.mean_luma[cell] = static_cast<std::uint8_t>(mean);
    reading.luma_range[cell] = static_cast<std::uint8_t>(hi - lo);
    reading.cells_read = cell + 1;
    const bool light = mean >= kLightMin;
    const bool clear = (light || mean <= kDarkMax) && hi - lo <= kMaxLumaRange;
    if (!clear && reading.first_unclear_cell < 0) {
      reading.first_unclear_cell = cell;
      if (stop_early) break;
    }
    if (light) word |= 1u << (31 - cell);
  }
  reading.word = word;
  if (reading.first_unclear_cell >= 0) {
    reading.status = ReadStatus::unclear_cell;
    return reading;
  }
  reading.payload = decode_word(word);
  reading.status = reading.payload ? ReadStatus::ok : ReadStatus::check_failed;
  return reading;
}

std::optional<MarkerPayload> decode(const ImageView& image, const WindowRect& window,
                                    Corner corner) {
  return read_marker(image, window, corner, /*stop_early=*/true).payload;
}

std::optional<MarkerPayload> decode(const std::uint8_t* pixels, int width, int height, int stride,
                                    PixelFormat format, Corner corner) {
  return decode(ImageView{pixels, width, height, stride, format}, WindowRect{0, 0, width, height},
                corner);
}

}  // namespace pictor::tag
