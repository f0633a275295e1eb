// MODEL/manifest.json: what a trained intelligent-client model is (input size, classes,
// vocabulary, feature layout, network shapes) and how it was made (data hash, seed, losses, metrics).
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "ic/features.h"

namespace pictor::ic {

// 2: the policy also predicts press onsets and pointer moves, with calibration (hold
// thresholds, onset scales, the recordings' frame interval).
// 3: the policy also has a pointer-target head (a categorical over the feature slots and "no
// object", pointer_target.h) with aim offsets, per-class event shares and a confidence threshold.
inline constexpr int kModelSchema = 3;

// The networks' sizes; everything needed to rebuild the modules before loading their weights.
struct NetworkShape {
  int input_width = 128, input_height = 72;  // detector input (multiple of 8: three stride-2 convs)
  // Output channels of the detector's four 3x3 convolutions (the first three stride 2).
  std::vector<int> detector_channels{16, 32, 64, 64};
  int policy_hidden = 64;  // LSTM hidden size (one layer)
  int grid_width() const { return input_width / 8; }
  int grid_height() const { return input_height / 8; }
};

struct ModelManifest {
  NetworkShape shape;
  FeatureLayout features;  // classes = classes.size()
  std::vector<std::string> classes;
  std::vector<std::string> vocabulary;  // key/button names, as parse_input_code reads them
  // Pointer motion is learnt as (dx / window width, dy / window height) / motion_scale, with
  // motion_scale the RMS of those over the training frames on which the pointer moved. 0: the
  // recordings had no pointer motion, and the driver sends none.
  double motion_scale = 0;
  // The policy's outputs per frame: held logits (vocabulary), press-onset logits (vocabulary),
  // one pointer-move logit, dx, dy, then the pointer-target logits (target_entries(): one per
  // feature slot, class-major, then "no object"; a softmax). See policy_outputs().
  // Calibration measured on the recordings (trainer.cpp): per key the held-probability
  // threshold that reproduces the recorded share of held frames; per key and for the move the
  // factor that makes the predicted onset probabilities add up to the recorded count.
  std::vector<double> hold_thresholds;  // vocabulary.size(): presses and releases follow it (act=held)
  // Per key the release threshold for a driver that presses on sampled onsets (act=onsets): the
  // driver then holds the key on the recorded share of frames, in expectation.
  std::vector<double> release_thresholds;  // vocabulary.size()
  std::vector<double> onset_scales;     // vocabulary.size() + 1 (last: pointer move)
  // Per key the onset scale for re-presses of a key held by its hold threshold (act=hybrid).
  std::vector<double> repress_scales;   // vocabulary.size()
  double frame_interval_ms = 0;         // median gap between recorded frames: the LSTM's time step
  int policy_outputs() const {
    return 2 * static_cast<int>(vocabulary.size()) + 3 + features.classes * features.per_class + 1;
  }
  // Pointer target (pointer_target.h). An event was labelled with the box containing it, else the
  // nearest box centre within target_radius (window-width units), else "no object".
  double target_radius = 0.05;
  // Per class: the mean offset of the recorded events from the target box's centre, in box
  // widths/heights (the teacher clicks a unit at y0 + 0.7 h: oy = 0.2). The driver aims there.
  std::vector<std::array<double, 2>> aim_offsets;  // classes.size()
  // [classes + 1][vocabulary + 1]: P(event type | target class) over the training events (event
  // types: a press of each vocabulary entry, then the pointer move; the last row: "no object"),
  // add-one smoothed. The driver reweights the head's probabilities by it for the event it makes.
  std::vector<std::vector<double>> event_given_target;
  // The driver aims at the chosen box when its posterior is >= this (calibrated so that the
  // share of held-out events aimed at a box equals the share whose label is a box); otherwise
  // presses go where the pointer is and moves use dx, dy. > 1: never aims.
  double target_threshold = 2.0;
  // What a pointer position means in the recorded game (target_training.h fit_aim): "pointer" —
  // the pointer is where the player points (a click lands on a unit); "crosshair" — the view
  // turns by pointer motion and the player aims with the window centre (first person), so a move
  // toward a box is aim_gain x its offset from the centre (window fractions per window fraction)
  // and a press fires at the centre. Models from before this field are "pointer".
  std::string aim_frame = "pointer";
  double aim_gain = 0;
  // Crosshair: the share of recorded presses made with a box under the window centre. At 0.5 or
  // more the driver holds a drawn press until a detected box is under the crosshair (for up to
  // 500 ms, ic_driver.cpp kFireWaitMs), as the player did: it fired at something, not into the air.
  double press_on_box = 0;
  // Crosshair: how long the player let pass between one turn toward a box and the next (the
  // 10th percentile of the recorded gaps, ms: a person watches where a turn lands before the
  // next). The driver's settle option defaults to it; 0: unknown (turns are sampled).
  double aim_interval_ms = 0;
  int window_width = 0, window_height = 0;  // of the recordings
  // Width / height of the window (1 when unknown): converts vertical distances to width units.
  double aspect() const { return window_height > 0 ? static_cast<double>(window_width) / window_height : 1.0; }
  // Inference: a cell is an object when objectness x class probability >= confidence; boxes of
  // one class overlapping by IoU > nms_iou keep only the most confident.
  double confidence = 0.3;
  double nms_iou = 0.5;
  // Provenance and quality, written by training and kept as they are on load (data hash, seed,
  // steps, final losses, metrics, parameter counts, versions, the teacher's input mix, the
  // verdict).
  nlohmann::json info = nlohmann::json::object();
  // The verdict's `weak` and `reasons` (model_quality.h), read on load from info["verdict"];
  // nullopt for a model trained before verdicts existed.
  std::optional<bool> weak;
  std::vector<std::string> weak_reasons;
};

nlohmann::json manifest_json(const ModelManifest& m);
// Throws UsageError "<path>: <cause>" for a wrong schema, a missing or mistyped field, or shapes
// that cannot be built.
ModelManifest parse_manifest(const nlohmann::json& j, const std::string& path);

}  // namespace pictor::ic
