#include "ic/pointer_target.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pictor::ic {

int target_entries(const FeatureLayout& layout) { return layout.classes * layout.per_class + 1; }
int no_target(const FeatureLayout& layout) { return layout.classes * layout.per_class; }

std::optional<SlotBox> slot_box(std::span<const float> features, const FeatureLayout& layout, int slot) {
  if (slot < 0 || slot >= no_target(layout)) return std::nullopt;
  const auto at = static_cast<std::size_t>(slot) * FeatureLayout::kSlotFields;
  if (at + FeatureLayout::kSlotFields > features.size() || features[at] < 0.5f) return std::nullopt;
  return SlotBox{slot / layout.per_class, features[at + 1], features[at + 2], features[at + 3], features[at + 4]};
}

int label_target(std::span<const float> features, const FeatureLayout& layout, double x, double y, double aspect,
                 double radius) {
  const double ya = aspect > 0 ? 1.0 / aspect : 1.0;  // a normalised dy in window-width units
  int inside = -1, near = -1;
  double inside_area = std::numeric_limits<double>::infinity(), inside_d = 0;
  double near_d = radius;
  for (int s = 0; s < no_target(layout); ++s) {
    const auto b = slot_box(features, layout, s);
    if (!b) continue;
    const double dx = x - static_cast<double>(b->cx), dy = y - static_cast<double>(b->cy);
    const double d = std::hypot(dx, dy * ya);
    if (std::abs(dx) <= 0.5 * static_cast<double>(b->w) && std::abs(dy) <= 0.5 * static_cast<double>(b->h)) {
      const double area = static_cast<double>(b->w) * static_cast<double>(b->h);
      if (area < inside_area || (area == inside_area && d < inside_d)) {
        inside = s;
        inside_area = area;
        inside_d = d;
      }
    } else if (d <= near_d) {
      near = s;
      near_d = d;
    }
  }
  if (inside >= 0) return inside;
  return near >= 0 ? near : no_target(layout);
}

std::pair<double, double> aim_point(const SlotBox& box, double ox, double oy) {
  const double cx = box.cx, cy = box.cy, hw = 0.5 * box.w, hh = 0.5 * box.h;
  const double x = std::clamp(cx + ox * box.w, cx - hw, cx + hw);
  const double y = std::clamp(cy + oy * box.h, cy - hh, cy + hh);
  return {std::clamp(x, 0.0, 1.0), std::clamp(y, 0.0, 1.0)};
}

TargetChoice choose_target(std::span<const float> probabilities, std::span<const float> features,
                           const FeatureLayout& layout, const std::vector<std::vector<double>>& event_given_target,
                           int event) {
  auto likelihood = [&](int cls_row) {
    const auto r = static_cast<std::size_t>(cls_row);
    if (r >= event_given_target.size() || event < 0 || static_cast<std::size_t>(event) >= event_given_target[r].size())
      return 1.0;  // nothing learnt about this event type: the head's probabilities as they are
    return event_given_target[r][static_cast<std::size_t>(event)];
  };
  const int none = no_target(layout);
  if (probabilities.size() < static_cast<std::size_t>(none + 1)) return {};
  double total = static_cast<double>(probabilities[static_cast<std::size_t>(none)]) * likelihood(layout.classes);
  TargetChoice best;
  double best_w = -1;
  for (int s = 0; s < none; ++s) {
    const auto b = slot_box(features, layout, s);
    if (!b) continue;
    const double w = static_cast<double>(probabilities[static_cast<std::size_t>(s)]) * likelihood(b->cls);
    total += w;
    if (w > best_w) {
      best_w = w;
      best.slot = s;
    }
  }
  if (best.slot >= 0) best.posterior = total > 0 ? best_w / total : 0.0;
  return best;
}

TargetStats::TargetStats(int classes, int events)
    : classes_(classes),
      events_(events),
      counts_(static_cast<std::size_t>(classes + 1), std::vector<double>(static_cast<std::size_t>(events), 0.0)),
      offset_sum_(static_cast<std::size_t>(classes), {0.0, 0.0}),
      offset_n_(static_cast<std::size_t>(classes), 0.0) {}

void TargetStats::add(int cls, int event, double ox, double oy) {
  if (event < 0 || event >= events_ || cls >= classes_) return;
  const auto row = static_cast<std::size_t>(cls < 0 ? classes_ : cls);
  counts_[row][static_cast<std::size_t>(event)] += 1;
  if (cls < 0) return;
  offset_sum_[row][0] += ox;
  offset_sum_[row][1] += oy;
  offset_n_[row] += 1;
}

std::vector<std::array<double, 2>> TargetStats::aim_offsets() const {
  std::vector<std::array<double, 2>> out(static_cast<std::size_t>(classes_), {0.0, 0.0});
  for (std::size_t c = 0; c < out.size(); ++c)
    if (offset_n_[c] > 0) out[c] = {offset_sum_[c][0] / offset_n_[c], offset_sum_[c][1] / offset_n_[c]};
  return out;
}

std::vector<std::vector<double>> TargetStats::event_given_target() const {
  std::vector<std::vector<double>> out = counts_;
  for (auto& row : out) {
    double sum = 0;
    for (const double c : row) sum += c;
    for (double& c : row) c = (c + 1.0) / (sum + static_cast<double>(events_));
  }
  return out;
}

}  // namespace pictor::ic
