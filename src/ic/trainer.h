// `pictor train`: fits the detector on the recordings' labelled frames and the LSTM policy on
// their per-frame objects and recorded actions (behavioural cloning), then writes MODEL/.
#pragma once
#include <cstdint>
#include <functional>
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
  int per_class = 4;                    // feature slots per class (features.h)
  int batch = 16;
  int sequence = 32;
  // The last `held_out` fraction of each recording's frames is not trained on; the manifest's
  // metrics are measured there.
  double held_out = 0.2;
  // Transient status ("detector step 120/800 loss ..."), and lines that stay.
  std::function<void(const std::string&)> progress;
  std::function<void(const std::string&)> note;
};

// Throws UsageError for unusable recordings (named), RunError when MODEL cannot be written.
// Deterministic for a given seed, data and thread count.
ModelManifest train_model(const TrainOptions& options);

}  // namespace pictor::ic
