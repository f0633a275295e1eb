// Recorded frames as images: downscaling a captured window, JPEG encode/decode (libturbojpeg),
// and the small grayscale thumbnails the gated-replay driver compares frames with.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "tag/marker_decode.h"

namespace pictor::icdata {

// Packed RGB, origin top-left.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  tag::ImageView view() const { return {rgb.data(), width, height, width * 3, tag::PixelFormat::rgb}; }
};

// Area-average downscale (each output pixel is the mean of the source pixels it covers, so small
// objects fade rather than flicker in and out as nearest-neighbour sampling would). Upscaling
// repeats pixels. Throws UsageError for an empty image or size.
RgbImage downscale_rgb(const tag::ImageView& image, Size out);

// The red, green and blue of pixel (x, y); the caller keeps x, y inside the image.
struct Rgb {
  std::uint8_t r, g, b;
};
Rgb pixel_rgb(const tag::ImageView& image, int x, int y);

// Throws RunError when libturbojpeg fails.
std::vector<std::uint8_t> encode_jpeg(const RgbImage& image, int quality);
// Throws UsageError "<name>: <cause>" for data that is not a JPEG.
RgbImage decode_jpeg(const std::vector<std::uint8_t>& jpeg, const std::string& name);
RgbImage read_jpeg_file(const std::string& path);
void write_file_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes);

// Gated replay's frame comparison works on 64×36 8-bit grayscale thumbnails (luma
// 0.299 R + 0.587 G + 0.114 B of the area-averaged image): small enough that compression
// noise and single-pixel changes vanish, large enough to show what is on screen.
inline constexpr Size kGateThumbSize{64, 36};
struct GrayThumb {
  int width = 0, height = 0;
  std::vector<std::uint8_t> luma;
};
GrayThumb gray_thumbnail(const tag::ImageView& image, Size size = kGateThumbSize);
// Mean absolute difference of two thumbnails of equal size, 0..255; throws UsageError otherwise.
double mean_abs_difference(const GrayThumb& a, const GrayThumb& b);

}  // namespace pictor::icdata
