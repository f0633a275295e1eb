// Recordings as the networks see them in training: one Sequence per recording (frames downscaled
// to the detector's input, labels, behaviour targets, pointer events). The tensors made from them
// are in torch/tensors.h.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ic/features.h"
#include "ic/manifest.h"
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

// The frames of `rec` downscaled to the input size, cut into `blocks` consecutive sequences of
// (nearly) equal length, at most one per kMinBlockFrames frames and at least one; the last
// `held_out` fraction of each is not trained on. Interleaved held-out stretches keep the
// recording's mix of situations and actions: one tail of a 60 s racing recording could fall in
// a stretch with a third of the presses of another (docs/performance.md, "intelligent client,
// every time").
inline constexpr std::size_t kHeldOutBlocks = 4, kMinBlockFrames = 200;
std::vector<Sequence> prepare(const TrainingRecording& rec, const NetworkShape& shape, double held_out,
                              std::size_t blocks = kHeldOutBlocks);

// One frame of one sequence.
struct Frame {
  std::size_t seq, index;
};

}  // namespace pictor::ic
