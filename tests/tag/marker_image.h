// Test support for the tag marker: synthetic frames (backgrounds a game or desktop might show),
// painting a layout the way the interposer's clears would, noise, and libjpeg-turbo round trips.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "tag/marker_decode.h"
#include "tag/marker_layout.h"

namespace pictor::tag::testing {

// A packed image owned by the test, origin top-left.
struct Canvas {
  int width = 0;
  int height = 0;
  PixelFormat format = PixelFormat::rgb;
  std::vector<std::uint8_t> bytes;

  Canvas(int w, int h, PixelFormat f);
  int stride() const { return width * bytes_per_pixel(format); }
  ImageView view() const { return ImageView{bytes.data(), width, height, stride(), format}; }
  void set_rgb(int x, int y, int r, int g, int b);
  int luma_at(int x, int y) const;
};

enum class Background {
  flat_grey,      // mid grey: the worst case for a fixed threshold at 128
  noise,          // independent uniform RGB per pixel
  gradient,       // smooth colour ramps, like sky or shading
  blocks,         // random saturated rectangles with hard edges, like a HUD or a desktop
  checker,        // 1-px black/white checkerboard: the hardest texture for JPEG
};
inline constexpr Background kAllBackgrounds[] = {Background::flat_grey, Background::noise,
                                                  Background::gradient, Background::blocks,
                                                  Background::checker};
const char* background_name(Background b);

Canvas make_background(int w, int h, PixelFormat f, Background kind, std::uint32_t seed);

// Fills `layout`'s rectangles (GL window coordinates) into the window at `window`.
void paint_layout(Canvas& c, const WindowRect& window, const MarkerLayout& marker);

// Adds independent uniform noise in -amplitude..amplitude to every channel, clamped to 0..255.
void add_noise(Canvas& c, int amplitude, std::uint32_t seed);

// Compresses with tjCompress2 (4:2:0, given quality, TurboJPEG flags such as TJFLAG_FASTDCT)
// and decompresses to RGB with the same flags.
Canvas jpeg_round_trip(const Canvas& c, int quality, int flags = 0);

// Converts to another pixel format (unused X bytes set to 0xA5 so nobody reads them as colour).
Canvas convert(const Canvas& c, PixelFormat to);

}  // namespace pictor::tag::testing
