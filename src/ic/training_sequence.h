// Recordings as the networks see them in training (internal to pictor::ic, includes torch):
// one Sequence per recording (frames downscaled to the detector's input, labels, behaviour
// targets, pointer events), image batches for the detector, and the detector run over a sequence.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ic/detections.h"
#include "ic/manifest.h"
#include "ic/networks.h"
#include "ic/target_training.h"
#include "ic/training_data.h"

namespace pictor::ic {

// One recording's frames as the networks see them.
struct Sequence {
  std::vector<std::vector<std::uint8_t>> images;  // planar RGB at the input size
  std::vector<std::optional<std::vector<Detection>>> truth;
  std::vector<std::vector<Detection>> objects;    // truth carried forward over unlabelled frames
  std::vector<std::vector<float>> held;
  std::vector<std::vector<float>> pressed;        // press onsets per key
  std::vector<float> moved;                       // 1: the pointer moved
  std::vector<std::pair<float, float>> motion;    // window fractions
  std::vector<std::int64_t> seen_ns;
  PointerTrack pointer;                           // pointer events, for the pointer-target head
  std::size_t train_end = 0;                      // frames [0, train_end) are trained on
};

// The frames of `rec` downscaled to the input size; the last `held_out` fraction is not trained on.
Sequence prepare(const TrainingRecording& rec, const NetworkShape& shape, double held_out);

// A uint8 planar batch as float [B, 3, H, W]; `flip` (optional, one per image): mirror that
// image left to right (augmentation).
torch::Tensor image_batch(const std::vector<const std::vector<std::uint8_t>*>& images, const NetworkShape& shape,
                          const std::vector<bool>& flip = {});

// One frame of one sequence.
struct Frame {
  std::size_t seq, index;
};

// The detector's objects on every frame of `s`, decoded at `confidence`.
std::vector<std::vector<Detection>> detect_all(DetectorNet& det, const Sequence& s, const ModelManifest& m,
                                               double confidence);

}  // namespace pictor::ic
