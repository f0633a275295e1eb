// What `shooter` draws for its labelled objects (enemies, pickups), as GL-free models: the view
// draws them, the tests check they fit the ground-truth boxes.
#pragma once
#include "apps/game/model.h"
#include "apps/scenes/shooter/shooter_sim.h"

namespace pictor::shooter {

game::Model enemy_model(const Enemy& enemy);
// The pickup's cross turns with the step count (ShooterSim::pickup_spin).
game::Model pickup_model(const Pickup& pickup, long long steps);

}  // namespace pictor::shooter
