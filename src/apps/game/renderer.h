// The games' GL renderer: lit, fogged meshes drawn instanced (one draw call per mesh kind), in
// GL 3.3 core style. Instances turn only about y, like the ground-truth boxes.
#pragma once
#include <GL/gl.h>
#include <GL/glext.h>

#include <vector>

#include "apps/game/math.h"
#include "apps/game/mesh.h"
#include "apps/game/model.h"

namespace pictor::game {

struct Lighting {
  Vec3 light_direction{0.4f, 0.8f, 0.3f};  // towards the light
  Vec3 fog_colour{0.6f, 0.7f, 0.8f};
  float fog_start = 60, fog_end = 250;
};

// Draw near, occluding things first and the ground last: llvmpipe tests depth before shading,
// so hidden ground fragments then cost almost nothing (fragment shading dominates its time).
class MeshRenderer {
 public:
  using MeshId = int;
  // GL context current. Throws pictor::RunError on a shader error.
  void setup();
  MeshId add_mesh(const MeshData& mesh);
  // The unit box, cylinder, cone and sphere that models are made of, tessellated for `detail`.
  void add_model_meshes(float detail);
  void begin(const Mat4& view_projection, Vec3 eye, const Lighting& lighting);
  void draw(MeshId mesh, const std::vector<Instance>& instances);
  // Collects model parts by mesh; draw_models() draws them (one call per mesh) and forgets them.
  void add(const ModelPart& part) { batches_[static_cast<int>(part.mesh)].push_back(part.instance); }
  void add(const Model& model) {
    for (const auto& p : model) add(p);
  }
  void draw_models();
  void teardown();

 private:
  struct Mesh {
    GLuint vao = 0, vertices = 0;
    GLsizei count = 0;
  };
  GLuint program_ = 0, instance_buffer_ = 0;
  GLint u_view_projection_ = -1, u_eye_ = -1, u_light_ = -1, u_fog_colour_ = -1, u_fog_range_ = -1;
  std::vector<Mesh> meshes_;
  MeshId model_meshes_[4] = {-1, -1, -1, -1};
  std::vector<Instance> batches_[4];
};

}  // namespace pictor::game
