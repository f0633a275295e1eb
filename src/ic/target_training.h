// Training-side pieces of the policy's pointer-target head that need no network: which frame of
// reference the recorded pointer uses, and the event statistics behind aiming. The calibration of
// the driver's confidence rule on the trained policy is in torch/policy_evaluation.h.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ic/manifest.h"
#include "ic/pointer_target.h"

namespace pictor::ic {

// One recording's pointer events, frame by frame (TrainingFrame::pointer_event): the event type
// (-1 none, vocabulary index = a button press, vocabulary size = a move) and where it happened,
// normalised 0..1 of the window.
struct PointerTrack {
  std::vector<int> event;
  std::vector<std::pair<float, float>> at;
  // The pointer's motion over the frame (end minus start), normalised by the window size; empty
  // for tracks made without it (fit_aim then finds no crosshair motion).
  std::vector<std::pair<float, float>> delta;
};

// Which frame of reference the recorded pointer uses, decided on the move events of frames
// [0, until[q]) against `features` (the ground-truth labels). Distances are in window-width
// units (vertical ones divided by the window's aspect).
//  * pointer: the event's position lands on a box (label_target is a box): `on_a_box` events;
//  * crosshair: the motion d points at a box's offset o from the window centre (cosine >= 0.9,
//    |o| >= 0.01; the best-aligned box), giving a gain d·o/|o|²; `gain` is their median (also
//    when pointer wins: it is reported) and `crosshair_fits` the events within 35 % of it;
//    `interval_ms` the median gap between consecutive such turns (the player's cadence).
// `requested` "auto" picks crosshair when it explains more move events than pointer (and at
// least 10); "pointer" or "crosshair" forces one (crosshair with no aligned move is a UsageError).
// Button presses are counted too: `press_events`, and `press_on_a_box` whose window centre (the
// crosshair) lies on a box (label_target at 0.5, 0.5) — a player who only fires at something.
struct AimFit {
  std::string frame = "pointer";
  double gain = 0;
  std::size_t move_events = 0, on_a_box = 0, crosshair_fits = 0;
  std::size_t press_events = 0, press_on_a_box = 0;
  // The median time between consecutive moves toward a box in a recording (frames apart times
  // the frame interval), ms; 0 with fewer than 10 such gaps.
  double interval_ms = 0;
  double press_on_box_share() const {
    return press_events ? static_cast<double>(press_on_a_box) / static_cast<double>(press_events) : 0.0;
  }
  nlohmann::json to_json() const;
};
AimFit fit_aim(const std::vector<PointerTrack>& tracks, const std::vector<std::vector<std::vector<float>>>& features,
               const std::vector<std::size_t>& until, const ModelManifest& m, const std::string& requested);

// For a crosshair model: each move event's position becomes the screen point the motion turned
// the view to, the centre + delta / gain, and each press's the centre (where it fires), so the
// pointer-target head learns which box the player turned to or fired at.
void to_crosshair(PointerTrack& track, double gain, int move_event);

// The label of frame i's event on those features (label_target with the manifest's radius and
// window aspect); -1 when the frame has no pointer event.
int event_label(const PointerTrack& track, std::size_t i, std::span<const float> features, const ModelManifest& m);

// Aim offsets and P(event | target class) over frames [0, until[q]) of each recording, labelled on
// `features` (the ground-truth labels: where the teacher really aimed).
TargetStats target_statistics(const std::vector<PointerTrack>& tracks,
                              const std::vector<std::vector<std::vector<float>>>& features,
                              const std::vector<std::size_t>& until, const ModelManifest& m);

}  // namespace pictor::ic
