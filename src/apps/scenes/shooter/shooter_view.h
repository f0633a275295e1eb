// `shooter` view: the arena, pillars, enemies and pickups of a ShooterSim from the player's eye,
// and the HUD (crosshair, muzzle flash, health, score, held keys).
#pragma once
#include <memory>

#include "apps/game/game_scene.h"

namespace pictor::shooter {

class ShooterSim;
std::unique_ptr<game::GameView> make_shooter_view(const ShooterSim& sim);

}  // namespace pictor::shooter
