#include "apps/game/projection.h"

#include <algorithm>
#include <array>

namespace pictor::game {

namespace {

// Signed distance to OpenGL's near clip plane in clip space: z ≥ −w is in front of it.
float near_distance(Vec4 c) { return c.z + c.w; }

}  // namespace

std::optional<ScreenBox> project_box(const Mat4& view_projection, const OrientedBox& box, float width,
                                     float height, float min_px) {
  std::array<Vec4, 8> clip;
  for (int i = 0; i < 8; ++i) {
    const Vec3 local{(i & 1) ? box.half.x : -box.half.x, (i & 2) ? box.half.y : -box.half.y,
                     (i & 4) ? box.half.z : -box.half.z};
    const Vec3 w = box.centre + rotate_yaw(local, box.yaw);
    clip[i] = view_projection * Vec4{w.x, w.y, w.z, 1.0f};
  }
  // The visible part of a convex box is the hull of its corners in front of the near plane and of
  // the points where its edges cross that plane; project those.
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  bool any = false;
  auto add = [&](Vec4 c) {
    const float nx = c.x / c.w, ny = c.y / c.w;
    const float px = (nx * 0.5f + 0.5f) * width, py = (0.5f - ny * 0.5f) * height;
    x0 = std::min(x0, px);
    x1 = std::max(x1, px);
    y0 = std::min(y0, py);
    y1 = std::max(y1, py);
    any = true;
  };
  for (int i = 0; i < 8; ++i)
    if (near_distance(clip[i]) > 0 && clip[i].w > 1e-6f) add(clip[i]);
  for (int a = 0; a < 8; ++a)
    for (int bit = 1; bit < 8; bit <<= 1) {
      const int b = a | bit;
      if (b == a) continue;
      const float da = near_distance(clip[a]), db = near_distance(clip[b]);
      if ((da > 0) == (db > 0)) continue;
      const float t = da / (da - db);
      Vec4 c{clip[a].x + (clip[b].x - clip[a].x) * t, clip[a].y + (clip[b].y - clip[a].y) * t,
             clip[a].z + (clip[b].z - clip[a].z) * t, clip[a].w + (clip[b].w - clip[a].w) * t};
      if (c.w > 1e-6f) add(c);
    }
  if (!any) return std::nullopt;
  ScreenBox s{std::max(x0, 0.0f), std::max(y0, 0.0f), std::min(x1, width), std::min(y1, height)};
  if (s.width() < min_px || s.height() < min_px) return std::nullopt;
  return s;
}

std::optional<Vec2> project_point(const Mat4& view_projection, Vec3 p, float width, float height) {
  const Vec4 c = view_projection * Vec4{p.x, p.y, p.z, 1.0f};
  if (near_distance(c) <= 0 || c.w <= 1e-6f) return std::nullopt;
  return Vec2{(c.x / c.w * 0.5f + 0.5f) * width, (0.5f - c.y / c.w * 0.5f) * height};
}

}  // namespace pictor::game
