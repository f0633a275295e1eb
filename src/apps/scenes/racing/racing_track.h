// The racing game's track: a seeded closed spline through randomly placed control points,
// sampled evenly, with the queries the driving rules need (nearest sample, lateral offset).
#pragma once
#include <vector>

#include "apps/game/math.h"
#include "apps/game/rng.h"

namespace pictor::racing {

struct TrackSample {
  game::Vec3 centre;   // on the ground (y = 0)
  game::Vec3 tangent;  // unit, direction of travel
  game::Vec3 left;     // unit, towards the left edge
  float s = 0;         // arc length from the start line, metres
};

class Track {
 public:
  static constexpr int kSamples = 720;
  static constexpr float kHalfWidth = 7.0f;

  explicit Track(game::Rng& rng);
  const std::vector<TrackSample>& samples() const { return samples_; }
  const TrackSample& sample(int i) const;  // any index, wrapped
  float length() const { return length_; }
  // The sample at arc length s (wrapped), for placing things along the track.
  int index_at(float s) const;
  // Nearest sample to p, searching ±window samples around `hint` (the previous answer).
  int nearest(game::Vec3 p, int hint, int window) const;
  // Nearest sample by a full search (for placement, not per step).
  int nearest(game::Vec3 p) const;
  // Signed distance of p from the centre line at sample i (positive = left).
  float lateral(game::Vec3 p, int i) const;
  game::Vec3 point(float s, float lateral) const;

 private:
  std::vector<TrackSample> samples_;
  float length_ = 0;
};

}  // namespace pictor::racing
