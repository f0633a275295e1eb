// `spin`: N lit cubes spinning on a seeded grid, drawn instanced in one call; `objects` scales
// the vertex and fragment load, so it is the tunable load for overhead measurements.
#include <GL/gl.h>
#include <GL/glext.h>

#include <cmath>
#include <random>
#include <vector>

#include "apps/gl_util.h"
#include "apps/scenes/scenes.h"

namespace pictor::apps {
namespace {

const char* kVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 placement;   // xyz centre, w size
layout(location = 3) in vec4 spin;        // xyz axis, w speed
layout(location = 4) in vec3 colour;
uniform float time;
uniform mat4 projection;
out vec3 v_normal;
out vec3 v_colour;
mat3 rotation(vec3 axis, float angle) {
  axis = normalize(axis);
  float s = sin(angle), c = cos(angle), oc = 1.0 - c;
  return mat3(oc * axis.x * axis.x + c, oc * axis.x * axis.y + axis.z * s, oc * axis.z * axis.x - axis.y * s,
              oc * axis.x * axis.y - axis.z * s, oc * axis.y * axis.y + c, oc * axis.y * axis.z + axis.x * s,
              oc * axis.z * axis.x + axis.y * s, oc * axis.y * axis.z - axis.x * s, oc * axis.z * axis.z + c);
}
void main() {
  mat3 r = rotation(spin.xyz, time * spin.w);
  vec3 p = r * (position * placement.w) + placement.xyz;
  v_normal = r * normal;
  v_colour = colour;
  gl_Position = projection * vec4(p, 1.0);
}
)";

const char* kFragment = R"(#version 330 core
in vec3 v_normal;
in vec3 v_colour;
out vec4 frag;
void main() {
  vec3 light = normalize(vec3(0.4, 0.7, 0.6));
  float d = max(dot(normalize(v_normal), light), 0.0);
  vec3 h = normalize(light + vec3(0.0, 0.0, 1.0));
  float s = pow(max(dot(normalize(v_normal), h), 0.0), 24.0);
  frag = vec4(v_colour * (0.25 + 0.75 * d) + vec3(0.5) * s, 1.0);
}
)";

class SpinScene final : public Scene {
 public:
  std::vector<SceneOption> options() const override {
    return {options::integer("objects", "number of cubes").within(1, 1'000'000).or_default("500"),
            options::integer("seed", "placement seed").within(0, 1 << 30).or_default("1")};
  }

  void setup(const SceneContext& context) override {
    objects_ = context.options.integer("objects");
    const int seed = context.options.integer("seed");
    program_ = build_program(kVertex, kFragment);
    time_uniform_ = glGetUniformLocation(program_, "time");
    const GLint projection_uniform = glGetUniformLocation(program_, "projection");

    glGenVertexArrays(1, &vao_);
    glBindVertexArray(vao_);
    glGenBuffers(2, buffers_);
    const std::vector<float> cube = cube_vertices();
    glBindBuffer(GL_ARRAY_BUFFER, buffers_[0]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(cube.size() * sizeof(float)), cube.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);

    // Instances on a grid filling the view, jittered, each with its own axis, speed and colour.
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(objects_))));
    const float cell = 2.0f / static_cast<float>(side);
    std::vector<float> inst;
    inst.reserve(static_cast<std::size_t>(objects_) * 11);
    for (int i = 0; i < objects_; ++i) {
      const float gx = -1.0f + cell * (static_cast<float>(i % side) + 0.5f);
      const float gy = -1.0f + cell * (static_cast<float>(i / side) + 0.5f);
      const float values[] = {gx * 1.6f + (u(rng) - 0.5f) * cell * 0.3f, gy + (u(rng) - 0.5f) * cell * 0.3f,
                              -3.0f - u(rng) * 0.5f, cell * (0.3f + 0.2f * u(rng)),
                              u(rng) - 0.5f, u(rng) - 0.5f, u(rng) + 0.1f, 0.5f + 2.5f * u(rng),
                              0.3f + 0.7f * u(rng), 0.3f + 0.7f * u(rng), 0.3f + 0.7f * u(rng)};
      inst.insert(inst.end(), std::begin(values), std::end(values));
    }
    glBindBuffer(GL_ARRAY_BUFFER, buffers_[1]);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(inst.size() * sizeof(float)), inst.data(), GL_STATIC_DRAW);
    const GLsizei stride = 11 * sizeof(float);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride, nullptr);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(4 * sizeof(float)));
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(8 * sizeof(float)));
    for (GLuint a = 2; a <= 4; ++a) {
      glEnableVertexAttribArray(a);
      glVertexAttribDivisor(a, 1);
    }

    const float aspect = static_cast<float>(context.size.width) / static_cast<float>(context.size.height);
    const float n = 1.0f, f = 10.0f, t = 0.6f, r = t * aspect;
    const float projection[16] = {n / r, 0, 0, 0, 0, n / t, 0, 0, 0, 0, -(f + n) / (f - n), -1,
                                  0, 0, -2 * f * n / (f - n), 0};
    glUseProgram(program_);
    glUniformMatrix4fv(projection_uniform, 1, GL_FALSE, projection);
    glEnable(GL_DEPTH_TEST);
    glClearColor(0.08f, 0.09f, 0.12f, 1.0f);
  }

  void update(double t, double) override { time_ = static_cast<float>(t); }

  void draw() override {
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glUseProgram(program_);
    glUniform1f(time_uniform_, time_);
    glBindVertexArray(vao_);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 36, objects_);
  }

  void teardown() override {
    glDeleteBuffers(2, buffers_);
    glDeleteVertexArrays(1, &vao_);
    glDeleteProgram(program_);
  }

 private:
  static std::vector<float> cube_vertices() {
    std::vector<float> v;
    // Six faces, two triangles each, position + normal.
    const float faces[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const auto& nrm : faces) {
      float a[3], b[3];
      // Two axes spanning the face.
      const int axis = nrm[0] != 0 ? 0 : nrm[1] != 0 ? 1 : 2;
      const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
      const float corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
      for (const auto& c : corners) {
        a[axis] = nrm[axis] * 0.5f;
        a[u_axis] = c[0] * 0.5f;
        a[v_axis] = c[1] * 0.5f;
        b[0] = nrm[0];
        b[1] = nrm[1];
        b[2] = nrm[2];
        v.insert(v.end(), {a[0], a[1], a[2], b[0], b[1], b[2]});
      }
    }
    return v;
  }

  int objects_ = 0;
  GLuint program_ = 0, vao_ = 0, buffers_[2] = {};
  GLint time_uniform_ = -1;
  float time_ = 0;
};

}  // namespace

std::unique_ptr<Scene> make_spin_scene() { return std::make_unique<SpinScene>(); }

}  // namespace pictor::apps
