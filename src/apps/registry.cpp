#include "apps/scenes/scenes.h"

namespace pictor::apps {

const std::vector<SceneInfo>& scene_registry() {
  static const std::vector<SceneInfo> registry = {
      {"null", "clear and swap only: Pictor's own per-frame cost", &make_null_scene},
      {"spin", "N lit cubes spinning (option objects=N): a tunable load", &make_spin_scene},
      {"racing", "game: third-person driving, obstacles and opponents (Left/Right/Up/Down)", &make_racing_scene},
      {"shooter", "game: first-person arena, moving enemies (mouse aims, button 1 fires, w/a/s/d)", &make_shooter_scene},
      {"strategy", "game: top-down RTS, units and resources (button 1 selects, button 3 commands, arrows scroll)",
       &make_strategy_scene},
      {"latency", "flips colour on each input after delay_ms of busy logic: checks RTT", &make_latency_scene},
  };
  return registry;
}

}  // namespace pictor::apps
