#include "ic/frame_image.h"

#include <dlfcn.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "core/error.h"

namespace pictor::ic {

namespace {

// Source ranges [lo, hi) for each output coordinate: integer bounds of the covered area, at
// least one pixel wide so upscaling repeats pixels.
std::vector<std::pair<int, int>> spans(int in, int out) {
  std::vector<std::pair<int, int>> s(static_cast<std::size_t>(out));
  for (int i = 0; i < out; ++i) {
    int lo = static_cast<int>(static_cast<std::int64_t>(i) * in / out);
    int hi = static_cast<int>(static_cast<std::int64_t>(i + 1) * in / out);
    if (hi <= lo) hi = lo + 1;
    if (hi > in) hi = in, lo = in - 1;
    s[static_cast<std::size_t>(i)] = {lo, hi};
  }
  return s;
}

// The step between the points read along a range of `len` pixels: 1 (every pixel) without a
// limit, else the smallest that reads at most `max_samples` of them.
int sample_step(int len, int max_samples) {
  return max_samples > 0 ? std::max(1, (len + max_samples - 1) / max_samples) : 1;
}

// libturbojpeg, loaded by hand. libvncclient (linked into `pictor` for the remote client)
// exports its own, incompatible tjInitCompress/tjCompress2/... without symbol versions, and the
// dynamic linker lets those satisfy our versioned references: a compress call then crashed
// inside libvncclient's libjpeg. Resolving from libturbojpeg's own handle (RTLD_DEEPBIND so its
// internal calls stay inside it) gets the real functions whatever else is loaded.
struct TurboJpeg {
  decltype(&::tjInitCompress) init_compress = nullptr;
  decltype(&::tjInitDecompress) init_decompress = nullptr;
  decltype(&::tjCompress2) compress = nullptr;
  decltype(&::tjDecompressHeader3) decompress_header = nullptr;
  decltype(&::tjDecompress2) decompress = nullptr;
  decltype(&::tjDestroy) destroy = nullptr;
  decltype(&::tjFree) free = nullptr;
  decltype(&::tjGetErrorStr2) error = nullptr;
  std::string failure;
};

template <class F>
void resolve(void* lib, F& f, const char* name, const char* version, std::string& failure) {
  void* p = dlvsym(lib, name, version);
  if (!p) p = dlsym(lib, name);
  if (!p && failure.empty()) failure = std::string("libturbojpeg: no symbol ") + name;
  f = reinterpret_cast<F>(p);
}

// ASan refuses RTLD_DEEPBIND (it would bind libturbojpeg's malloc past the sanitizer's): the
// sanitizer build loads it without, and its tests show whether libvncclient's symbols then intrude.
#ifdef PICTOR_SANITIZER_RUNTIME
constexpr int kDeepBind = 0;
#else
constexpr int kDeepBind = RTLD_DEEPBIND;
#endif

const TurboJpeg& turbojpeg() {
  static const TurboJpeg tj = [] {
    TurboJpeg t;
    void* lib = dlopen("libturbojpeg.so.0", RTLD_NOW | RTLD_LOCAL | kDeepBind);
    if (!lib) {
      t.failure = std::string("cannot load libturbojpeg.so.0: ") + dlerror();
      return t;
    }
    resolve(lib, t.init_compress, "tjInitCompress", "TURBOJPEG_1.0", t.failure);
    resolve(lib, t.init_decompress, "tjInitDecompress", "TURBOJPEG_1.0", t.failure);
    resolve(lib, t.compress, "tjCompress2", "TURBOJPEG_1.2", t.failure);
    resolve(lib, t.decompress_header, "tjDecompressHeader3", "TURBOJPEG_1.4", t.failure);
    resolve(lib, t.decompress, "tjDecompress2", "TURBOJPEG_1.2", t.failure);
    resolve(lib, t.destroy, "tjDestroy", "TURBOJPEG_1.0", t.failure);
    resolve(lib, t.free, "tjFree", "TURBOJPEG_1.2", t.failure);
    resolve(lib, t.error, "tjGetErrorStr2", "TURBOJPEG_2.0", t.failure);
    return t;
  }();
  if (!tj.failure.empty()) throw RunError(tj.failure);
  return tj;
}

struct TjDeleter {
  void operator()(void* h) const { turbojpeg().destroy(h); }
};
using TjHandle = std::unique_ptr<void, TjDeleter>;

}  // namespace

Rgb pixel_rgb(const tag::ImageView& image, int x, int y) {
  const tag::PixelLayout c = tag::pixel_layout(image.format);
  const std::uint8_t* p = image.pixels + static_cast<std::ptrdiff_t>(y) * image.stride + x * tag::bytes_per_pixel(image.format);
  return {p[c.r], p[c.g], p[c.b]};
}

void downscale(const tag::ImageView& image, Size out, PixelOrder order, int max_samples_per_axis, std::uint8_t* dst) {
  if (!image.pixels || image.width <= 0 || image.height <= 0 || out.width <= 0 || out.height <= 0)
    throw UsageError("downscale: empty image or size");
  const tag::PixelLayout c = tag::pixel_layout(image.format);
  const int bpp = tag::bytes_per_pixel(image.format);
  const auto xs = spans(image.width, out.width), ys = spans(image.height, out.height);
  const auto w = static_cast<std::size_t>(out.width);
  const std::size_t plane = w * static_cast<std::size_t>(out.height);
  std::vector<int> xstep(w);
  std::vector<std::uint32_t> xcount(w);
  for (std::size_t ox = 0; ox < w; ++ox) {
    const auto [x0, x1] = xs[ox];
    xstep[ox] = sample_step(x1 - x0, max_samples_per_axis);
    xcount[ox] = static_cast<std::uint32_t>((x1 - x0 + xstep[ox] - 1) / xstep[ox]);
  }
  // Row by row through the source (each row read once, left to right), summing into one
  // accumulator per output pixel of the output row.
  std::vector<std::uint32_t> acc(w * 3);
  for (int oy = 0; oy < out.height; ++oy) {
    std::fill(acc.begin(), acc.end(), 0u);
    const auto [y0, y1] = ys[static_cast<std::size_t>(oy)];
    const int ystep = sample_step(y1 - y0, max_samples_per_axis);
    std::uint32_t rows = 0;
    for (int y = y0; y < y1; y += ystep, ++rows) {
      const std::uint8_t* row = image.pixels + static_cast<std::ptrdiff_t>(y) * image.stride;
      for (std::size_t ox = 0; ox < w; ++ox) {
        const auto [x0, x1] = xs[ox];
        std::uint32_t* a = &acc[ox * 3];
        for (int x = x0; x < x1; x += xstep[ox]) {
          const std::uint8_t* p = row + x * bpp;
          a[0] += p[c.r];
          a[1] += p[c.g];
          a[2] += p[c.b];
        }
      }
    }
    const std::size_t line = static_cast<std::size_t>(oy) * w;
    for (std::size_t ox = 0; ox < w; ++ox) {
      const std::uint32_t n = rows * xcount[ox];
      const std::uint32_t* a = &acc[ox * 3];
      for (std::size_t k = 0; k < 3; ++k) {
        const auto v = static_cast<std::uint8_t>((a[k] + n / 2) / n);
        if (order == PixelOrder::packed) dst[(line + ox) * 3 + k] = v;
        else dst[k * plane + line + ox] = v;
      }
    }
  }
}

RgbImage downscale_rgb(const tag::ImageView& image, Size out) {
  RgbImage r{out.width, out.height, {}};
  r.rgb.resize(3 * static_cast<std::size_t>(std::max(0, out.width)) * static_cast<std::size_t>(std::max(0, out.height)));
  downscale(image, out, PixelOrder::packed, 0, r.rgb.data());
  return r;
}

void downscale_planar(const tag::ImageView& image, int out_w, int out_h, std::uint8_t* out) {
  downscale(image, {out_w, out_h}, PixelOrder::planar, kMaxSamplesPerAxis, out);
}

std::vector<std::uint8_t> encode_jpeg(const RgbImage& image, int quality) {
  const TurboJpeg& lib = turbojpeg();
  TjHandle tj(lib.init_compress());
  if (!tj) throw RunError("libturbojpeg: cannot start a compressor");
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  if (lib.compress(tj.get(), image.rgb.data(), image.width, image.width * 3, image.height, TJPF_RGB, &buf, &size,
                  TJSAMP_420, quality, TJFLAG_FASTDCT) != 0) {
    const std::string why = lib.error(tj.get());
    if (buf) lib.free(buf);
    throw RunError("libturbojpeg: " + why);
  }
  std::vector<std::uint8_t> out(buf, buf + size);
  lib.free(buf);
  return out;
}

RgbImage decode_jpeg(const std::vector<std::uint8_t>& jpeg, const std::string& name) {
  const TurboJpeg& lib = turbojpeg();
  TjHandle tj(lib.init_decompress());
  if (!tj) throw RunError("libturbojpeg: cannot start a decompressor");
  int w = 0, h = 0, sub = 0, cs = 0;
  if (jpeg.empty() || lib.decompress_header(tj.get(), jpeg.data(), jpeg.size(), &w, &h, &sub, &cs) != 0)
    throw UsageError(name + ": not a JPEG image");
  RgbImage r{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3)};
  if (lib.decompress(tj.get(), jpeg.data(), jpeg.size(), r.rgb.data(), w, w * 3, h, TJPF_RGB, 0) != 0)
    throw UsageError(name + ": cannot decode JPEG: " + lib.error(tj.get()));
  return r;
}

RgbImage read_jpeg_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": not found");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  return decode_jpeg(bytes, path);
}

void write_file_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw RunError("cannot write " + path);
}

GrayThumb gray_thumbnail(const tag::ImageView& image, Size size) {
  const RgbImage small = downscale_rgb(image, size);
  GrayThumb g{size.width, size.height, std::vector<std::uint8_t>(static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height))};
  for (std::size_t i = 0; i < g.luma.size(); ++i) {
    const double y = 0.299 * small.rgb[i * 3] + 0.587 * small.rgb[i * 3 + 1] + 0.114 * small.rgb[i * 3 + 2];
    g.luma[i] = static_cast<std::uint8_t>(std::lround(y));
  }
  return g;
}

double mean_abs_difference(const GrayThumb& a, const GrayThumb& b) {
  if (a.width != b.width || a.height != b.height || a.luma.size() != b.luma.size() || a.luma.empty())
    throw UsageError("frame comparison: thumbnails differ in size");
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < a.luma.size(); ++i) sum += static_cast<std::uint64_t>(std::abs(int(a.luma[i]) - int(b.luma[i])));
  return static_cast<double>(sum) / static_cast<double>(a.luma.size());
}

}  // namespace pictor::ic
