// Cost of `pictor analyze` on a long session: reading a 100k-frame frames.csv (about 28 minutes
// at 60 FPS), summarising it, and both together. The file is generated once, shaped like the
// interposer's output (two contexts, GPU times, tags, occasional hitches).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "analysis/load.h"
#include "analysis/summary.h"

namespace {

constexpr int kFrames = 100'000;

const std::string& frames_csv() {
  static const std::string path = [] {
    const auto p = std::filesystem::temp_directory_path() /
                   ("pictor-analysis-bench-" + std::to_string(::getpid()) + ".csv");
    std::ofstream out(p);
    out << "# pictor frames schema 1\nframe,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n";
    std::mt19937_64 rng(42);
    std::normal_distribution<double> jitter(0.0, 0.4);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int64_t t = 1'000'000'000'000;
    for (int i = 0; i < kFrames; ++i) {
      double ms = 16.667 + jitter(rng);
      if (unit(rng) < 0.002) ms *= 3.0;  // a hitch every ~500 frames
      if (i > 0) t += static_cast<int64_t>(ms * 1e6);
      char line[160];
      std::snprintf(line, sizeof line, "%d,0x5581a0,%lld,%s,%.3f,%.3f,%.3f,%.3f,%s\n", i,
                    static_cast<long long>(t), i == 0 ? "" : std::to_string(ms).c_str(),
                    2.0 + unit(rng), 0.1 + unit(rng) * 0.05, 4.0 + unit(rng), 0.3,
                    i % 6 == 0 ? std::to_string(10'000 + i).c_str() : "");
      out << line;
      if (i % 100 == 0) out << i / 100 << ",0x5581ff," << t + 1000 << ",,0.5,0.05,,,\n";
    }
    return p.string();
  }();
  return path;
}

void BM_LoadFrames(benchmark::State& state) {
  const std::string& path = frames_csv();
  for (auto _ : state) {
    auto series = pictor::analysis::load_frames(path);
    benchmark::DoNotOptimize(series.frame_ms.data());
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}
BENCHMARK(BM_LoadFrames)->Unit(benchmark::kMillisecond);

void BM_SummarizeFrames(benchmark::State& state) {
  const auto series = pictor::analysis::load_frames(frames_csv());
  for (auto _ : state) {
    auto summary = pictor::analysis::summarize_frames(series);
    benchmark::DoNotOptimize(summary);
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}
BENCHMARK(BM_SummarizeFrames)->Unit(benchmark::kMillisecond);

void BM_LoadAndSummarize(benchmark::State& state) {
  const std::string& path = frames_csv();
  for (auto _ : state) {
    auto summary = pictor::analysis::summarize_frames(pictor::analysis::load_frames(path));
    benchmark::DoNotOptimize(summary);
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}
BENCHMARK(BM_LoadAndSummarize)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  std::filesystem::remove(frames_csv(), ec);
  return 0;
}
