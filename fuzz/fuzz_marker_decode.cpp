// Fuzz target: the tag decoder on arbitrary pixels, any pixel format, any window rectangle (also
// far outside the image) and corner. The first 24 bytes describe the image and the window, the
// rest are its pixels. Properties: no read outside the image (ASan), a payload only with status ok.
#include <cstring>
#include <vector>

#include "core/error.h"
#include "fuzz_check.h"
#include "tag/marker_decode.h"

namespace {

template <typename T>
T take(const std::uint8_t*& p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::tag;
  constexpr std::size_t kHeader = 24;  // what the take<>() calls below read
  if (size < kHeader) return 0;
  const std::uint8_t* p = data;
  const int width = 1 + take<std::uint16_t>(p) % 512;
  const int height = 1 + take<std::uint16_t>(p) % 512;
  const int pad = take<std::uint8_t>(p) % 16;
  const auto format = static_cast<PixelFormat>(take<std::uint8_t>(p) % 7);
  WindowRect window;
  window.x = take<std::int32_t>(p);
  window.y = take<std::int32_t>(p);
  window.width = take<std::int32_t>(p);
  window.height = take<std::int32_t>(p);
  const auto corner = static_cast<Corner>(take<std::uint8_t>(p) % 4);
  const bool stop_early = take<std::uint8_t>(p) & 1;

  // The image is exactly as large as its description says, so ASan sees any read past it; the
  // pixels are the rest of the input, repeated (or cut) to fill it.
  const int stride = width * bytes_per_pixel(format) + pad;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(stride) * static_cast<std::size_t>(height));
  const std::size_t have = size - kHeader;
  for (std::size_t i = 0; i < pixels.size() && have > 0; ++i) pixels[i] = p[i % have];
  const ImageView image{pixels.data(), width, height, stride, format};
  try {
    const MarkerReading r = read_marker(image, window, corner, stop_early);
    FUZZ_CHECK(r.payload.has_value() == (r.status == ReadStatus::ok));
    FUZZ_CHECK(r.cells_read >= 0 && r.cells_read <= kCells);
    // The whole-window form must agree with the general one on a window that is the image.
    const auto whole = decode(pixels.data(), width, height, stride, format, corner);
    const MarkerReading full = read_marker(image, WindowRect{0, 0, width, height}, corner, true);
    FUZZ_CHECK(whole.has_value() == full.payload.has_value());
  } catch (const pictor::UsageError&) {
    FUZZ_CHECK(false);  // the image description above is always a possible one
  }
  return 0;
}
