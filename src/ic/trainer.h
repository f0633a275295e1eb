// `pictor train`: fits the detector on the recordings' labelled frames and the LSTM policy on
// their per-frame objects and recorded actions (behavioural cloning), then writes MODEL/.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ic/manifest.h"

namespace pictor::ic {

struct TrainOptions {
  std::vector<std::string> recordings;  // REC directories
  std::string out;                      // MODEL directory (created; files replaced)
  int detector_steps = 2000;            // Adam steps of `batch` frames each
  int policy_steps = 1500;              // Adam steps of `batch` sequences of `sequence` frames
  std::uint64_t seed = 1;
  int threads = 1;                      // torch intra-op threads
  NetworkShape shape;
  // The detector's decode threshold, in (0, 1); none: the one with the best F1 on the held-out
  // frames (detections.h best_f1_confidence; 0.3 when none is labelled).
  std::optional<double> confidence = 0.3;
  // Feature slots per class (features.h); 0: the most objects of one class on any labelled
  // training frame, clamped to kMinSlots..kMaxSlots (auto_slots_per_class).
  int per_class = 0;
  int batch = 16;
  int sequence = 32;
  // The last `held_out` fraction of each recording's frames is not trained on; the manifest's
  // metrics are measured there.
  double held_out = 0.2;
  // The pointer's frame of reference (target_training.h fit_aim): auto, pointer or crosshair.
  std::string aim = "auto";
  // Transient status ("detector step 120/800 loss ..."), and lines that stay.
  std::function<void(const std::string&)> progress;
  std::function<void(const std::string&)> note;
};

// The default number of feature slots per class: every object of a class that the labelled
// frames show at once, so the pointer-target head can name any object the teacher clicked (the
// strategy game shows 5 workers and 6 crystals; 4 slots dropped the rightmost crystals, the
// ones the teacher sent workers to). At least kMinSlots, at most kMaxSlots (the policy's input
// grows with it). `counts`: per labelled frame, per class, the number of objects.
inline constexpr int kMinSlots = 4, kMaxSlots = 8;
int auto_slots_per_class(const std::vector<std::vector<int>>& counts);

// Throws UsageError for unusable recordings (named), RunError when MODEL cannot be written.
// Deterministic for a given seed, data and thread count.
ModelManifest train_model(const TrainOptions& options);

}  // namespace pictor::ic
