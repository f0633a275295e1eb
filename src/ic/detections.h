// From the detector's grid output to objects (decode + per-class non-maximum suppression), and
// how detections are scored against ground truth (precision, recall, AP at IoU 0.5).
#pragma once
#include <span>
#include <vector>

#include "ic/features.h"

namespace pictor::ic {

// The detector's raw output for one image: (5 + classes) planes of grid_h x grid_w, in order
//   objectness logit, x offset logit, y offset logit, sqrt-width logit, sqrt-height logit,
//   class logits...
// A cell's box: cx = (col + sigmoid(x)) / grid_w, cy likewise, w = sigmoid(sw)^2, h = sigmoid(sh)^2.
struct GridOutput {
  const float* data = nullptr;
  int grid_w = 0, grid_h = 0, classes = 0;
};

// Cells whose sigmoid(objectness) x softmax(class) >= confidence, most confident first, after
// per-class NMS (a box overlapping a kept one of its class by IoU > nms_iou is dropped).
std::vector<Detection> decode_grid(const GridOutput& out, double confidence, double nms_iou);

float box_iou(const Detection& a, const Detection& b);

// Detection quality over a set of images at IoU >= 0.5 (each truth matched at most once):
// precision and recall of the detections with confidence >= `at`, and mAP@0.5 over all of them (mean over classes that have truth
// of the area under the all-point interpolated precision/recall curve).
// `per_class` holds the same figures for each class (ap50 NaN for a class without truth,
// precision NaN for one without detections).
struct DetectionScore {
  struct Class {
    double precision = 0, recall = 0, ap50 = 0;
    std::size_t truths = 0, detections = 0;
  };
  double precision = 0, recall = 0, map50 = 0;
  std::size_t images = 0, truths = 0, detections = 0;
  std::vector<Class> per_class;
};
DetectionScore score_detections(std::span<const std::vector<Detection>> detected,
                                std::span<const std::vector<Detection>> truth, int classes, double at = 0.0);

// The decode threshold with the best F1 (precision and recall at IoU >= 0.5, all classes
// pooled) among 0.05, 0.10, ... 0.95, given detections made at a threshold of at most 0.05
// (filtering those by confidence gives exactly what decoding at the higher threshold would:
// NMS only ever drops the less confident box). Ties go to the higher threshold; `fallback`
// when no image has truth.
double best_f1_confidence(std::span<const std::vector<Detection>> detected,
                          std::span<const std::vector<Detection>> truth, int classes, double fallback);
std::vector<std::vector<Detection>> above_confidence(std::span<const std::vector<Detection>> detected, double confidence);

// How often "a box contains the point (x, y)" — what a crosshair driver fires on — is right,
// per image: `detected` images where a detection contains it, `truth` images where a true box
// does, `both` where both do (any class). precision = both / detected, recall = both / truth;
// NaN when the denominator is 0.
struct PointScore {
  std::size_t images = 0, detected = 0, truth = 0, both = 0;
  double precision() const;
  double recall() const;
};
PointScore score_point(std::span<const std::vector<Detection>> detected,
                       std::span<const std::vector<Detection>> truth, float x, float y);

// The boxes mirrored left to right (cx -> 1 - cx), for a frame flipped the same way (the
// detector's flip augmentation).
std::vector<Detection> mirrored(std::vector<Detection> objects);

}  // namespace pictor::ic
