// What `racing` draws for its labelled objects (cars, obstacles), as GL-free models: the view
// draws them, the tests check they fit the ground-truth boxes.
#pragma once
#include "apps/game/model.h"
#include "apps/scenes/racing/racing_sim.h"

namespace pictor::racing {

// steer: +1 left … −1 right (front wheels turn); brake lights and exhaust flame on request.
game::Model car_model(const Car& car, float steer, bool brake, bool throttle);
game::Model obstacle_model(const Obstacle& obstacle);

}  // namespace pictor::racing
