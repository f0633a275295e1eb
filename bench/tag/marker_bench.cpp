// Cost of the tag marker per frame: decode at the client (1280x720 and 1920x1080 BGRX, marker
// present, absent as texture, absent as a flat corner that reads fully; warm and cold cache) and
// layout at the interposer. Figures go to docs/performance.md, "Marker decode".
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "tag/marker_decode.h"
#include "tag/marker_layout.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PICTOR_BENCH_CAN_FLUSH 1
#endif

namespace {

using namespace pictor::tag;

enum class Content { marker, texture, flat_black };

// A BGRX window image: a colour gradient with light noise, optionally the marker at bottom-left.
std::vector<std::uint8_t> make_frame(int w, int h, Content content, const MarkerPayload& p) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
  std::mt19937 rng(1);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      std::uint8_t* q = px.data() + (static_cast<std::size_t>(y) * w + x) * 4;
      const int n = static_cast<int>(rng() % 64);
      q[0] = static_cast<std::uint8_t>((x * 255 / w + n) / 2 + 40);
      q[1] = static_cast<std::uint8_t>((y * 255 / h + n) / 2 + 40);
      q[2] = static_cast<std::uint8_t>(n * 3);
      q[3] = 0;
      if (content == Content::flat_black && x < 128 && y >= h - 64) q[0] = q[1] = q[2] = 0;
    }
  }
  if (content == Content::marker) {
    const MarkerLayout m = layout(p, w, h, Corner::bottom_left);
    for (int i = 0; i < m.count; ++i) {
      const MarkerRect& r = m.rects[i];
      const std::uint8_t v = r.white ? 255 : 0;
      for (int y = h - r.y - r.h; y < h - r.y; ++y)
        for (int x = r.x; x < r.x + r.w; ++x) {
          std::uint8_t* q = px.data() + (static_cast<std::size_t>(y) * w + x) * 4;
          q[0] = q[1] = q[2] = v;
        }
    }
  }
  return px;
}

void BM_Decode(benchmark::State& state, Content content) {
  const int w = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(1));
  const MarkerPayload p{0x5A3, 0x7E};
  const std::vector<std::uint8_t> frame = make_frame(w, h, content, p);
  std::int64_t found = 0;
  for (auto _ : state) {
    const auto got = decode(frame.data(), w, h, w * 4, PixelFormat::bgrx, Corner::bottom_left);
    found += got.has_value();
    benchmark::DoNotOptimize(got);
  }
  if (content == Content::marker && found != static_cast<std::int64_t>(state.iterations())) {
    state.SkipWithError("marker not decoded");
  }
  if (content != Content::marker && found != 0) state.SkipWithError("false positive");
}

#ifdef PICTOR_BENCH_CAN_FLUSH
// The client usually decodes a frame it has just received, but the marker's rows may well have
// left the cache: flush them before every read and time the read alone.
void BM_DecodeCold(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(1));
  const std::vector<std::uint8_t> frame = make_frame(w, h, Content::marker, MarkerPayload{1, 2});
  for (auto _ : state) {
    for (int y = h - kMarkerHeight; y < h; ++y) {
      const std::uint8_t* row = frame.data() + static_cast<std::size_t>(y) * w * 4;
      for (int x = 0; x < kMarkerWidth * 4; x += 64) _mm_clflush(row + x);
    }
    _mm_mfence();
    const auto t0 = std::chrono::steady_clock::now();
    const auto got = decode(frame.data(), w, h, w * 4, PixelFormat::bgrx, Corner::bottom_left);
    benchmark::DoNotOptimize(got);
    const auto t1 = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
}
BENCHMARK(BM_DecodeCold)->Args({1280, 720})->Args({1920, 1080})->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
#endif

// What the interposer spends per frame to plan the marker's clears (the GL calls are extra).
void BM_Layout(benchmark::State& state) {
  std::uint32_t frame = 0;
  std::int64_t clears = 0;
  for (auto _ : state) {
    const MarkerLayout m = layout(MarkerPayload{frame >> 3 & kTagMask, frame & kFrameMask}, 1920, 1080);
    clears += m.count;
    benchmark::DoNotOptimize(m);
    ++frame;
  }
  state.counters["clears_per_frame"] =
      benchmark::Counter(static_cast<double>(clears) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_Layout);

}  // namespace

BENCHMARK_CAPTURE(BM_Decode, present, Content::marker)
    ->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Decode, absent_texture, Content::texture)
    ->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Decode, absent_flat_black, Content::flat_black)
    ->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
