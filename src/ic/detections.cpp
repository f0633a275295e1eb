#include "ic/detections.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pictor::ic {

namespace {

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace

float box_iou(const Detection& a, const Detection& b) {
  const float ix = std::min(a.cx + a.w / 2, b.cx + b.w / 2) - std::max(a.cx - a.w / 2, b.cx - b.w / 2);
  const float iy = std::min(a.cy + a.h / 2, b.cy + b.h / 2) - std::max(a.cy - a.h / 2, b.cy - b.h / 2);
  if (ix <= 0 || iy <= 0) return 0;
  const float inter = ix * iy;
  const float uni = a.w * a.h + b.w * b.h - inter;
  return uni > 0 ? inter / uni : 0;
}

std::vector<Detection> decode_grid(const GridOutput& out, double confidence, double nms_iou) {
  const std::size_t plane = static_cast<std::size_t>(out.grid_w) * static_cast<std::size_t>(out.grid_h);
  auto at = [&](int channel, std::size_t cell) { return out.data[static_cast<std::size_t>(channel) * plane + cell]; };
  std::vector<Detection> found;
  for (int gy = 0; gy < out.grid_h; ++gy) {
    for (int gx = 0; gx < out.grid_w; ++gx) {
      const std::size_t cell = static_cast<std::size_t>(gy * out.grid_w + gx);
      const float obj = sigmoid(at(0, cell));
      if (obj < confidence) continue;  // class probability <= 1: cannot reach the threshold
      // Softmax over the class logits, max-shifted for stability.
      float best = -std::numeric_limits<float>::infinity();
      int best_c = 0;
      for (int c = 0; c < out.classes; ++c)
        if (at(5 + c, cell) > best) best = at(5 + c, cell), best_c = c;
      float sum = 0;
      for (int c = 0; c < out.classes; ++c) sum += std::exp(at(5 + c, cell) - best);
      const float conf = obj / sum;
      if (conf < confidence) continue;
      Detection d;
      d.cls = best_c;
      d.confidence = conf;
      d.cx = (static_cast<float>(gx) + sigmoid(at(1, cell))) / static_cast<float>(out.grid_w);
      d.cy = (static_cast<float>(gy) + sigmoid(at(2, cell))) / static_cast<float>(out.grid_h);
      const float sw = sigmoid(at(3, cell)), sh = sigmoid(at(4, cell));
      d.w = sw * sw;
      d.h = sh * sh;
      found.push_back(d);
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Detection& a, const Detection& b) { return a.confidence > b.confidence; });
  std::vector<Detection> kept;
  for (const Detection& d : found) {
    bool suppressed = false;
    for (const Detection& k : kept)
      if (k.cls == d.cls && box_iou(k, d) > nms_iou) suppressed = true;
    if (!suppressed) kept.push_back(d);
  }
  return kept;
}

DetectionScore score_detections(std::span<const std::vector<Detection>> detected,
                                std::span<const std::vector<Detection>> truth, int classes, double at) {
  DetectionScore s;
  s.images = std::min(detected.size(), truth.size());
  std::size_t true_pos = 0;
  double ap_sum = 0;
  int ap_classes = 0;
  for (int c = 0; c < classes; ++c) {
    // (confidence, true positive) per detection of class c, over all images.
    std::vector<std::pair<float, bool>> ranked;
    std::size_t truths = 0;
    for (std::size_t i = 0; i < s.images; ++i) {
      std::vector<const Detection*> dets;
      for (const Detection& d : detected[i])
        if (d.cls == c) dets.push_back(&d);
      std::stable_sort(dets.begin(), dets.end(), [](auto* a, auto* b) { return a->confidence > b->confidence; });
      std::vector<bool> used(truth[i].size(), false);
      for (const Detection& t : truth[i]) truths += t.cls == c;
      for (const Detection* d : dets) {
        int best = -1;
        float best_iou = 0.5f;
        for (std::size_t k = 0; k < truth[i].size(); ++k) {
          if (used[k] || truth[i][k].cls != c) continue;
          const float iou = box_iou(*d, truth[i][k]);
          if (iou >= best_iou) best_iou = iou, best = static_cast<int>(k);
        }
        if (best >= 0) used[static_cast<std::size_t>(best)] = true;
        ranked.emplace_back(d->confidence, best >= 0);
      }
    }
    // Precision and recall at `at`: a detection's match depends only on the more confident ones,
    // so those below it change nothing above it.
    std::size_t class_true_pos = 0, class_detections = 0;
    for (const auto& r : ranked)
      if (r.first >= at) ++class_detections, class_true_pos += r.second;
    s.truths += truths;
    s.detections += class_detections;
    true_pos += class_true_pos;
    DetectionScore::Class& cs = s.per_class.emplace_back();
    cs.truths = truths;
    cs.detections = class_detections;
    cs.precision = class_detections ? static_cast<double>(class_true_pos) / static_cast<double>(class_detections) : std::nan("");
    cs.recall = truths ? static_cast<double>(class_true_pos) / static_cast<double>(truths) : std::nan("");
    cs.ap50 = std::nan("");
    if (truths == 0) continue;
    std::stable_sort(ranked.begin(), ranked.end(), [](auto& a, auto& b) { return a.first > b.first; });
    // All-point interpolation: precision made monotone from the right, summed over recall steps.
    std::vector<double> prec, rec;
    std::size_t tp = 0;
    for (std::size_t k = 0; k < ranked.size(); ++k) {
      tp += ranked[k].second;
      prec.push_back(static_cast<double>(tp) / static_cast<double>(k + 1));
      rec.push_back(static_cast<double>(tp) / static_cast<double>(truths));
    }
    for (std::size_t k = prec.size(); k-- > 1;) prec[k - 1] = std::max(prec[k - 1], prec[k]);
    double ap = 0, last_rec = 0;
    for (std::size_t k = 0; k < prec.size(); ++k) {
      ap += (rec[k] - last_rec) * prec[k];
      last_rec = rec[k];
    }
    cs.ap50 = ap;
    ap_sum += ap;
    ++ap_classes;
  }
  s.precision = s.detections ? static_cast<double>(true_pos) / static_cast<double>(s.detections) : std::nan("");
  s.recall = s.truths ? static_cast<double>(true_pos) / static_cast<double>(s.truths) : std::nan("");
  s.map50 = ap_classes ? ap_sum / ap_classes : std::nan("");
  return s;
}

namespace {
bool any_contains(const std::vector<Detection>& boxes, float x, float y) {
  for (const Detection& d : boxes)
    if (std::abs(x - d.cx) <= 0.5f * d.w && std::abs(y - d.cy) <= 0.5f * d.h) return true;
  return false;
}
double share(std::size_t part, std::size_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : std::nan("");
}
}  // namespace

std::vector<std::vector<Detection>> above_confidence(std::span<const std::vector<Detection>> detected, double confidence) {
  std::vector<std::vector<Detection>> out(detected.size());
  for (std::size_t i = 0; i < detected.size(); ++i)
    for (const Detection& d : detected[i])
      if (d.confidence >= confidence) out[i].push_back(d);
  return out;
}

double best_f1_confidence(std::span<const std::vector<Detection>> detected,
                          std::span<const std::vector<Detection>> truth, int classes, double fallback) {
  double best = fallback, best_f1 = -1;
  for (int step = 1; step <= 19; ++step) {
    const double t = static_cast<double>(step) / 20.0;
    const DetectionScore s = score_detections(detected, truth, classes, t);
    if (s.truths == 0) return fallback;
    const double p = std::isnan(s.precision) ? 0.0 : s.precision, r = s.recall;
    const double f1 = p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    if (f1 >= best_f1) best_f1 = f1, best = t;
  }
  return best;
}

double PointScore::precision() const { return share(both, detected); }
double PointScore::recall() const { return share(both, truth); }

PointScore score_point(std::span<const std::vector<Detection>> detected,
                       std::span<const std::vector<Detection>> truth, float x, float y) {
  PointScore s;
  s.images = std::min(detected.size(), truth.size());
  for (std::size_t i = 0; i < s.images; ++i) {
    const bool d = any_contains(detected[i], x, y), t = any_contains(truth[i], x, y);
    s.detected += d;
    s.truth += t;
    s.both += d && t;
  }
  return s;
}

std::vector<Detection> mirrored(std::vector<Detection> objects) {
  for (Detection& d : objects) d.cx = 1.0f - d.cx;
  return objects;
}

}  // namespace pictor::ic
