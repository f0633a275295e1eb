// Meshes of the games' shapes, built on the CPU (no GL): position + normal per vertex, as
// triangles. Unit shapes span −1…1 so an instance's scale is its half extents (= its truth box).
#pragma once
#include <vector>

#include "apps/game/math.h"

namespace pictor::game {

struct MeshData {
  std::vector<float> vertices;  // x y z nx ny nz per vertex, 3 vertices per triangle
  int vertex_count() const { return static_cast<int>(vertices.size() / 6); }
  void vertex(Vec3 p, Vec3 n) { vertices.insert(vertices.end(), {p.x, p.y, p.z, n.x, n.y, n.z}); }
  void triangle(Vec3 a, Vec3 b, Vec3 c, Vec3 n);
  void triangle(Vec3 a, Vec3 b, Vec3 c);  // flat normal from the winding (counter-clockwise)
};

MeshData box_mesh();
MeshData cylinder_mesh(int segments);          // axis along y
MeshData cone_mesh(int segments);              // base at y = −1, apex at y = +1
MeshData sphere_mesh(int slices, int stacks);  // smooth normals
MeshData plane_mesh();                         // the square −1…1 in x/z at y = 0, facing up

// Tessellation for a detail level: `base` segments at detail 1, at least 4.
int segments_for(float detail, int base);

}  // namespace pictor::game
