#include "ic/target_training.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace pictor::ic {

int event_label(const PointerTrack& track, std::size_t i, std::span<const float> features, const ModelManifest& m) {
  if (i >= track.event.size() || track.event[i] < 0) return -1;
  return label_target(features, m.features, static_cast<double>(track.at[i].first),
                      static_cast<double>(track.at[i].second), m.aspect(), m.target_radius);
}

nlohmann::json AimFit::to_json() const {
  return {{"frame", frame},
          {"gain", gain},
          {"move_events", move_events},
          {"move_events_on_a_box", on_a_box},
          {"move_events_fit_by_crosshair", crosshair_fits},
          {"press_events", press_events},
          {"press_events_at_a_box_under_the_centre", press_on_a_box},
          {"turn_interval_ms", interval_ms > 0 ? nlohmann::json(interval_ms) : nlohmann::json(nullptr)}};
}

AimFit fit_aim(const std::vector<PointerTrack>& tracks, const std::vector<std::vector<std::vector<float>>>& features,
               const std::vector<std::size_t>& until, const ModelManifest& m, const std::string& requested) {
  if (requested != "auto" && requested != "pointer" && requested != "crosshair")
    throw UsageError("train: --aim must be auto, pointer or crosshair, not '" + requested + "'");
  const int move = static_cast<int>(m.vocabulary.size());
  const double aspect = m.aspect();
  const int slots = m.features.classes * m.features.per_class;
  AimFit fit;
  std::vector<double> gains, intervals;
  for (std::size_t q = 0; q < tracks.size(); ++q) {
    const PointerTrack& t = tracks[q];
    std::ptrdiff_t last_turn = -1;  // frame of this track's previous move toward a box
    const std::size_t end = std::min({until[q], features[q].size(), t.event.size(), t.delta.size()});
    for (std::size_t i = 0; i < end; ++i) {
      if (t.event[i] >= 0 && t.event[i] < move) {
        ++fit.press_events;
        if (label_target(features[q][i], m.features, 0.5, 0.5, aspect, m.target_radius) != no_target(m.features))
          ++fit.press_on_a_box;
      }
      if (t.event[i] != move) continue;
      const double dx = t.delta[i].first, dy = t.delta[i].second / aspect;
      if (std::hypot(dx, dy) < 1e-4) continue;
      ++fit.move_events;
      if (event_label(t, i, features[q][i], m) != no_target(m.features)) ++fit.on_a_box;
      double best_cos = 0.9, gain = 0;
      for (int slot = 0; slot < slots; ++slot) {
        const auto box = slot_box(features[q][i], m.features, slot);
        if (!box) continue;
        const double ox = box->cx - 0.5, oy = (box->cy - 0.5) / aspect, norm = std::hypot(ox, oy);
        if (norm < 0.01) continue;
        const double c = (dx * ox + dy * oy) / (std::hypot(dx, dy) * norm);
        if (c >= best_cos) {
          best_cos = c;
          gain = (dx * ox + dy * oy) / (norm * norm);
        }
      }
      if (gain > 0) {
        gains.push_back(gain);
        if (last_turn >= 0) intervals.push_back(static_cast<double>(static_cast<std::ptrdiff_t>(i) - last_turn) * m.frame_interval_ms);
        last_turn = static_cast<std::ptrdiff_t>(i);
      }
    }
  }
  if (intervals.size() >= 10 && m.frame_interval_ms > 0) {
    auto mid = intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2);
    std::nth_element(intervals.begin(), mid, intervals.end());
    fit.interval_ms = *mid;
  }
  if (!gains.empty()) {
    std::vector<double> sorted = gains;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    fit.gain = sorted[sorted.size() / 2];
    for (const double g : gains) fit.crosshair_fits += std::abs(g / fit.gain - 1.0) <= 0.35 ? 1 : 0;
  }
  if (requested == "crosshair") {
    if (gains.empty()) throw UsageError("train: --aim crosshair: no recorded pointer motion turns toward a box, so there is no gain to learn");
    fit.frame = "crosshair";
  } else if (requested == "auto" && fit.crosshair_fits >= 10 && fit.crosshair_fits > fit.on_a_box) {
    fit.frame = "crosshair";
  }
  return fit;
}

void to_crosshair(PointerTrack& track, double gain, int move_event) {
  for (std::size_t i = 0; i < track.event.size(); ++i) {
    if (track.event[i] < 0) continue;
    if (track.event[i] == move_event && i < track.delta.size()) {
      track.at[i] = {static_cast<float>(0.5 + track.delta[i].first / gain),
                     static_cast<float>(0.5 + track.delta[i].second / gain)};
    } else {
      track.at[i] = {0.5f, 0.5f};
    }
  }
}

TargetStats target_statistics(const std::vector<PointerTrack>& tracks,
                              const std::vector<std::vector<std::vector<float>>>& features,
                              const std::vector<std::size_t>& until, const ModelManifest& m) {
  TargetStats stats(m.features.classes, static_cast<int>(m.vocabulary.size()) + 1);
  for (std::size_t q = 0; q < tracks.size(); ++q)
    for (std::size_t i = 0; i < std::min(until[q], features[q].size()); ++i) {
      const int label = event_label(tracks[q], i, features[q][i], m);
      if (label < 0) continue;
      const auto box = slot_box(features[q][i], m.features, label);
      if (!box) {
        stats.add(-1, tracks[q].event[i], 0, 0);
        continue;
      }
      const auto [x, y] = tracks[q].at[i];
      const double ox = box->w > 0 ? static_cast<double>((x - box->cx) / box->w) : 0.0;
      const double oy = box->h > 0 ? static_cast<double>((y - box->cy) / box->h) : 0.0;
      stats.add(box->cls, tracks[q].event[i], ox, oy);
    }
  return stats;
}

}  // namespace pictor::ic
