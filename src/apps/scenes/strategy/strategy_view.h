// `strategy` view: the map, base, units, enemies, crystals and scenery of a StrategySim from the
// scrolling top-down camera, and the HUD (resources, score, minimap, selection box, click echo).
#pragma once
#include <memory>

#include "apps/game/game_scene.h"

namespace pictor::strategy {

class StrategySim;
std::unique_ptr<game::GameView> make_strategy_view(const StrategySim& sim);

}  // namespace pictor::strategy
