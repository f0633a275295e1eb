#include "ic/live_calibration.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ic/calibration.h"

namespace pictor::ic {

double top_fraction_threshold(const std::vector<float>& values, double fraction, std::vector<float>& scratch) {
  if (values.empty()) return 0.5;
  const auto n = values.size();
  const auto k = static_cast<std::size_t>(std::lround(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(n)));
  if (k == 0) return std::nextafter(static_cast<double>(*std::max_element(values.begin(), values.end())), 2.0);
  scratch.assign(values.begin(), values.end());
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(k - 1), scratch.end(), std::greater<>());
  return static_cast<double>(scratch[k - 1]);
}

LiveKey::LiveKey(LiveKeyTarget target, double offline_threshold, LiveParams params)
    : target_(target), offline_(offline_threshold), params_(params) {
  ring_.reserve(params_.window);
}

double LiveKey::surplus(double elapsed_s, std::uint64_t presses) const {
  return static_cast<double>(presses) - target_.presses_per_s * std::max(0.0, elapsed_s);
}

bool LiveKey::want(float p, bool down, double elapsed_s, std::uint64_t presses) {
  if (ring_.size() < params_.window) {
    ring_.push_back(p);
  } else {
    ring_[next_] = p;
    next_ = (next_ + 1) % params_.window;
  }
  const double value = static_cast<double>(p);
  if (!target_.known()) {
    hold_ = release_ = offline_;
    return value >= offline_;
  }
  const double f = target_.held_share;
  // The extremes as offline (calibration.h bounded_threshold): never held, or held from 0.5 up.
  if (!(f > 0)) {
    hold_ = release_ = kNever;
    return false;
  }
  // The press cap (LiveParams): this far ahead of the teacher's count, the key changes state only
  // once the state has lasted `dwell` × the teacher's mean hold (f / rate) or gap ((1 - f) / rate).
  now_ = elapsed_s;
  const bool capped = surplus(elapsed_s, presses) >= params_.max_ahead && target_.presses_per_s > 0;
  const auto capped_want = [&](bool w) {
    if (!capped || w == down) return w;
    const double mean_dwell = (down ? f : 1 - f) / target_.presses_per_s;
    if (elapsed_s - changed_at_ >= params_.dwell * mean_dwell) return w;
    ++held_back_;
    return down;
  };
  if (f >= 1 || ring_.size() < params_.warmup) {
    hold_ = release_ = bounded_threshold(offline_, f);
    return capped_want(value >= hold_);
  }
  const double c = f;
  // Ahead of the teacher's count: a band around that quantile, as wide as the surplus asks and
  // as the share allows (the press quantile stays above half the share, the release quantile at
  // most every frame).
  band_ = std::clamp(params_.band_per_press * surplus(elapsed_s, presses), 0.0,
                     std::min({params_.max_band, c / 2, 1 - c}));
  hold_ = top_fraction_threshold(ring_, c - band_, scratch_);
  release_ = band_ > 0 ? top_fraction_threshold(ring_, c + band_, scratch_) : hold_;
  return capped_want(value >= (down ? release_ : hold_));
}

double LiveKey::repress_factor(double elapsed_s, std::uint64_t presses) const {
  if (!target_.known()) return 1.0;
  const double ahead = surplus(elapsed_s, presses);
  if (ahead >= params_.max_ahead) return 0.0;  // the press cap
  return std::min(params_.max_factor, std::exp(-params_.repress_gain * ahead));
}

void LiveKey::observe(bool down) {
  if (down != last_down_) {
    last_down_ = down;
    changed_at_ = now_;
  }
  ++frames_;
  frames_down_ += down ? 1 : 0;
}

nlohmann::json LiveKey::report(double elapsed_s, std::uint64_t presses) const {
  using nlohmann::json;
  const auto known = [&](bool k, double v) { return k ? json(v) : json(nullptr); };
  const bool live = target_.known();
  return {{"live", live},
          {"target_held_share", known(target_.held_share >= 0, target_.held_share)},
          {"held_share", known(frames_ > 0, static_cast<double>(frames_down_) / static_cast<double>(std::max<std::uint64_t>(1, frames_)))},
          {"target_presses_per_minute", known(target_.presses_per_s >= 0, target_.presses_per_s * 60)},
          {"presses_per_minute", known(elapsed_s > 0, static_cast<double>(presses) / elapsed_s * 60)},
          {"hold_threshold", known(hold_ >= 0, hold_)},
          {"release_threshold", known(release_ >= 0, release_)},
          {"band", live ? json(band_) : json(nullptr)},
          {"repress_factor", repress_factor(elapsed_s, presses)},
          {"frames", frames_},
          {"held_back", live ? json(held_back_) : json(nullptr)}};
}

}  // namespace pictor::ic
