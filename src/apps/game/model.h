// What the games draw, without GL: a model is a list of parts, each one instance of a unit mesh
// (−1…1) placed, turned about y, scaled to its half extents and coloured. The views draw these,
// and the tests check that every part lies inside the object's ground-truth box.
#pragma once
#include <vector>

#include "apps/game/math.h"
#include "apps/game/projection.h"

namespace pictor::game {

// One drawn copy of a mesh. 12 floats, uploaded as three vec4 attributes.
struct Instance {
  Vec3 position;
  float yaw = 0;
  Vec3 scale{1, 1, 1};      // half extents for the unit (−1…1) meshes
  float emissive = 0;       // 0 lit, 1 glowing (lights, flashes, highlights)
  Vec3 colour{1, 1, 1};
  float pattern = 0;        // > 0: world-space checker of this cell size (ground, road)
};
static_assert(sizeof(Instance) == 12 * sizeof(float));

// An instance from its placement and look: what every view builds its static and moving parts from.
inline Instance make_instance(Vec3 position, float yaw, Vec3 half, Vec3 colour, float emissive = 0,
                              float pattern = 0) {
  Instance i;
  i.position = position;
  i.yaw = yaw;
  i.scale = half;
  i.colour = colour;
  i.emissive = emissive;
  i.pattern = pattern;
  return i;
}

enum class MeshKind { box, cylinder, cone, sphere };

struct ModelPart {
  MeshKind mesh = MeshKind::box;
  Instance instance;
};
using Model = std::vector<ModelPart>;

// A part at `offset` in the frame of an object at `position` turned by `yaw`.
inline ModelPart part(MeshKind mesh, Vec3 position, float yaw, Vec3 offset, Vec3 half, Vec3 colour,
                      float emissive = 0) {
  ModelPart p;
  p.mesh = mesh;
  p.instance.position = position + rotate_yaw(offset, yaw);
  p.instance.yaw = yaw;
  p.instance.scale = half;
  p.instance.colour = colour;
  p.instance.emissive = emissive;
  return p;
}

// The box a part fills (the unit meshes all fit the −1…1 cube).
inline OrientedBox part_box(const ModelPart& p) {
  return {p.instance.position, p.instance.scale, p.instance.yaw};
}

}  // namespace pictor::game
