#include "ic/detector_training.h"

#include <algorithm>
#include <cmath>

namespace pictor::ic {

std::vector<Detection> mirrored(std::vector<Detection> objects) {
  for (Detection& d : objects) d.cx = 1.0f - d.cx;
  return objects;
}

DetectorTargets detector_targets(const std::vector<const std::vector<Detection>*>& truth, const NetworkShape& shape) {
  const int gw = shape.grid_width(), gh = shape.grid_height();
  const auto b = static_cast<std::int64_t>(truth.size());
  DetectorTargets t{torch::zeros({b, gh, gw}), torch::zeros({b, 4, gh, gw}), torch::zeros({b, gh, gw}, torch::kLong)};
  auto mask = t.mask.accessor<float, 3>();
  auto box = t.box.accessor<float, 4>();
  auto cls = t.cls.accessor<std::int64_t, 3>();
  std::vector<float> area(static_cast<std::size_t>(gw * gh));
  for (std::int64_t i = 0; i < b; ++i) {
    std::fill(area.begin(), area.end(), -1.0f);
    for (const Detection& d : *truth[static_cast<std::size_t>(i)]) {
      const int gx = std::clamp(static_cast<int>(d.cx * static_cast<float>(gw)), 0, gw - 1);
      const int gy = std::clamp(static_cast<int>(d.cy * static_cast<float>(gh)), 0, gh - 1);
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
  const torch::Tensor nneg = (1 - t.mask).sum().clamp_min(1.0);
  const torch::Tensor l_obj = (bce * t.mask).sum() / npos + (bce * (1 - t.mask)).sum() / nneg;
  const torch::Tensor box = torch::sigmoid(pred.slice(1, 1, 5));
  const torch::Tensor l_box = 5.0 * ((box - t.box).pow(2) * t.mask.unsqueeze(1)).sum() / npos;
  const torch::Tensor ce = F::cross_entropy(pred.slice(1, 5), t.cls, F::CrossEntropyFuncOptions().reduction(torch::kNone));
  const torch::Tensor l_cls = (ce * t.mask).sum() / npos;
  return {l_obj + l_box + l_cls, l_obj.item<double>(), l_box.item<double>(), l_cls.item<double>()};
}

}  // namespace pictor::ic
