#include "apps/game/game_sim.h"

namespace pictor::game {

std::vector<LabelledBox> screen_boxes(const GameSim& sim) {
  const Mat4 vp = sim.view_projection();
  const float w = static_cast<float>(sim.setup().width), h = static_cast<float>(sim.setup().height);
  std::vector<LabelledBox> out;
  for (const auto& o : sim.truth_objects())
    if (auto box = project_box(vp, o.box, w, h)) out.push_back({o.class_id, *box});
  return out;
}

}  // namespace pictor::game
