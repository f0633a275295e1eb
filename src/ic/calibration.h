// Calibration of the policy's outputs against the recordings: per-key hold thresholds that
// reproduce the recorded held fraction, press-rate scales, and per-step onset probabilities.
#pragma once
#include <cstdint>
#include <span>

namespace pictor::ic {

// The threshold t such that the share of `probabilities` >= t is as close as possible to
// `fraction` (0..1): the recorded share of frames on which the key was held. 0 fraction gives a
// threshold above every probability (never held), 1 gives the smallest one. Returns 0.5 for no
// probabilities. Pure.
double threshold_for_fraction(std::span<const float> probabilities, double fraction);

// A hold (or release) threshold for a key the teacher held on `fraction` of its frames: kNever
// (above every probability) when it never held it, at most 0.5 when it held it on every frame,
// else `threshold` unchanged. Pure.
inline constexpr double kNever = 2.0;
double bounded_threshold(double threshold, double fraction);

// The share of frames a driver that presses on onsets and releases when the held probability
// falls below `threshold` is expected to hold the key: d(0) = onset(0), then per frame
// d(t) = onset(t) + (1 - onset(t)) x d(t-1) x [held(t) >= threshold] — pressed by an onset, or
// still down and not released. `onset` are per-frame onset probabilities (already scaled),
// `held` the held probabilities, frame by frame in order; the spans have the same length. Pure.
double expected_held_share(std::span<const float> onset, std::span<const float> held, double threshold);

// The release threshold for such a driver: among the held probabilities (and 0), the one whose
// expected_held_share is closest to `fraction`, the recorded share of held frames; the largest
// such when several tie. 0.5 for no frames. Pure.
double release_threshold(std::span<const float> onset, std::span<const float> held, double fraction);

// For a driver whose key state follows `threshold` (pressed when held >= threshold, released
// below) and that also re-presses a key already down on sampled onsets (act=hybrid): the factor
// on the onset probabilities of the frames where the key stays down such that state presses +
// expected re-presses = `events`, the recorded presses on the same frames. 0 when the state
// changes alone already make that many presses, 1 when there is nothing to scale. Pure.
double repress_scale(std::span<const float> onset, std::span<const float> held, double threshold, double events);

// How much the predicted onset probabilities must be scaled so that their sum (the expected
// number of presses) equals `events`, the presses actually recorded on the same frames. 1 when
// either side is 0 (nothing to calibrate: the key was never pressed or never predicted).
double rate_scale(std::span<const float> probabilities, double events);

// The probability that an onset happens within one decision step of `step_ns`, when the
// (already scaled) per-frame probability `p` was learnt on frames `frame_ns` apart: the same
// rate per second (hazard), so a driver looking at fewer frames a second than were recorded
// presses as often per second as the recording. Clamped to 0..1.
double step_probability(double p, std::int64_t step_ns, std::int64_t frame_ns);

}  // namespace pictor::ic
