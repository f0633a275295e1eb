#include "apps/scenes/racing/racing_track.h"

#include <algorithm>
#include <cmath>

namespace pictor::racing {

using game::Vec3;

namespace {

Vec3 catmull_rom(Vec3 p0, Vec3 p1, Vec3 p2, Vec3 p3, float t) {
  const float t2 = t * t, t3 = t2 * t;
  return 0.5f * ((2.0f * p1) + (p2 - p0) * t + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                 (3.0f * p1 - p0 - 3.0f * p2 + p3) * t3);
}

}  // namespace

Track::Track(game::Rng& rng) {
  // Control points around a ring with random radius and angle jitter: always a simple closed
  // loop (angles stay ordered), different bends for every seed.
  constexpr int kControl = 11;
  std::vector<Vec3> control;
  for (int i = 0; i < kControl; ++i) {
    const float angle = 2 * game::kPi * (static_cast<float>(i) + rng.range(-0.25f, 0.25f)) / kControl;
    const float radius = rng.range(110.0f, 190.0f);
    control.push_back({radius * std::cos(angle), 0, radius * std::sin(angle)});
  }
  // Dense polyline first, then resample evenly by arc length.
  constexpr int kDense = 40;
  std::vector<Vec3> dense;
  for (int i = 0; i < kControl; ++i)
    for (int k = 0; k < kDense; ++k)
      dense.push_back(catmull_rom(control[(i + kControl - 1) % kControl], control[i], control[(i + 1) % kControl],
                                  control[(i + 2) % kControl], static_cast<float>(k) / kDense));
  std::vector<float> cumulative{0};
  for (std::size_t i = 1; i <= dense.size(); ++i)
    cumulative.push_back(cumulative.back() + game::length(dense[i % dense.size()] - dense[i - 1]));
  length_ = cumulative.back();
  std::size_t j = 0;
  for (int i = 0; i < kSamples; ++i) {
    const float s = length_ * static_cast<float>(i) / kSamples;
    while (j + 1 < cumulative.size() && cumulative[j + 1] < s) ++j;
    const float t = (s - cumulative[j]) / std::max(1e-6f, cumulative[j + 1] - cumulative[j]);
    const Vec3 a = dense[j], b = dense[(j + 1) % dense.size()];
    TrackSample sample;
    sample.centre = a + (b - a) * t;
    sample.s = s;
    samples_.push_back(sample);
  }
  for (int i = 0; i < kSamples; ++i) {
    TrackSample& sm = samples_[static_cast<std::size_t>(i)];
    sm.tangent = game::normalize(sample(i + 1).centre - sample(i - 1).centre);
    sm.left = {sm.tangent.z, 0, -sm.tangent.x};
  }
}

const TrackSample& Track::sample(int i) const {
  const int n = static_cast<int>(samples_.size());
  return samples_[static_cast<std::size_t>(((i % n) + n) % n)];
}

int Track::index_at(float s) const {
  float w = std::fmod(s, length_);
  if (w < 0) w += length_;
  return std::min(kSamples - 1, static_cast<int>(w / length_ * kSamples));
}

int Track::nearest(Vec3 p, int hint, int window) const {
  int best = hint;
  float best_d = 1e30f;
  for (int k = -window; k <= window; ++k) {
    const Vec3 d = sample(hint + k).centre - p;
    const float dd = d.x * d.x + d.z * d.z;
    if (dd < best_d) {
      best_d = dd;
      best = hint + k;
    }
  }
  return ((best % kSamples) + kSamples) % kSamples;
}

int Track::nearest(Vec3 p) const { return nearest(p, 0, kSamples / 2); }

float Track::lateral(Vec3 p, int i) const {
  const TrackSample& sm = sample(i);
  return game::dot(p - sm.centre, sm.left);
}

Vec3 Track::point(float s, float lat) const {
  const TrackSample& sm = sample(index_at(s));
  return sm.centre + sm.left * lat;
}

}  // namespace pictor::racing
