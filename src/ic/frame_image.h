// Frames as the detector sees them: a recorded JPEG (decoded by icdata) or the client's capture,
// box-filtered down to the model's input size as planar RGB bytes (C x H x W).
#pragma once
#include <cstdint>

#include "tag/marker_decode.h"

namespace pictor::ic {

// Planar RGB (3 x out_h x out_w bytes): each output pixel is the mean of its source rectangle,
// sampled on at most kMaxSamplesPerAxis points per axis (a 1280x720 window to 128x72 reads
// 4 x 4 of each 10 x 10 block: ~6x cheaper, and the same as a full mean on flat game colours).
inline constexpr int kMaxSamplesPerAxis = 4;
void downscale_planar(const tag::ImageView& image, int out_w, int out_h, std::uint8_t* out);

}  // namespace pictor::ic
