#include "ic/frame_image.h"

#include <algorithm>
#include <cstddef>

namespace pictor::ic {

void downscale_planar(const tag::ImageView& image, int out_w, int out_h, std::uint8_t* out) {
  const tag::PixelLayout ch = tag::pixel_layout(image.format);
  const int bpp = tag::bytes_per_pixel(image.format);
  const std::size_t plane = static_cast<std::size_t>(out_w) * static_cast<std::size_t>(out_h);
  for (int oy = 0; oy < out_h; ++oy) {
    const int y0 = oy * image.height / out_h;
    const int y1 = std::max(y0 + 1, (oy + 1) * image.height / out_h);
    const int ystep = std::max(1, (y1 - y0 + kMaxSamplesPerAxis - 1) / kMaxSamplesPerAxis);
    for (int ox = 0; ox < out_w; ++ox) {
      const int x0 = ox * image.width / out_w;
      const int x1 = std::max(x0 + 1, (ox + 1) * image.width / out_w);
      const int xstep = std::max(1, (x1 - x0 + kMaxSamplesPerAxis - 1) / kMaxSamplesPerAxis);
      unsigned r = 0, g = 0, b = 0, n = 0;
      for (int y = y0; y < y1; y += ystep) {
        const std::uint8_t* row = image.pixels + static_cast<std::ptrdiff_t>(y) * image.stride;
        for (int x = x0; x < x1; x += xstep) {
          const std::uint8_t* p = row + x * bpp;
          r += p[ch.r];
          g += p[ch.g];
          b += p[ch.b];
          ++n;
        }
      }
      const std::size_t i = static_cast<std::size_t>(oy) * static_cast<std::size_t>(out_w) + static_cast<std::size_t>(ox);
      out[i] = static_cast<std::uint8_t>((r + n / 2) / n);
      out[plane + i] = static_cast<std::uint8_t>((g + n / 2) / n);
      out[2 * plane + i] = static_cast<std::uint8_t>((b + n / 2) / n);
    }
  }
}

}  // namespace pictor::ic
