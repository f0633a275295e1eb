#include "apps/scenes/strategy/strategy_models.h"

namespace pictor::strategy {

using game::MeshKind;
using game::Vec3;

game::Model unit_model(const Unit& u) {
  const Vec3 p = u.position;
  const Vec3 skin{0.95f, 0.8f, 0.6f};
  game::Model m;
  if (u.kind == UnitKind::worker) {
    m.push_back(game::part(MeshKind::cylinder, p, u.yaw, {0, 0.55f, 0}, {0.45f, 0.55f, 0.45f}, {0.9f, 0.75f, 0.2f}));
    m.push_back(game::part(MeshKind::sphere, p, u.yaw, {0, 1.35f, 0}, {0.3f, 0.3f, 0.3f}, skin));
    if (u.carried > 0)
      m.push_back(game::part(MeshKind::box, p, u.yaw, {0, 0.6f, -0.35f}, {0.2f, 0.2f, 0.12f}, {0.3f, 0.9f, 1}, 0.6f));
  } else {
    m.push_back(game::part(MeshKind::box, p, u.yaw, {0, 0.6f, 0}, {0.5f, 0.6f, 0.4f}, {0.2f, 0.35f, 0.85f}));
    m.push_back(game::part(MeshKind::sphere, p, u.yaw, {0, 1.5f, 0}, {0.3f, 0.3f, 0.3f}, skin));
    m.push_back(game::part(MeshKind::box, p, u.yaw, {0.5f, 0.9f, 0.25f}, {0.08f, 0.08f, 0.35f}, {0.15f, 0.15f, 0.15f}));
  }
  return m;
}

game::Model enemy_model(const Enemy& e) {
  return {game::part(MeshKind::sphere, e.position, e.yaw, {0, 0.8f, 0}, {0.8f, 0.8f, 0.8f}, {0.7f, 0.12f, 0.15f}),
          game::part(MeshKind::cone, e.position, e.yaw, {0, 1.7f, 0}, {0.25f, 0.4f, 0.25f}, {0.3f, 0.05f, 0.05f}),
          game::part(MeshKind::box, e.position, e.yaw, {0, 1.0f, 0.72f}, {0.3f, 0.08f, 0.08f}, {1, 0.9f, 0.2f}, 1)};
}

game::Model crystal_model(const Crystal& c) {
  return {game::part(MeshKind::cone, c.position, c.yaw, {0, 1.2f, 0}, {0.6f, 1.2f, 0.6f}, {0.25f, 0.85f, 0.95f}, 0.35f),
          game::part(MeshKind::cone, c.position, c.yaw, {0.35f, 0.6f, 0}, {0.3f, 0.6f, 0.3f}, {0.35f, 0.9f, 1.0f}, 0.35f)};
}

game::Model base_model(Vec3 b) {
  return {game::part(MeshKind::box, b, 0, {0, 2.5f, 0}, {5, 2.5f, 5}, {0.55f, 0.55f, 0.62f}),
          game::part(MeshKind::box, b, 0, {0, 5.1f, 0}, {4.2f, 0.1f, 4.2f}, {0.2f, 0.35f, 0.7f}),
          game::part(MeshKind::cylinder, b, 0, {3, 5.5f, 3}, {1.2f, 3, 1.2f}, {0.6f, 0.6f, 0.66f}),
          game::part(MeshKind::box, b, 0, {3, 8.3f, 3}, {0.5f, 0.2f, 0.5f}, {0.3f, 0.8f, 1.0f}, 1.0f)};
}

}  // namespace pictor::strategy
