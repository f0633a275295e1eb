// Is a trained model good enough to play, and does it play like its teacher? The verdict `pictor
// train` gives a model from its held-out metrics (weak: refused unless --accept-weak), and the
// input mix — inputs per minute and each key's share of presses — of the teacher (from the
// recordings, kept in the manifest) and of the ic driver (its report), side by side. No libtorch.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "ic/training_data.h"

namespace pictor::ic {

// A class that the held-out frames label is "not detected" when its AP@0.5 there, over the boxes
// the detector can see, is under this (docs/intelligent-client.md, "Weak models").
inline constexpr double kApFloor = 0.1;
// The boxes the detector can see: at least this many pixels wide and high at its input. Racing's
// obstacles are 1.6 x 1.4 px on average at the default 128x72 (a fraction of a pixel far ahead);
// the ones the teacher steers around are the near ones, a few pixels and more.
inline constexpr double kMinVisiblePx = 3.0;
// Per image the boxes at least kMinVisiblePx wide and high at an input of `width` x `height`.
std::vector<std::vector<Detection>> visible_boxes(const std::vector<std::vector<Detection>>& images, int width,
                                                  int height);

struct ModelVerdict {
  bool weak = false;
  std::vector<std::string> reasons;  // one per failed rule, in words with the figures
  bool assessed = false;             // false: nothing held out to measure (not weak, not known good)
};

// The rules, on a manifest's `metrics` (trainer.cpp): weak when the policy's held-out key
// accuracy on the detector's output is not above the majority baseline (each key in its more
// common state), or a class with visible boxes on the held-out frames has AP@0.5 under kApFloor
// (or no AP) over them (per_class "visible": {"ap50", "truths"}; without it, over all its boxes).
// Missing or non-numeric figures are not judged. Pure.
ModelVerdict assess_model(const nlohmann::json& metrics);
// Manifest "verdict": {"weak", "reasons", "assessed", "rule"}.
nlohmann::json verdict_json(const ModelVerdict& v);

// How often inputs were sent and which keys were pressed.
struct InputMix {
  double seconds = 0;
  std::uint64_t inputs = 0;            // every input: presses, releases, pointer motion
  std::vector<std::uint64_t> presses;  // per vocabulary entry: key/button presses
};
// {"seconds", "inputs", "inputs_per_minute", "presses": {key: n}, "press_share": {key: 0..1}}
// (per minute and shares null when unknown: no time, no press).
nlohmann::json input_mix_json(const InputMix& mix, const std::vector<std::string>& vocabulary);
// The teacher's mix over whole recordings (every recorded input; presses per key from the
// per-frame press onsets), for the manifest's "teacher".
InputMix recorded_mix(const std::vector<TrainingRecording>& recs, std::size_t vocabulary);

// The driver's fidelity report: its own mix beside the teacher's (`teacher`: the manifest's
// "teacher", any JSON — models trained before it have none: null), the ratio of inputs per
// minute and per key the press share's difference in percentage points (null where either side
// is unknown).
nlohmann::json fidelity_json(const InputMix& ic, const nlohmann::json& teacher, const std::vector<std::string>& vocabulary);

}  // namespace pictor::ic
