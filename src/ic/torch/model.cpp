#include "ic/torch/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "ic/detections.h"
#include "ic/torch/networks.h"

namespace pictor::ic {

struct Model::Impl {
  LoadedNetworks nets;
  c10::optional<LstmState> state;
};

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::load(const std::string& dir) {
  // Inference shares the client's core: one thread, and no OpenMP pool spinning between frames.
  torch::set_num_threads(1);
  auto impl = std::make_unique<Impl>();
  impl->nets = load_model_dir(dir);
  return Model(std::move(impl));
}

const ModelManifest& Model::manifest() const { return impl_->nets.manifest; }

std::vector<Detection> Model::detect(const std::uint8_t* planar) {
  const ModelManifest& m = impl_->nets.manifest;
  torch::InferenceMode guard;
  const torch::Tensor x = torch::from_blob(const_cast<std::uint8_t*>(planar),
                                           {1, 3, m.shape.input_height, m.shape.input_width}, torch::kUInt8)
                              .to(torch::kFloat32);
  const torch::Tensor y = impl_->nets.detector->forward(x).contiguous();
  const GridOutput grid{y.data_ptr<float>(), m.shape.grid_width(), m.shape.grid_height(),
                        static_cast<int>(m.classes.size())};
  return decode_grid(grid, m.confidence, m.nms_iou);
}

PolicyOutput Model::policy_step(std::span<const float> features) {
  const ModelManifest& m = impl_->nets.manifest;
  if (static_cast<int>(features.size()) != m.features.size())
    throw RunError(fmt::format("ic policy: {} features given, the model takes {}", features.size(), m.features.size()));
  torch::InferenceMode guard;
  const torch::Tensor x = torch::from_blob(const_cast<float*>(features.data()),
                                           {1, 1, static_cast<std::int64_t>(features.size())}, torch::kFloat32);
  auto [y, state] = impl_->nets.policy->forward(x, impl_->state);
  impl_->state = state;
  const torch::Tensor out = y.reshape({-1}).contiguous();
  const float* p = out.data_ptr<float>();
  PolicyOutput r;
  const std::size_t v = m.vocabulary.size();
  r.held_probability.resize(v);
  r.onset_probability.resize(v);
  auto sigmoid = [](float logit) { return 1.0f / (1.0f + std::exp(-logit)); };
  for (std::size_t k = 0; k < v; ++k) {
    r.held_probability[k] = sigmoid(p[k]);
    r.onset_probability[k] = sigmoid(p[v + k]);
  }
  r.move_probability = sigmoid(p[2 * v]);
  const auto scale = static_cast<float>(m.motion_scale);
  r.dx = p[2 * v + 1] * scale;
  r.dy = p[2 * v + 2] * scale;
  // Softmax over the target logits, shifted by the largest so exp() cannot overflow.
  const auto first = static_cast<std::size_t>(2 * v + 3);
  const auto entries = static_cast<std::size_t>(m.policy_outputs()) - first;
  r.target_probability.resize(entries);
  float top = -std::numeric_limits<float>::infinity();
  for (std::size_t e = 0; e < entries; ++e) top = std::max(top, p[first + e]);
  float sum = 0;
  for (std::size_t e = 0; e < entries; ++e) sum += r.target_probability[e] = std::exp(p[first + e] - top);
  for (float& q : r.target_probability) q /= sum;
  return r;
}

void Model::reset_policy() { impl_->state.reset(); }

}  // namespace pictor::ic
