// How a trained policy does on the recordings (internal to pictor::ic_torch, includes torch): its
// held-key accuracy against the majority baseline, the calibration of its decisions
// (calibration.h) and of its pointer-target rule (pointer_target.h), measured on the detector's output.
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "ic/manifest.h"
#include "ic/target_training.h"
#include "ic/torch/networks.h"
#include "ic/training_sequence.h"

namespace pictor::ic {

// Per-key held accuracy of a policy run over whole sequences (state carried from frame 0),
// measured on the held-out frames, beside always answering each key's majority state.
struct PolicyScore {
  double accuracy = std::nan(""), baseline = std::nan(""), motion_mae_px = std::nan("");
  std::size_t frames = 0;
};
PolicyScore score_policy(PolicyNet& pol, const std::vector<Sequence>& seqs,
                         const std::vector<std::vector<std::vector<float>>>& features,
                         const std::vector<float>& majority, const ModelManifest& m);

// Sets m.hold_thresholds and m.onset_scales from the policy run on the detector's output (what
// the driver sees) over whole sequences, measured on the held-out frames (all frames when none
// are held out): per key the threshold that gives the recorded share of held frames, and the
// factors that make the expected number of presses and moves equal the recorded numbers.
nlohmann::json calibrate_policy(PolicyNet& pol, const std::vector<Sequence>& seqs,
                                const std::vector<std::vector<std::vector<float>>>& features, ModelManifest& m);

// Sets m.target_threshold from the policy run over whole sequences of `features` (the detector's
// output: what the driver sees), on the events of frames [from[q], end) (all frames when no
// recording holds any out): the posterior (choose_target) above which the share of events aimed at
// a box equals the share whose label on those features is a box; above every posterior (never
// aims) when no event was labelled with a box. Returns the metrics for the manifest.
nlohmann::json calibrate_target(PolicyNet& policy, const std::vector<PointerTrack>& tracks,
                                const std::vector<std::vector<std::vector<float>>>& features,
                                const std::vector<std::size_t>& from, ModelManifest& m);

}  // namespace pictor::ic
