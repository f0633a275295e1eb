#include "apps/game/mesh.h"

#include <algorithm>
#include <cmath>

namespace pictor::game {

void MeshData::triangle(Vec3 a, Vec3 b, Vec3 c, Vec3 n) {
  vertex(a, n);
  vertex(b, n);
  vertex(c, n);
}

void MeshData::triangle(Vec3 a, Vec3 b, Vec3 c) { triangle(a, b, c, normalize(cross(b - a, c - a))); }

MeshData box_mesh() {
  MeshData m;
  const Vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const Vec3& n : normals) {
    // Two axes spanning the face (the games draw without face culling, so winding is free).
    const Vec3 u = std::fabs(n.y) > 0.5f ? Vec3{0, 0, 1} : Vec3{0, 1, 0};
    const Vec3 v = cross(n, u);
    const Vec3 a = n - u - v, b = n + u - v, c = n + u + v, d = n - u + v;
    m.triangle(a, c, b, n);
    m.triangle(a, d, c, n);
  }
  return m;
}

MeshData cylinder_mesh(int segments) {
  MeshData m;
  for (int i = 0; i < segments; ++i) {
    const float a0 = 2 * kPi * static_cast<float>(i) / static_cast<float>(segments);
    const float a1 = 2 * kPi * static_cast<float>(i + 1) / static_cast<float>(segments);
    const Vec3 p0{std::cos(a0), 0, std::sin(a0)}, p1{std::cos(a1), 0, std::sin(a1)};
    const Vec3 b0 = p0 + Vec3{0, -1, 0}, b1 = p1 + Vec3{0, -1, 0};
    const Vec3 t0 = p0 + Vec3{0, 1, 0}, t1 = p1 + Vec3{0, 1, 0};
    // Smooth sides: each vertex takes the radial normal of its own angle.
    m.vertex(b0, p0), m.vertex(t0, p0), m.vertex(t1, p1);
    m.vertex(b0, p0), m.vertex(t1, p1), m.vertex(b1, p1);
    m.triangle({0, 1, 0}, t1, t0, {0, 1, 0});
    m.triangle({0, -1, 0}, b0, b1, {0, -1, 0});
  }
  return m;
}

MeshData cone_mesh(int segments) {
  MeshData m;
  for (int i = 0; i < segments; ++i) {
    const float a0 = 2 * kPi * static_cast<float>(i) / static_cast<float>(segments);
    const float a1 = 2 * kPi * static_cast<float>(i + 1) / static_cast<float>(segments);
    const Vec3 b0{std::cos(a0), -1, std::sin(a0)}, b1{std::cos(a1), -1, std::sin(a1)};
    const Vec3 apex{0, 1, 0};
    m.triangle(b0, apex, b1);
    m.triangle({0, -1, 0}, b0, b1, {0, -1, 0});
  }
  return m;
}

MeshData sphere_mesh(int slices, int stacks) {
  MeshData m;
  auto point = [&](int i, int j) {
    const float theta = kPi * static_cast<float>(j) / static_cast<float>(stacks);
    const float phi = 2 * kPi * static_cast<float>(i) / static_cast<float>(slices);
    return Vec3{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
  };
  auto vertex = [&](Vec3 p) { m.vertex(p, p); };  // on the unit sphere the normal is the point
  for (int j = 0; j < stacks; ++j)
    for (int i = 0; i < slices; ++i) {
      const Vec3 a = point(i, j), b = point(i + 1, j), c = point(i + 1, j + 1), d = point(i, j + 1);
      vertex(a), vertex(c), vertex(b);
      vertex(a), vertex(d), vertex(c);
    }
  return m;
}

MeshData plane_mesh() {
  MeshData m;
  const Vec3 up{0, 1, 0};
  m.triangle({-1, 0, -1}, {-1, 0, 1}, {1, 0, 1}, up);
  m.triangle({-1, 0, -1}, {1, 0, 1}, {1, 0, -1}, up);
  return m;
}

int segments_for(float detail, int base) {
  return std::max(4, static_cast<int>(std::lround(static_cast<float>(base) * std::sqrt(detail))));
}

}  // namespace pictor::game
