// Training the LSTM policy (internal to pictor::ic_torch, includes torch): the phase that fits it
// on windows of the recordings' per-frame features and actions (torch/trainer.cpp runs the phases).
#pragma once
#include <functional>
#include <random>
#include <vector>

#include "ic/torch/networks.h"
#include "ic/training_set.h"

namespace pictor::ic {

// Phase "train policy": o.policy_steps Adam steps (lr 3e-3) on o.batch windows of up to
// o.sequence consecutive trained frames drawn with `rng`; half the windows see the detector's
// features, half the perturbed labels (perturbed_features). Loss: binary cross-entropy of held,
// onset and move, squared error of the motion on frames that moved, and the pointer target's
// cross-entropy on frames with a pointer event. Progress lines name `elapsed_s()`, the seconds
// since training began. The network is returned in eval mode.
struct PolicyRun {
  PolicyNet net{nullptr};
  std::vector<double> losses, target_losses;  // per step: the whole loss, the target head's part
  std::int64_t sequence = 0;                  // the window length used
  double seconds = 0;
};
PolicyRun train_policy(const TrainingSet& set, const PolicyData& data, const TrainOptions& o, std::mt19937_64& rng,
                       const std::function<double()>& elapsed_s);

}  // namespace pictor::ic
