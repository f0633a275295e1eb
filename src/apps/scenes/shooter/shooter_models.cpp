#include "apps/scenes/shooter/shooter_models.h"

namespace pictor::shooter {

using game::MeshKind;
using game::Vec3;

game::Model enemy_model(const Enemy& e) {
  game::Model m;
  const Vec3 p = e.position;
  m.push_back(game::part(MeshKind::box, p, e.yaw, {0, 1.05f, 0}, {0.45f, 0.55f, 0.3f}, {0.75f, 0.15f, 0.15f}));
  for (float x : {-0.22f, 0.22f})
    m.push_back(game::part(MeshKind::box, p, e.yaw, {x, 0.25f, 0}, {0.15f, 0.25f, 0.15f}, {0.3f, 0.1f, 0.1f}));
  m.push_back(game::part(MeshKind::sphere, p, e.yaw, {0, 1.95f, 0}, {0.3f, 0.3f, 0.3f}, {0.85f, 0.7f, 0.6f}));
  for (float x : {-0.1f, 0.1f})
    m.push_back(game::part(MeshKind::box, p, e.yaw, {x, 2.0f, 0.27f}, {0.05f, 0.04f, 0.04f}, {1, 1, 0.2f}, 1));
  return m;
}

game::Model pickup_model(const Pickup& pickup, long long steps) {
  const float spin = ShooterSim::pickup_spin(steps);
  const Vec3 green{0.2f, 0.9f, 0.3f};
  return {game::part(MeshKind::box, pickup.position, spin, {0, 0.6f, 0}, {0.5f, 0.15f, 0.15f}, green, 0.5f),
          game::part(MeshKind::box, pickup.position, spin, {0, 0.6f, 0}, {0.15f, 0.5f, 0.15f}, green, 0.5f)};
}

}  // namespace pictor::shooter
