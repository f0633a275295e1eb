#include "apps/scenes/racing/racing_models.h"

namespace pictor::racing {

using game::MeshKind;
using game::Vec3;

game::Model car_model(const Car& car, float steer, bool brake, bool throttle) {
  const Vec3 p = car.position;
  const float yaw = car.yaw;
  game::Model m;
  m.push_back(game::part(MeshKind::box, p, yaw, {0, 0.55f, 0}, {1.0f, 0.35f, 2.1f}, car.colour));
  m.push_back(game::part(MeshKind::box, p, yaw, {0, 1.2f, -0.3f}, {0.8f, 0.3f, 1.0f}, car.colour * 0.7f));
  // Steering shows on the front wheels, the brake on the rear lights, the throttle as exhaust
  // flame: each answers its key in the next frame.
  for (float x : {-0.92f, 0.92f})
    for (float z : {-1.35f, 1.35f}) {
      game::ModelPart w = game::part(MeshKind::box, p, yaw, {x, 0.35f, z}, {0.18f, 0.35f, 0.35f}, {0.08f, 0.08f, 0.08f});
      if (z > 0) w.instance.yaw += 0.35f * steer;
      m.push_back(w);
    }
  for (float x : {-0.7f, 0.7f}) {
    m.push_back(game::part(MeshKind::box, p, yaw, {x, 0.72f, -2.12f}, {0.22f, 0.1f, 0.04f},
                           brake ? Vec3{1, 0.1f, 0.1f} : Vec3{0.4f, 0.05f, 0.05f}, brake ? 1.0f : 0.0f));
    m.push_back(game::part(MeshKind::box, p, yaw, {x, 0.65f, 2.12f}, {0.22f, 0.1f, 0.04f}, {1, 0.95f, 0.7f}, 0.8f));
  }
  if (throttle) m.push_back(game::part(MeshKind::cone, p, yaw, {0.5f, 0.3f, -2.1f}, {0.1f, 0.1f, 0.1f}, {1, 0.6f, 0.1f}, 1.0f));
  return m;
}

game::Model obstacle_model(const Obstacle& o) {
  game::ModelPart p = game::part(MeshKind::box, o.position, o.yaw, {0, 0, 0}, o.half, {});
  switch (o.kind) {
    case ObstacleKind::cone: p.mesh = MeshKind::cone, p.instance.colour = {1.0f, 0.45f, 0.05f}; break;
    case ObstacleKind::crate: p.instance.colour = {0.55f, 0.38f, 0.2f}; break;
    case ObstacleKind::barrel: p.mesh = MeshKind::cylinder, p.instance.colour = {0.15f, 0.3f, 0.75f}; break;
  }
  return {p};
}

}  // namespace pictor::racing
