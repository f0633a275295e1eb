// `racing` view: the track, scenery, cars and obstacles of a RacingSim, and the HUD (speed, lap,
// position, the held keys, a red frame after a hit).
#pragma once
#include <memory>

#include "apps/game/game_scene.h"

namespace pictor::racing {

class RacingSim;
std::unique_ptr<game::GameView> make_racing_view(const RacingSim& sim);

}  // namespace pictor::racing
