// Frames as the detector sees them: decoded (JPEG from a recording, or the client's capture) and
// box-filtered down to the model's input size as planar RGB bytes (C x H x W).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tag/marker_decode.h"

namespace pictor::ic {

// An RGB image, rows packed (stride = 3 * width).
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  tag::ImageView view() const;
};

// Throws UsageError naming the file when it cannot be read or is not a JPEG.
RgbImage decode_jpeg_file(const std::string& path);
// RGB pixels to a baseline JPEG (quality 90), for tests that build recordings by hand.
std::vector<std::uint8_t> encode_jpeg(const RgbImage& image, int quality = 90);

// Planar RGB (3 x out_h x out_w bytes): each output pixel is the mean of its source rectangle,
// sampled on at most kMaxSamplesPerAxis points per axis (a 1280x720 window to 128x72 reads
// 4 x 4 of each 10 x 10 block: ~6x cheaper, and the same as a full mean on flat game colours).
inline constexpr int kMaxSamplesPerAxis = 4;
void downscale_planar(const tag::ImageView& image, int out_w, int out_h, std::uint8_t* out);

}  // namespace pictor::ic
