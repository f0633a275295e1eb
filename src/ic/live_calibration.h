// Live calibration of the `ic:MODEL` driver (live=on, the default): per key, the hold threshold
// and the re-press rate are kept, on the frames the IC itself plays, at what its teacher did —
// the share of frames the key was held and the presses per second, both from the model's
// manifest (the whole recording). The thresholds calibrated offline on held-out frames do not
// survive the IC's own play: the situations it drives into are not the teacher's, and ten fresh
// racing pipelines gave ICs that held `Left` on 84 % of the frames against the teacher's 41 %,
// or never pressed `Up` (held on 98 %) because no live frame reached its 0.97 threshold
// (docs/performance.md, "Intelligent client, every time"). The policy still decides *when*: a
// key goes down on the frames whose held probability is among the highest of the recent ones,
// and re-presses are drawn from its onset probabilities. Pure, no libtorch.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pictor::ic {

struct LiveKeyTarget {
  double held_share = -1;    // the teacher's share of frames the key was down, 0..1; < 0: unknown
  double presses_per_s = -1;  // the teacher's presses of the key per second; < 0: unknown
  bool known() const { return held_share >= 0 && presses_per_s >= 0; }
};

struct LiveParams {
  std::size_t window = 600;  // held probabilities remembered per key (10 s at 60 frames a second)
  std::size_t warmup = 30;   // frames before the window's quantiles replace the offline threshold
  // Presses ahead of the teacher's count widen a hysteresis band around the held-share quantile
  // (press at the share − band, release at the share + band) by this much per press, up to
  // max_band: a key whose probability hovers at its threshold stops flickering.
  double band_per_press = 0.02;
  double max_band = 0.25;
  // The re-press draws' factor: exp(gain × (the teacher's presses by now − the IC's)), at most
  // max_factor: behind the teacher, more re-presses; ahead, fewer.
  double repress_gain = 0.35;
  double max_factor = 8.0;
  // The press cap: a key this many presses ahead of the teacher's count by now is pressed or
  // released only once its state has lasted `dwell` times the teacher's mean hold (held share /
  // presses per second) or mean gap ((1 - share) / presses per second), and is not re-pressed:
  // the band alone let a probability that hovers at its quantile press two to three times the
  // teacher's rate (docs/performance.md, "Intelligent client, every time"). While capped a key
  // presses at most at the teacher's rate / dwell; both dwells scaled alike keep the share (a
  // cap that only kept the key up lowered it by a third in the tests).
  double max_ahead = 2.0;
  double dwell = 0.75;
};

// The threshold t such that round(fraction × n) of `values` are >= t: the k-th largest value
// (threshold_for_fraction's rule, calibration.h), found with nth_element in `scratch` (resized).
// Above every value for k = 0; 0.5 for no values.
double top_fraction_threshold(const std::vector<float>& values, double fraction, std::vector<float>& scratch);

// One key under live calibration.
class LiveKey {
 public:
  LiveKey(LiveKeyTarget target, double offline_threshold, LiveParams params = {});

  // This frame's held probability `p` is remembered; whether the key should be down, given that
  // it is `down` now, `elapsed_s` into the IC's play and `presses` made of it so far. Unknown
  // targets, and the first `warmup` frames, use the offline threshold; a key the teacher never
  // held is never wanted, one it held on every frame is wanted from min(offline, 0.5) up.
  bool want(float p, bool down, double elapsed_s, std::uint64_t presses);
  // The factor on the key's re-press onset probability now (1 when the target is unknown).
  double repress_factor(double elapsed_s, std::uint64_t presses) const;
  // After the frame's acts: whether the key is down (for the measured held share).
  void observe(bool down);

  bool live() const { return target_.known(); }
  // target_held_share, held_share (frames observed down / observed), target_presses_per_minute,
  // hold_threshold and release_threshold (the last ones used), band, repress_factor, frames,
  // held_back (frames the press cap kept the key in its state against the threshold); null
  // where unknown.
  nlohmann::json report(double elapsed_s, std::uint64_t presses) const;

 private:
  double surplus(double elapsed_s, std::uint64_t presses) const;

  LiveKeyTarget target_;
  double offline_;
  LiveParams params_;
  std::vector<float> ring_;
  std::size_t next_ = 0;
  std::vector<float> scratch_;
  double hold_ = -1, release_ = -1, band_ = 0;
  std::uint64_t frames_ = 0, frames_down_ = 0, held_back_ = 0;
  double now_ = 0, changed_at_ = 0;  // the last want()'s time; when the observed state last changed
  bool last_down_ = false;
};

}  // namespace pictor::ic
