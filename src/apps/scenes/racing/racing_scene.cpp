// `racing`: third-person driving on a seeded track with obstacles and opponent cars
// (simulation in racing_sim, drawing in racing_view).
#include "apps/game/game_scene.h"
#include "apps/scenes/racing/racing_sim.h"
#include "apps/scenes/racing/racing_view.h"
#include "apps/scenes/scenes.h"

namespace pictor::apps {

std::unique_ptr<Scene> make_racing_scene() {
  return std::make_unique<game::GameScene>(game::GameDefinition{
      "racing", [](const game::GameSetup& s) { return std::make_unique<racing::RacingSim>(s); },
      [](const game::GameSim& sim) { return racing::make_racing_view(static_cast<const racing::RacingSim&>(sim)); }});
}

}  // namespace pictor::apps
