#include "ic/calibration.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pictor::ic {

double threshold_for_fraction(std::span<const float> probabilities, double fraction) {
  if (probabilities.empty()) return 0.5;
  std::vector<float> p(probabilities.begin(), probabilities.end());
  std::sort(p.begin(), p.end(), std::greater<>());
  const auto n = static_cast<double>(p.size());
  const auto k = static_cast<std::size_t>(std::lround(std::clamp(fraction, 0.0, 1.0) * n));
  // Above every probability: a key never held stays up whatever the network says.
  if (k == 0) return std::nextafter(static_cast<double>(p.front()), 2.0);
  // The k-th largest is the threshold: exactly k probabilities reach it (ties: at least k).
  return static_cast<double>(p[k - 1]);
}

double bounded_threshold(double threshold, double fraction) {
  if (!(fraction > 0)) return kNever;
  if (fraction >= 1) return std::min(threshold, 0.5);
  return threshold;
}

double expected_held_share(std::span<const float> onset, std::span<const float> held, double threshold) {
  const std::size_t n = std::min(onset.size(), held.size());
  if (n == 0) return 0;
  double d = 0, sum = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const double o = std::clamp(static_cast<double>(onset[t]), 0.0, 1.0);
    const double kept = static_cast<double>(held[t]) >= threshold ? d : 0.0;
    d = o + (1 - o) * kept;
    sum += d;
  }
  return sum / static_cast<double>(n);
}

double release_threshold(std::span<const float> onset, std::span<const float> held, double fraction) {
  if (onset.empty() || held.empty()) return 0.5;
  std::vector<double> candidates{0.0};
  for (const float h : held) candidates.push_back(static_cast<double>(h));
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  double best = candidates.front(), best_err = 2;
  for (const double c : candidates) {
    const double err = std::abs(expected_held_share(onset, held, c) - fraction);
    if (err <= best_err) {  // ties: the larger threshold (releases sooner)
      best = c;
      best_err = err;
    }
  }
  return best;
}

double repress_scale(std::span<const float> onset, std::span<const float> held, double threshold, double events) {
  const std::size_t n = std::min(onset.size(), held.size());
  double state_presses = 0, staying = 0;
  bool down = false;
  for (std::size_t t = 0; t < n; ++t) {
    const bool want = static_cast<double>(held[t]) >= threshold;
    if (want && !down) state_presses += 1;
    if (want && down) staying += static_cast<double>(onset[t]);
    down = want;
  }
  const double remaining = events - state_presses;
  if (remaining <= 0) return 0;
  return staying > 0 ? remaining / staying : 1.0;
}

double rate_scale(std::span<const float> probabilities, double events) {
  double sum = 0;
  for (const float v : probabilities) sum += static_cast<double>(v);
  if (!(sum > 0) || !(events > 0)) return 1.0;
  return events / sum;
}

double step_probability(double p, std::int64_t step_ns, std::int64_t frame_ns) {
  p = std::clamp(p, 0.0, 1.0);
  if (p >= 1.0) return 1.0;
  if (frame_ns <= 0 || step_ns <= 0) return p;
  // 1 - (1 - p)^(step / frame): the chance of at least one onset over step/frame frames.
  const double ratio = static_cast<double>(step_ns) / static_cast<double>(frame_ns);
  return std::clamp(1.0 - std::pow(1.0 - p, ratio), 0.0, 1.0);
}

}  // namespace pictor::ic
