// Training the detector (internal to pictor::ic_torch, includes torch): YOLO-style targets on the
// detector's grid, its loss, and the phase that fits it (torch/trainer.cpp runs the phases).
#pragma once
#include <torch/torch.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ic/detections.h"
#include "ic/torch/networks.h"
#include "ic/training_set.h"

namespace pictor::ic {

// YOLO targets: each box belongs to the cell holding its centre; of two in one cell the larger wins.
// A box under kMinVisiblePx wide or high at the input (model_quality.h) is no target: its cell is
// ignored (neither object nor background) unless a visible box claims it. Racing's far obstacles
// are a fraction of a pixel; as targets they were 90 % of the obstacle boxes and pulled the box
// sizes below what the near ones, the ones the teacher steers around, measure.
struct DetectorTargets {
  torch::Tensor mask, box, cls, ignore;  // [B,gh,gw] float, [B,4,gh,gw] float, [B,gh,gw] long, [B,gh,gw] float
};
DetectorTargets detector_targets(const std::vector<const std::vector<Detection>*>& truth, const NetworkShape& shape);

struct DetectorLoss {
  torch::Tensor total;
  double obj = 0, box = 0, cls = 0;
};
// Objectness: positive and negative cells averaged separately (a frame has a few objects in
// 144 cells; a plain mean would learn "nothing anywhere"); ignored cells in neither. Box and class
// only on positive cells.
DetectorLoss detector_loss(const torch::Tensor& pred, const DetectorTargets& t);

// Phase "train detector": o.detector_steps Adam steps on o.batch frames drawn from
// set.detector_pool with `rng`, half of them mirrored, the learning rate decaying from 2e-3 to
// 1e-4 (cosine). Progress lines name `elapsed_s()`, the seconds since training began. The
// network is returned in eval mode.
struct DetectorRun {
  DetectorNet net{nullptr};
  std::vector<double> losses;  // per step
  double seconds = 0;
};
DetectorRun train_detector(const TrainingSet& set, const TrainOptions& o, std::mt19937_64& rng,
                           const std::function<double()>& elapsed_s);

}  // namespace pictor::ic
