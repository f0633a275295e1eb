// Where the pointer goes: the policy's pointer-target head picks one of the feature slots (an
// object on screen) or "no object". Labelling, choosing and aiming, shared by training and driver.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ic/features.h"

namespace pictor::ic {

// The head's entries: one per feature slot (class-major, in FeatureLayout order), then one
// "no object" entry.
int target_entries(const FeatureLayout& layout);
int no_target(const FeatureLayout& layout);  // the index of the "no object" entry

// A pointer event with no box containing it is matched to the nearest box centre within this
// distance, as a fraction of the window width (vertical distances are converted to width units
// with the window's aspect ratio): 64 px on a 1280-pixel-wide window. Small units drawn at a
// distance are a few dozen pixels wide; a click beside one still means that one.
inline constexpr double kTargetRadius = 0.05;

// The box of one feature slot (normalised 0..1 of the frame); nullopt when the slot is empty.
struct SlotBox {
  int cls = 0;
  float cx = 0, cy = 0, w = 0, h = 0;
};
std::optional<SlotBox> slot_box(std::span<const float> features, const FeatureLayout& layout, int slot);

// The target label of a pointer event at (x, y) (normalised 0..1 of the window) on a frame with
// these features: the smallest present box that contains the point (a unit drawn over a larger
// object is the one clicked; ties: the nearer centre), else the present box whose centre is
// nearest within `radius` (distance in window-width units; `aspect` = window width / height),
// else no_target(). Pure.
int label_target(std::span<const float> features, const FeatureLayout& layout, double x, double y, double aspect,
                 double radius = kTargetRadius);

// The point to aim at on a box: its centre plus (ox, oy) box widths/heights (the mean offset
// of the recorded events on that class), kept inside the box and the frame. Normalised 0..1.
std::pair<double, double> aim_point(const SlotBox& box, double ox, double oy);

// Which object an event of type `event` (vocabulary entry k = a press of that button, the
// vocabulary size = a pointer move) goes to: the head's probabilities (target_entries() of them)
// reweighted by how often that event type went to each class in training,
//   posterior(slot) ∝ p(slot) · P(event | class of slot),  posterior(none) ∝ p(none) · P(event | none),
// over the present slots and "no object" (empty slots are never chosen). The slot is the present
// slot with the highest posterior (-1 when no slot is present); `posterior` its normalised value.
// `event_given_target`: [classes + 1][events], the last row for "no object". Pure.
struct TargetChoice {
  int slot = -1;
  double posterior = 0;
};
TargetChoice choose_target(std::span<const float> probabilities, std::span<const float> features,
                           const FeatureLayout& layout, const std::vector<std::vector<double>>& event_given_target,
                           int event);

// Statistics of the training events' targets (on the ground-truth labels): the mean aim offset
// per class, and P(event type | target class) with add-one smoothing, so a class that was never
// the target of some event type still gets a small share, and a class never targeted a uniform one.
class TargetStats {
 public:
  TargetStats(int classes, int events);
  // cls: the target's class, or -1 for "no object"; (ox, oy): the event's offset from the box
  // centre in box units (ignored for -1).
  void add(int cls, int event, double ox, double oy);
  std::vector<std::array<double, 2>> aim_offsets() const;          // per class; 0, 0 when never targeted
  std::vector<std::vector<double>> event_given_target() const;     // [classes + 1][events]
  std::vector<std::vector<double>> counts() const { return counts_; }

 private:
  int classes_, events_;
  std::vector<std::vector<double>> counts_;  // [classes + 1][events]
  std::vector<std::array<double, 2>> offset_sum_;
  std::vector<double> offset_n_;
};

}  // namespace pictor::ic
