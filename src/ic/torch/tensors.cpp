#include "ic/torch/tensors.h"

#include <algorithm>
#include <cstring>

namespace pictor::ic {

torch::Tensor image_batch(const std::vector<const std::vector<std::uint8_t>*>& images, const NetworkShape& shape,
                          const std::vector<bool>& flip) {
  const auto b = static_cast<std::int64_t>(images.size());
  torch::Tensor x = torch::empty({b, 3, shape.input_height, shape.input_width}, torch::kUInt8);
  const auto bytes = static_cast<std::size_t>(x.numel() / std::max<std::int64_t>(b, 1));
  for (std::int64_t i = 0; i < b; ++i) {
    std::memcpy(x[i].data_ptr<std::uint8_t>(), images[static_cast<std::size_t>(i)]->data(), bytes);
    if (!flip.empty() && flip[static_cast<std::size_t>(i)]) x[i].copy_(x[i].flip({2}));
  }
  return x.to(torch::kFloat32);
}

torch::Tensor feature_sequence(const std::vector<std::vector<float>>& frames, std::int64_t size) {
  torch::Tensor x = torch::empty({1, static_cast<std::int64_t>(frames.size()), size});
  for (std::size_t i = 0; i < frames.size(); ++i)
    std::memcpy(x[0][static_cast<std::int64_t>(i)].data_ptr<float>(), frames[i].data(), frames[i].size() * sizeof(float));
  return x;
}

std::vector<std::vector<Detection>> detect_all(DetectorNet& det, const Sequence& s, const ModelManifest& m,
                                               double confidence) {
  torch::NoGradGuard no_grad;
  std::vector<std::vector<Detection>> out;
  const std::size_t chunk = 64;
  for (std::size_t i = 0; i < s.images.size(); i += chunk) {
    std::vector<const std::vector<std::uint8_t>*> imgs;
    for (std::size_t k = i; k < std::min(s.images.size(), i + chunk); ++k) imgs.push_back(&s.images[k]);
    const torch::Tensor y = det->forward(image_batch(imgs, m.shape)).contiguous();
    for (std::size_t k = 0; k < imgs.size(); ++k) {
      const torch::Tensor yk = y[static_cast<std::int64_t>(k)].contiguous();
      out.push_back(decode_grid(GridOutput{yk.data_ptr<float>(), m.shape.grid_width(), m.shape.grid_height(),
                                           static_cast<int>(m.classes.size())},
                                confidence, m.nms_iou));
    }
  }
  return out;
}

}  // namespace pictor::ic
