// `strategy`: top-down real-time strategy with units, resources and enemies (simulation in
// strategy_sim, drawing in strategy_view).
#include "apps/game/game_scene.h"
#include "apps/scenes/scenes.h"
#include "apps/scenes/strategy/strategy_sim.h"
#include "apps/scenes/strategy/strategy_view.h"

namespace pictor::apps {

std::unique_ptr<Scene> make_strategy_scene() {
  return std::make_unique<game::GameScene>(game::GameDefinition{
      "strategy", [](const game::GameSetup& s) { return std::make_unique<strategy::StrategySim>(s); },
      [](const game::GameSim& sim) {
        return strategy::make_strategy_view(static_cast<const strategy::StrategySim&>(sim));
      }});
}

}  // namespace pictor::apps
