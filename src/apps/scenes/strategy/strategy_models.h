// What `strategy` draws for its labelled objects (units, enemies, crystals, the base), as GL-free
// models: the view draws them, the tests check they fit the ground-truth boxes.
#pragma once
#include "apps/game/model.h"
#include "apps/scenes/strategy/strategy_sim.h"

namespace pictor::strategy {

game::Model unit_model(const Unit& unit);  // without the selection ring, which lies on the ground
game::Model enemy_model(const Enemy& enemy);
game::Model crystal_model(const Crystal& crystal);
game::Model base_model(game::Vec3 base);

}  // namespace pictor::strategy
