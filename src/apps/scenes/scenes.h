// Factories of the built-in scenes (one file each), collected by registry.cpp.
#pragma once
#include <memory>

#include "apps/scene.h"

namespace pictor::apps {

std::unique_ptr<Scene> make_null_scene();
std::unique_ptr<Scene> make_spin_scene();
std::unique_ptr<Scene> make_racing_scene();
std::unique_ptr<Scene> make_shooter_scene();
std::unique_ptr<Scene> make_strategy_scene();
std::unique_ptr<Scene> make_latency_scene();

}  // namespace pictor::apps
