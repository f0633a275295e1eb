// Ground-truth boxes: an object's oriented 3-D box projected with the very matrix the renderer
// uses, clipped at the near plane and to the window, as a rectangle in window pixels.
#pragma once
#include <optional>

#include "apps/game/math.h"

namespace pictor::game {

// A box turned about the vertical axis: what every game object is drawn as or fits in.
struct OrientedBox {
  Vec3 centre;
  Vec3 half;        // half extents along the box's own x, y, z
  float yaw = 0;    // radians about +y; local +z turns to (sin yaw, 0, cos yaw)
};

// Local point → world point under the same rotation the shaders apply.
inline Vec3 rotate_yaw(Vec3 p, float yaw) {
  const float c = std::cos(yaw), s = std::sin(yaw);
  return {c * p.x + s * p.z, p.y, -s * p.x + c * p.z};
}

// A rectangle in window pixels, origin top-left, x0 < x1, y0 < y1.
struct ScreenBox {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
};

// The smallest window rectangle holding the box's visible projection, clipped to the window;
// nullopt when the box is behind the camera, outside the window, or smaller than min_px on a side.
std::optional<ScreenBox> project_box(const Mat4& view_projection, const OrientedBox& box, float width,
                                     float height, float min_px = 2.0f);

// A world point → window pixel; nullopt when it is behind the near plane.
std::optional<Vec2> project_point(const Mat4& view_projection, Vec3 p, float width, float height);

}  // namespace pictor::game
