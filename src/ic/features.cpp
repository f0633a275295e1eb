#include "ic/features.h"

#include <algorithm>

namespace pictor::ic {

std::vector<std::string> FeatureLayout::slot_fields() {
  return {"present", "cx", "cy", "w", "h", "confidence"};
}

std::vector<float> frame_features(std::span<const Detection> objects, const FeatureLayout& layout) {
  std::vector<float> out(static_cast<std::size_t>(layout.size()), 0.0f);
  std::vector<const Detection*> of_class;
  for (int c = 0; c < layout.classes; ++c) {
    of_class.clear();
    for (const Detection& d : objects)
      if (d.cls == c) of_class.push_back(&d);
    // Stable order for equal confidences (all ground truth boxes are 1.0): left to right, then
    // top to bottom, so the same scene always fills the same slots.
    std::sort(of_class.begin(), of_class.end(), [](const Detection* a, const Detection* b) {
      if (a->confidence != b->confidence) return a->confidence > b->confidence;
      if (a->cx != b->cx) return a->cx < b->cx;
      return a->cy < b->cy;
    });
    const int n = std::min<int>(layout.per_class, static_cast<int>(of_class.size()));
    for (int k = 0; k < n; ++k) {
      const Detection& d = *of_class[static_cast<std::size_t>(k)];
      float* slot = out.data() + (c * layout.per_class + k) * FeatureLayout::kSlotFields;
      slot[0] = 1.0f;
      slot[1] = d.cx;
      slot[2] = d.cy;
      slot[3] = d.w;
      slot[4] = d.h;
      slot[5] = d.confidence;
    }
  }
  return out;
}

}  // namespace pictor::ic
