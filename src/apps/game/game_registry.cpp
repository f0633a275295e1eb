#include "apps/game/game_registry.h"

#include "apps/scenes/racing/racing_sim.h"
#include "apps/scenes/shooter/shooter_sim.h"
#include "apps/scenes/strategy/strategy_sim.h"
#include "core/error.h"

namespace pictor::game {

const std::vector<std::string>& game_names() {
  static const std::vector<std::string> names = {"racing", "shooter", "strategy"};
  return names;
}

std::unique_ptr<GameSim> make_game_sim(const std::string& name, const GameSetup& setup) {
  if (name == "racing") return std::make_unique<racing::RacingSim>(setup);
  if (name == "shooter") return std::make_unique<shooter::ShooterSim>(setup);
  if (name == "strategy") return std::make_unique<strategy::StrategySim>(setup);
  throw UsageError("unknown game '" + name + "' (games: racing, shooter, strategy)");
}

}  // namespace pictor::game
