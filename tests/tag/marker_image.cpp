#include "marker_image.h"

#include <turbojpeg.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace pictor::tag::testing {

namespace {

struct Order {
  int r, g, b, x;  // x < 0: no unused byte
};

Order order_of(PixelFormat f) {
  switch (f) {
    case PixelFormat::bgrx: return {2, 1, 0, 3};
    case PixelFormat::rgbx: return {0, 1, 2, 3};
    case PixelFormat::xrgb: return {1, 2, 3, 0};
    case PixelFormat::xbgr: return {3, 2, 1, 0};
    case PixelFormat::rgb: return {0, 1, 2, -1};
    case PixelFormat::bgr: return {2, 1, 0, -1};
    case PixelFormat::gray: return {0, 0, 0, -1};
  }
  return {0, 1, 2, -1};
}

std::uint8_t clamp8(int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); }

}  // namespace

Canvas::Canvas(int w, int h, PixelFormat f)
    : width(w), height(h), format(f),
      bytes(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) *
                static_cast<std::size_t>(bytes_per_pixel(f)),
            0) {}

void Canvas::set_rgb(int x, int y, int r, int g, int b) {
  std::uint8_t* p = bytes.data() + static_cast<std::ptrdiff_t>(y) * stride() +
                    static_cast<std::ptrdiff_t>(x) * bytes_per_pixel(format);
  if (format == PixelFormat::gray) {
    p[0] = clamp8((77 * r + 150 * g + 29 * b + 128) >> 8);
    return;
  }
  const Order o = order_of(format);
  p[o.r] = clamp8(r);
  p[o.g] = clamp8(g);
  p[o.b] = clamp8(b);
  if (o.x >= 0) p[o.x] = 0xA5;
}

int Canvas::luma_at(int x, int y) const {
  const std::uint8_t* p = bytes.data() + static_cast<std::ptrdiff_t>(y) * stride() +
                          static_cast<std::ptrdiff_t>(x) * bytes_per_pixel(format);
  const Order o = order_of(format);
  return (77 * p[o.r] + 150 * p[o.g] + 29 * p[o.b] + 128) >> 8;
}

const char* background_name(Background b) {
  switch (b) {
    case Background::flat_grey: return "flat_grey";
    case Background::noise: return "noise";
    case Background::gradient: return "gradient";
    case Background::blocks: return "blocks";
    case Background::checker: return "checker";
  }
  return "?";
}

Canvas make_background(int w, int h, PixelFormat f, Background kind, std::uint32_t seed) {
  Canvas c(w, h, f);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  switch (kind) {
    case Background::flat_grey:
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) c.set_rgb(x, y, 128, 128, 128);
      break;
    case Background::noise:
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) c.set_rgb(x, y, byte(rng), byte(rng), byte(rng));
      break;
    case Background::gradient: {
      const int phase = byte(rng);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          c.set_rgb(x, y, (x * 255) / std::max(1, w - 1), (y * 255) / std::max(1, h - 1),
                    (phase + x + y) % 256);
      break;
    }
    case Background::blocks: {
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) c.set_rgb(x, y, 40, 90, 160);
      std::uniform_int_distribution<int> px(0, w - 1), py(0, h - 1), side(3, 40);
      const int count = std::max(8, w * h / 400);
      for (int i = 0; i < count; ++i) {
        const int x0 = px(rng), y0 = py(rng), bw = side(rng), bh = side(rng);
        const int r = (byte(rng) & 1) * 255, g = (byte(rng) & 1) * 255, b = (byte(rng) & 1) * 255;
        for (int y = y0; y < std::min(h, y0 + bh); ++y)
          for (int x = x0; x < std::min(w, x0 + bw); ++x) c.set_rgb(x, y, r, g, b);
      }
      break;
    }
    case Background::checker:
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int v = ((x + y) & 1) * 255;
          c.set_rgb(x, y, v, v, v);
        }
      break;
  }
  return c;
}

void paint_layout(Canvas& c, const WindowRect& window, const MarkerLayout& marker) {
  for (int i = 0; i < marker.count; ++i) {
    const MarkerRect& r = marker.rects[i];
    const int v = r.white ? 255 : 0;
    const int top = window.y + window.height - (r.y + r.h);  // GL y up -> image y down
    for (int y = top; y < top + r.h; ++y)
      for (int x = window.x + r.x; x < window.x + r.x + r.w; ++x) c.set_rgb(x, y, v, v, v);
  }
}

void add_noise(Canvas& c, int amplitude, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delta(-amplitude, amplitude);
  const Order o = order_of(c.format);
  const int bpp = bytes_per_pixel(c.format);
  for (std::size_t i = 0; i < c.bytes.size(); ++i) {
    const int channel = static_cast<int>(i % static_cast<std::size_t>(bpp));
    if (channel == o.x) continue;
    c.bytes[i] = clamp8(c.bytes[i] + delta(rng));
  }
}

Canvas jpeg_round_trip(const Canvas& c, int quality, int flags) {
  const Canvas rgb = c.format == PixelFormat::rgb ? c : convert(c, PixelFormat::rgb);
  std::unique_ptr<void, int (*)(tjhandle)> enc(tjInitCompress(), tjDestroy);
  std::unique_ptr<void, int (*)(tjhandle)> dec(tjInitDecompress(), tjDestroy);
  if (!enc || !dec) throw std::runtime_error("turbojpeg: cannot create handles");
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  if (tjCompress2(enc.get(), rgb.bytes.data(), rgb.width, rgb.stride(), rgb.height, TJPF_RGB,
                  &jpeg, &size, TJSAMP_420, quality, flags) != 0) {
    throw std::runtime_error(std::string("tjCompress2: ") + tjGetErrorStr2(enc.get()));
  }
  std::unique_ptr<unsigned char, void (*)(unsigned char*)> owned(jpeg, tjFree);
  Canvas out(c.width, c.height, PixelFormat::rgb);
  if (tjDecompress2(dec.get(), jpeg, size, out.bytes.data(), out.width, out.stride(), out.height,
                    TJPF_RGB, flags) != 0) {
    throw std::runtime_error(std::string("tjDecompress2: ") + tjGetErrorStr2(dec.get()));
  }
  return out;
}

Canvas convert(const Canvas& c, PixelFormat to) {
  Canvas out(c.width, c.height, to);
  const Order o = order_of(c.format);
  const int bpp = bytes_per_pixel(c.format);
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      const std::uint8_t* p = c.bytes.data() + static_cast<std::ptrdiff_t>(y) * c.stride() +
                              static_cast<std::ptrdiff_t>(x) * bpp;
      out.set_rgb(x, y, p[o.r], p[o.g], p[o.b]);
    }
  return out;
}

}  // namespace pictor::tag::testing
