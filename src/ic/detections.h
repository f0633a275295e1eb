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
// precision and recall at the decode threshold, and mAP@0.5 (mean over classes that have truth
// of the area under the all-point interpolated precision/recall curve).
struct DetectionScore {
  double precision = 0, recall = 0, map50 = 0;
  std::size_t images = 0, truths = 0, detections = 0;
};
DetectionScore score_detections(std::span<const std::vector<Detection>> detected,
                                std::span<const std::vector<Detection>> truth, int classes);

}  // namespace pictor::ic
