// The built-in games by name: their simulations (for replays and tests, no GL needed) and their
// scenes (simulation + view, for pictor-app).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "apps/game/game_sim.h"

namespace pictor::game {

// "racing", "shooter", "strategy".
const std::vector<std::string>& game_names();
// Throws pictor::UsageError for an unknown name.
std::unique_ptr<GameSim> make_game_sim(const std::string& name, const GameSetup& setup);

}  // namespace pictor::game
