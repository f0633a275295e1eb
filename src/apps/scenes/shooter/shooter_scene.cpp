// `shooter`: first-person arena with moving enemies (simulation in shooter_sim, drawing in
// shooter_view).
#include "apps/game/game_scene.h"
#include "apps/scenes/scenes.h"
#include "apps/scenes/shooter/shooter_sim.h"
#include "apps/scenes/shooter/shooter_view.h"

namespace pictor::apps {

std::unique_ptr<Scene> make_shooter_scene() {
  return std::make_unique<game::GameScene>(game::GameDefinition{
      "shooter", [](const game::GameSetup& s) { return std::make_unique<shooter::ShooterSim>(s); },
      [](const game::GameSim& sim) {
        return shooter::make_shooter_view(static_cast<const shooter::ShooterSim&>(sim));
      }});
}

}  // namespace pictor::apps
