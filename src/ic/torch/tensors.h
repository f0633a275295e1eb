// Training data as tensors (internal to pictor::ic_torch, includes torch): image batches for the
// detector, a sequence's per-frame features for the policy, and the detector run over a sequence.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "ic/detections.h"
#include "ic/manifest.h"
#include "ic/torch/networks.h"
#include "ic/training_sequence.h"

namespace pictor::ic {

// A uint8 planar batch as float [B, 3, H, W]; `flip` (optional, one per image): mirror that
// image left to right (augmentation).
torch::Tensor image_batch(const std::vector<const std::vector<std::uint8_t>*>& images, const NetworkShape& shape,
                          const std::vector<bool>& flip = {});

// One sequence's features, frame by frame, as the policy's input [1, frames, size].
torch::Tensor feature_sequence(const std::vector<std::vector<float>>& frames, std::int64_t size);

// The detector's objects on every frame of `s`, decoded at `confidence`.
std::vector<std::vector<Detection>> detect_all(DetectorNet& det, const Sequence& s, const ModelManifest& m,
                                               double confidence);

}  // namespace pictor::ic
