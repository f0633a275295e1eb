// The two networks as libtorch modules (internal to pictor::ic_torch, includes torch). Detector: a
// small YOLO-style CNN; policy: one LSTM layer and a linear head.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <tuple>

#include "ic/manifest.h"

namespace pictor::ic {

// Input [B, 3, H, W] bytes-as-float (0..255); output [B, 5 + classes, H/8, W/8] (detections.h).
// Four 3x3 convolutions with ReLU (stride 2, 2, 2, 1), then a 1x1 convolution per grid cell.
// No batch norm: single-image inference equals training-time behaviour, nothing to switch.
struct DetectorNetImpl : torch::nn::Module {
  DetectorNetImpl(const NetworkShape& shape, int classes);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Conv2d c1{nullptr}, c2{nullptr}, c3{nullptr}, c4{nullptr}, head{nullptr};
};
TORCH_MODULE(DetectorNet);

using LstmState = std::tuple<torch::Tensor, torch::Tensor>;

// Input [B, T, features]; output [B, T, 2 x vocabulary + 3]: per key/button a held logit, per
// key/button a press-onset logit, a pointer-move logit, then the normalised pointer motion
// (dx, dy) (manifest.h: policy_outputs, motion_scale).
struct PolicyNetImpl : torch::nn::Module {
  PolicyNetImpl(int features, int hidden, int outputs);
  std::tuple<torch::Tensor, LstmState> forward(torch::Tensor x, c10::optional<LstmState> state = c10::nullopt);
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(PolicyNet);

std::int64_t parameter_count(torch::nn::Module& m);

// Writes MODEL/detector.pt, MODEL/policy.pt (torch::save parameter archives) and manifest.json
// (last, so a directory with a manifest is complete). Throws RunError when a file cannot be written.
void save_model_dir(const std::string& dir, const ModelManifest& manifest, DetectorNet& detector, PolicyNet& policy);

// Builds both modules from the manifest's shapes and loads their parameters, checking every
// tensor's shape; throws UsageError naming the file for anything missing, garbage or mismatched.
struct LoadedNetworks {
  ModelManifest manifest;
  DetectorNet detector{nullptr};
  PolicyNet policy{nullptr};
};
LoadedNetworks load_model_dir(const std::string& dir);

}  // namespace pictor::ic
