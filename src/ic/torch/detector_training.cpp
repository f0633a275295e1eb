#include "ic/torch/detector_training.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ic/model_quality.h"
#include "ic/torch/tensors.h"

namespace pictor::ic {

DetectorTargets detector_targets(const std::vector<const std::vector<Detection>*>& truth, const NetworkShape& shape) {
  const int gw = shape.grid_width(), gh = shape.grid_height();
  const auto b = static_cast<std::int64_t>(truth.size());
  DetectorTargets t{torch::zeros({b, gh, gw}), torch::zeros({b, 4, gh, gw}), torch::zeros({b, gh, gw}, torch::kLong),
                    torch::zeros({b, gh, gw})};
  auto mask = t.mask.accessor<float, 3>();
  auto box = t.box.accessor<float, 4>();
  auto cls = t.cls.accessor<std::int64_t, 3>();
  auto ignore = t.ignore.accessor<float, 3>();
  std::vector<float> area(static_cast<std::size_t>(gw * gh));
  const auto min_w = static_cast<float>(kMinVisiblePx / shape.input_width);
  const auto min_h = static_cast<float>(kMinVisiblePx / shape.input_height);
  for (std::int64_t i = 0; i < b; ++i) {
    std::fill(area.begin(), area.end(), -1.0f);
    for (const Detection& d : *truth[static_cast<std::size_t>(i)]) {
      const int gx = std::clamp(static_cast<int>(d.cx * static_cast<float>(gw)), 0, gw - 1);
      const int gy = std::clamp(static_cast<int>(d.cy * static_cast<float>(gh)), 0, gh - 1);
      if (d.w < min_w || d.h < min_h) {
        // Too small to see at the input: neither an object nor background to learn from.
        if (mask[i][gy][gx] == 0.0f) ignore[i][gy][gx] = 1.0f;
        continue;
      }
      ignore[i][gy][gx] = 0.0f;
      float& a = area[static_cast<std::size_t>(gy * gw + gx)];
      if (d.w * d.h <= a) continue;
      a = d.w * d.h;
      mask[i][gy][gx] = 1.0f;
      box[i][0][gy][gx] = std::clamp(d.cx * static_cast<float>(gw) - static_cast<float>(gx), 0.0f, 1.0f);
      box[i][1][gy][gx] = std::clamp(d.cy * static_cast<float>(gh) - static_cast<float>(gy), 0.0f, 1.0f);
      box[i][2][gy][gx] = std::sqrt(d.w);
      box[i][3][gy][gx] = std::sqrt(d.h);
      cls[i][gy][gx] = d.cls;
    }
  }
  return t;
}

DetectorLoss detector_loss(const torch::Tensor& pred, const DetectorTargets& t) {
  namespace F = torch::nn::functional;
  const torch::Tensor obj = pred.select(1, 0);
  const torch::Tensor bce = F::binary_cross_entropy_with_logits(obj, t.mask, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone));
  const torch::Tensor npos = t.mask.sum().clamp_min(1.0);
  const torch::Tensor neg = (1 - t.mask) * (1 - t.ignore);
  const torch::Tensor nneg = neg.sum().clamp_min(1.0);
  const torch::Tensor l_obj = (bce * t.mask).sum() / npos + (bce * neg).sum() / nneg;
  const torch::Tensor box = torch::sigmoid(pred.slice(1, 1, 5));
  const torch::Tensor l_box = 5.0 * ((box - t.box).pow(2) * t.mask.unsqueeze(1)).sum() / npos;
  const torch::Tensor ce = F::cross_entropy(pred.slice(1, 5), t.cls, F::CrossEntropyFuncOptions().reduction(torch::kNone));
  const torch::Tensor l_cls = (ce * t.mask).sum() / npos;
  return {l_obj + l_box + l_cls, l_obj.item<double>(), l_box.item<double>(), l_cls.item<double>()};
}

DetectorRun train_detector(const TrainingSet& set, const TrainOptions& o, std::mt19937_64& rng,
                           const std::function<double()>& elapsed_s) {
  const ModelManifest& m = set.manifest;
  const std::vector<Sequence>& seqs = set.sequences;
  const std::vector<Frame>& pool = set.detector_pool;
  const auto t0 = std::chrono::steady_clock::now();
  DetectorRun run;
  run.net = DetectorNet(m.shape, static_cast<int>(m.classes.size()));
  DetectorNet& det = run.net;
  torch::optim::Adam det_opt(det->parameters(), torch::optim::AdamOptions(2e-3));
  std::uniform_int_distribution<std::size_t> pick_det(0, pool.size() - 1);
  std::bernoulli_distribution coin(0.5);
  for (int step = 1; step <= o.detector_steps; ++step) {
    // Cosine decay from 2e-3 to 1e-4: the late steps refine the boxes instead of jumping around.
    const double progress_share = static_cast<double>(step - 1) / std::max(1, o.detector_steps - 1);
    static_cast<torch::optim::AdamOptions&>(det_opt.param_groups()[0].options())
        .lr(1e-4 + 0.5 * (2e-3 - 1e-4) * (1.0 + std::cos(3.14159265358979323846 * progress_share)));
    std::vector<const std::vector<std::uint8_t>*> imgs;
    std::vector<std::vector<Detection>> flipped;
    flipped.reserve(static_cast<std::size_t>(o.batch));
    std::vector<const std::vector<Detection>*> truth;
    std::vector<bool> flip;
    for (int b = 0; b < o.batch; ++b) {
      const Frame& f = pool[pick_det(rng)];
      imgs.push_back(&seqs[f.seq].images[f.index]);
      // Half the frames mirrored: the games look the same either way round, and the detector
      // sees twice the layouts the few recorded seconds show.
      flip.push_back(coin(rng));
      if (flip.back()) {
        flipped.push_back(mirrored(*seqs[f.seq].truth[f.index]));
        truth.push_back(&flipped.back());
      } else {
        truth.push_back(&*seqs[f.seq].truth[f.index]);
      }
    }
    det_opt.zero_grad();
    const DetectorLoss loss =
        detector_loss(det->forward(image_batch(imgs, m.shape, flip)), detector_targets(truth, m.shape));
    loss.total.backward();
    det_opt.step();
    run.losses.push_back(loss.total.item<double>());
    if ((step % 10 == 0 || step == o.detector_steps) && o.progress)
      o.progress(fmt::format("train: detector step {}/{} loss {:.4f} (objectness {:.4f} box {:.4f} class {:.4f}) {:.0f} s",
                             step, o.detector_steps, run.losses.back(), loss.obj, loss.box, loss.cls, elapsed_s()));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  det->eval();
  return run;
}

}  // namespace pictor::ic
