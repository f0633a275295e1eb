// Training-side pieces of the policy's pointer-target head (internal to pictor::ic, includes
// torch): the event statistics behind aiming, and the calibration of the driver's confidence rule.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <utility>
#include <vector>

#include "ic/manifest.h"
#include "ic/networks.h"
#include "ic/pointer_target.h"

namespace pictor::ic {

// One recording's pointer events, frame by frame (TrainingFrame::pointer_event): the event type
// (-1 none, vocabulary index = a button press, vocabulary size = a move) and where it happened,
// normalised 0..1 of the window.
struct PointerTrack {
  std::vector<int> event;
  std::vector<std::pair<float, float>> at;
};

// The label of frame i's event on those features (label_target with the manifest's radius and
// window aspect); -1 when the frame has no pointer event.
int event_label(const PointerTrack& track, std::size_t i, std::span<const float> features, const ModelManifest& m);

// Aim offsets and P(event | target class) over frames [0, until[q]) of each recording, labelled on
// `features` (the ground-truth labels: where the teacher really aimed).
TargetStats target_statistics(const std::vector<PointerTrack>& tracks,
                              const std::vector<std::vector<std::vector<float>>>& features,
                              const std::vector<std::size_t>& until, const ModelManifest& m);

// Sets m.target_threshold from the policy run over whole sequences of `features` (the detector's
// output: what the driver sees), on the events of frames [from[q], end) (all frames when no
// recording holds any out): the posterior (choose_target) above which the share of events aimed at
// a box equals the share whose label on those features is a box; above every posterior (never
// aims) when no event was labelled with a box. Returns the metrics for the manifest.
nlohmann::json calibrate_target(PolicyNet& policy, const std::vector<PointerTrack>& tracks,
                                const std::vector<std::vector<std::vector<float>>>& features,
                                const std::vector<std::size_t>& from, ModelManifest& m);

}  // namespace pictor::ic
