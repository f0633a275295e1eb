// The policy's view of one frame: the detected (or labelled) objects laid out in a fixed-size
// vector, the top K per class by confidence. Shared by training and the ic driver.
#pragma once
#include <span>
#include <string>
#include <vector>

namespace pictor::ic {

// One object on a frame: class index and box centre/size, normalised to 0..1 of the frame.
struct Detection {
  int cls = 0;
  float cx = 0, cy = 0, w = 0, h = 0;
  float confidence = 1.0f;  // 1 for ground truth labels
};

// For each class in order, `per_class` slots; each slot is kSlotFields floats:
//   present (1 or 0), cx, cy, w, h, confidence
// filled with that class's objects by descending confidence (ties: left to right), the unused
// slots all zero. Objects beyond K per class are dropped.
struct FeatureLayout {
  static constexpr int kSlotFields = 6;
  int classes = 0;
  int per_class = 4;
  int size() const { return classes * per_class * kSlotFields; }
  // Field names of one slot, for the manifest.
  static std::vector<std::string> slot_fields();
};

// Detections with a class outside 0..classes-1 are ignored.
std::vector<float> frame_features(std::span<const Detection> objects, const FeatureLayout& layout);

}  // namespace pictor::ic
