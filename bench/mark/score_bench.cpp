// Scoring cost: fit_regression on one ramp and score_samples (trim + fit + 2500 bootstrap fits)
// for sample counts of a 5 s, 30 s and 120 fps × 30 s run.
#include <benchmark/benchmark.h>

#include <vector>

#include "mark/prng.h"
#include "mark/regression.h"
#include "mark/score.h"

namespace {

using namespace pictor::mark;

// Ramp-like rows: complexity falling from 1600, knee at 900, noisy frame lengths.
std::vector<Sample> ramp_rows(long n) {
  Prng prng(1);
  std::vector<Sample> rows;
  const double L = 1000.0 / 60;
  for (long i = 0; i < n; ++i) {
    const double c = 1600 - static_cast<double>(i % 150) * 9.5;
    const double y = (c <= 900 ? L : L + 0.03 * (c - 900)) + (prng.next() - 0.5) * 2;
    rows.push_back({i % 8 == 0 ? FrameType::Mutation : FrameType::Animation, static_cast<double>(i) * L, c, y});
  }
  return rows;
}

void BM_Regression(benchmark::State& state) {
  std::vector<RegressionPoint> points;
  for (const auto& s : ramp_rows(state.range(0))) points.push_back({s.complexity, s.frame_length});
  for (auto _ : state) benchmark::DoNotOptimize(fit_regression(points, 1000.0 / 60));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Regression)->Arg(150)->Arg(1500);

void BM_ScoreSamples(benchmark::State& state) {
  const auto rows = ramp_rows(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(score_samples(rows, 60));
}
BENCHMARK(BM_ScoreSamples)->Arg(250)->Arg(1500)->Arg(3000)->Unit(benchmark::kMillisecond);

}  // namespace
