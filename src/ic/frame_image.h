// Frames as images: the one downscaler (a captured window to a recorded frame, a recorded frame
// or a window to the detector's input, thumbnails), JPEG encode/decode (libturbojpeg), and the
// small grayscale thumbnails the gated-replay driver compares frames with.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "tag/marker_decode.h"

namespace pictor::ic {

// Packed RGB, origin top-left.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  tag::ImageView view() const { return {rgb.data(), width, height, width * 3, tag::PixelFormat::rgb}; }
};

// How the downscaler lays out its output: packed R G B per pixel, or planar (all R, then all G,
// then all B: C x H x W, the detector's input).
enum class PixelOrder { packed, planar };

// The downscaler. Each output pixel is the rounded mean of the source rectangle it covers (small
// objects fade rather than flicker in and out as nearest-neighbour sampling would); a rectangle
// is at least one pixel, so upscaling repeats pixels. With `max_samples_per_axis` > 0 the mean is
// taken over at most that many evenly spaced points per axis of the rectangle instead of every
// pixel; 0 reads every pixel. Writes 3 x out.width x out.height bytes to `out`. Throws
// UsageError for an empty image or size.
void downscale(const tag::ImageView& image, Size out, PixelOrder order, int max_samples_per_axis, std::uint8_t* dst);

// Every pixel, packed: recorded frames (RecordingDriver) and gated replay's thumbnails.
RgbImage downscale_rgb(const tag::ImageView& image, Size out);

// The detector's input, planar, sampled on at most kMaxSamplesPerAxis points per axis: a
// 1280x720 window to 128x72 reads 4 x 4 of each 10 x 10 block (~6x cheaper, and the same as a full
// mean on flat game colours); a 256x144 recorded frame to 128x72 (2 x 2 blocks) reads every pixel.
// Used alike in training (training_sequence.cpp) and in the ic driver, so both see the same input.
inline constexpr int kMaxSamplesPerAxis = 4;
void downscale_planar(const tag::ImageView& image, int out_w, int out_h, std::uint8_t* out);

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

}  // namespace pictor::ic
