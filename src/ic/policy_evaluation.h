// How a trained policy does on the recordings (internal to pictor::ic, includes torch): its
// held-key accuracy against the majority baseline, and the calibration of its decisions
// (calibration.h) measured on the detector's output.
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "ic/manifest.h"
#include "ic/networks.h"
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

}  // namespace pictor::ic
