// `pictor train`: fits the detector on the recordings' labelled frames and the LSTM policy on
// their per-frame objects and recorded actions (behavioural cloning), then writes MODEL/.
// This header does not include torch: the command line (src/cli/train.cpp) includes it.
#pragma once
#include <string>
#include <utility>

#include "core/error.h"
#include "ic/manifest.h"
#include "ic/training_set.h"

namespace pictor::ic {

// Thrown by train_model for a weak model (model_quality.h assess_model) unless
// TrainOptions::accept_weak: nothing is written to MODEL. `manifest` is what it would have
// held (metrics and the verdict), for the caller's summary.
struct WeakModelError : RunError {
  WeakModelError(const std::string& message, ModelManifest m) : RunError(message), manifest(std::move(m)) {}
  ModelManifest manifest;
};

// Runs the phases in order, each a function with its inputs and outputs:
//   validate (check_train_options) → load (load_training_set) → train detector (train_detector)
//   → evaluate detector (its decode threshold, scores, boxes on every frame) → policy data
//   (policy_data: features, targets, aim frame) → train policy (train_policy) → evaluate and
//   calibrate the policy (policy_evaluation.h) → judge it (assess_model: the manifest's "verdict";
//   a weak model throws WeakModelError unless options.accept_weak) → write MODEL/ (manifest with
//   provenance, metrics, the teacher's input mix and the verdict).
// Throws UsageError for unusable recordings (named), RunError when MODEL cannot be written.
// Deterministic for a given seed, data and thread count.
ModelManifest train_model(const TrainOptions& options);

}  // namespace pictor::ic
