// Cost of the ic driver's stages per frame, one thread: downscaling a 1280x720 BGRX window to the
// detector's input (the model's input_size: 128x72 by default), the detector (forward + decode +
// NMS), and one LSTM policy step. The model
// is the default shape with random weights (cost does not depend on the weights, except decode
// work per detection) unless PICTOR_IC_MODEL names a trained model directory.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>

#include "ic/frame_image.h"
#include "ic/torch/model.h"
#include "ic/torch/networks.h"

namespace {

using namespace pictor::ic;

std::string model_dir() {
  if (const char* m = std::getenv("PICTOR_IC_MODEL")) return m;
  static const std::string dir = [] {
    const std::string d = (std::filesystem::temp_directory_path() / ("pictor-ic-bench-" + std::to_string(getpid()))).string();
    torch::manual_seed(1);
    ModelManifest m;
    m.classes = {"player", "car", "obstacle"};
    m.vocabulary = {"Up", "Left", "Right", "Down"};
    m.features = FeatureLayout{3, 4};
    m.window_width = 1280;
    m.window_height = 720;
    m.motion_scale = 0.01;
    m.hold_thresholds.assign(m.vocabulary.size(), 0.5);
    m.release_thresholds.assign(m.vocabulary.size(), 0.5);
    m.repress_scales.assign(m.vocabulary.size(), 1.0);
    m.onset_scales.assign(m.vocabulary.size() + 1, 1.0);
    m.frame_interval_ms = 20;
    m.aim_offsets.assign(m.classes.size(), {0.0, 0.0});
    m.event_given_target.assign(m.classes.size() + 1, std::vector<double>(m.vocabulary.size() + 1, 0.2));
    DetectorNet det(m.shape, 3);
    PolicyNet pol(m.features.size(), m.shape.policy_hidden, m.policy_outputs());
    save_model_dir(d, m, det, pol);
    return d;
  }();
  return dir;
}

Model& model() {
  static Model m = Model::load(model_dir());
  return m;
}

std::vector<std::uint8_t> window_pixels(int w, int h) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  std::mt19937 rng(1);
  for (auto& p : px) p = static_cast<std::uint8_t>(rng() & 0xff);
  return px;
}

std::vector<std::uint8_t> input_buffer() {
  const NetworkShape& s = model().manifest().shape;
  return std::vector<std::uint8_t>(3 * static_cast<std::size_t>(s.input_width) * static_cast<std::size_t>(s.input_height));
}

void BM_Downscale720p(benchmark::State& state) {
  const auto px = window_pixels(1280, 720);
  const pictor::tag::ImageView view{px.data(), 1280, 720, 1280 * 4, pictor::tag::PixelFormat::bgrx};
  const NetworkShape& s = model().manifest().shape;
  std::vector<std::uint8_t> out = input_buffer();
  for (auto _ : state) {
    downscale_planar(view, s.input_width, s.input_height, out.data());
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_Downscale720p)->Unit(benchmark::kMillisecond);

void BM_Detect(benchmark::State& state) {
  torch::set_num_threads(1);
  Model& m = model();
  const auto px = window_pixels(1280, 720);
  const pictor::tag::ImageView view{px.data(), 1280, 720, 1280 * 4, pictor::tag::PixelFormat::bgrx};
  const NetworkShape& s = m.manifest().shape;
  std::vector<std::uint8_t> in = input_buffer();
  downscale_planar(view, s.input_width, s.input_height, in.data());
  for (auto _ : state) benchmark::DoNotOptimize(m.detect(in.data()));
}
BENCHMARK(BM_Detect)->Unit(benchmark::kMillisecond);

void BM_PolicyStep(benchmark::State& state) {
  torch::set_num_threads(1);
  Model& m = model();
  std::vector<float> f(static_cast<std::size_t>(m.manifest().features.size()), 0.0f);
  f[0] = 1, f[1] = 0.5f, f[2] = 0.5f;
  for (auto _ : state) benchmark::DoNotOptimize(m.policy_step(f));
}
BENCHMARK(BM_PolicyStep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
