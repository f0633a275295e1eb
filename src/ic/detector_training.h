// Training-side pieces of the detector (internal to pictor::ic, includes torch): YOLO-style
// targets on the detector's grid, its loss, and the mirror augmentation of labels.
#pragma once
#include <torch/torch.h>

#include <vector>

#include "ic/detections.h"
#include "ic/networks.h"

namespace pictor::ic {

// The boxes mirrored left to right (cx -> 1 - cx), for a frame flipped the same way.
std::vector<Detection> mirrored(std::vector<Detection> objects);

// YOLO targets: each box belongs to the cell holding its centre; of two in one cell the larger wins.
struct DetectorTargets {
  torch::Tensor mask, box, cls;  // [B,gh,gw] float, [B,4,gh,gw] float, [B,gh,gw] long
};
DetectorTargets detector_targets(const std::vector<const std::vector<Detection>*>& truth, const NetworkShape& shape);

struct DetectorLoss {
  torch::Tensor total;
  double obj = 0, box = 0, cls = 0;
};
// Objectness: positive and negative cells averaged separately (a frame has a few objects in
// 144 cells; a plain mean would learn "nothing anywhere"). Box and class only on positive cells.
DetectorLoss detector_loss(const torch::Tensor& pred, const DetectorTargets& t);

}  // namespace pictor::ic
