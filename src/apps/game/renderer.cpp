#include "apps/game/renderer.h"

#include "apps/gl_util.h"

namespace pictor::game {

namespace {

const char* kGameVertex = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 place;           // xyz position, w yaw
layout(location = 3) in vec4 scale_emissive;  // xyz scale, w emissive
layout(location = 4) in vec4 colour_pattern;  // rgb colour, w checker cell size
uniform mat4 view_projection;
out vec3 v_normal;
out vec3 v_world;
out vec3 v_colour;
out float v_emissive;
out float v_pattern;
vec3 turn(vec3 p, float c, float s) { return vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z); }
void main() {
  float c = cos(place.w), s = sin(place.w);
  vec3 world = turn(position * scale_emissive.xyz, c, s) + place.xyz;
  v_normal = turn(normal / scale_emissive.xyz, c, s);
  v_world = world;
  v_colour = colour_pattern.rgb;
  v_emissive = scale_emissive.w;
  v_pattern = colour_pattern.w;
  gl_Position = view_projection * vec4(world, 1.0);
}
)";

const char* kGameFragment = R"(#version 330 core
in vec3 v_normal;
in vec3 v_world;
in vec3 v_colour;
in float v_emissive;
in float v_pattern;
uniform vec3 eye;
uniform vec3 light;
uniform vec3 fog_colour;
uniform vec2 fog_range;
out vec4 frag;
void main() {
  vec3 n = normalize(v_normal);
  vec3 base = v_colour;
  if (v_pattern > 0.0) {
    vec2 cell = floor(v_world.xz / v_pattern);
    base *= 0.82 + 0.18 * mod(cell.x + cell.y, 2.0);
  }
  float diffuse = max(dot(n, light), 0.0);
  vec3 to_eye = normalize(eye - v_world);
  // x^32 by squaring: pow() costs llvmpipe an exp and a log per fragment.
  float specular = max(dot(n, normalize(light + to_eye)), 0.0);
  specular *= specular;
  specular *= specular;
  specular *= specular;
  specular *= specular;
  specular *= specular;
  vec3 lit = base * (0.35 + 0.65 * diffuse) + vec3(0.25) * specular;
  vec3 colour = mix(lit, base, clamp(v_emissive, 0.0, 1.0));
  float fog = clamp((distance(eye, v_world) - fog_range.x) / (fog_range.y - fog_range.x), 0.0, 1.0);
  frag = vec4(mix(colour, fog_colour, fog), 1.0);
}
)";

}  // namespace

void MeshRenderer::setup() {
  program_ = apps::build_program(kGameVertex, kGameFragment);
  u_view_projection_ = glGetUniformLocation(program_, "view_projection");
  u_eye_ = glGetUniformLocation(program_, "eye");
  u_light_ = glGetUniformLocation(program_, "light");
  u_fog_colour_ = glGetUniformLocation(program_, "fog_colour");
  u_fog_range_ = glGetUniformLocation(program_, "fog_range");
  glGenBuffers(1, &instance_buffer_);
}

MeshRenderer::MeshId MeshRenderer::add_mesh(const MeshData& data) {
  Mesh m;
  m.count = data.vertex_count();
  glGenVertexArrays(1, &m.vao);
  glBindVertexArray(m.vao);
  glGenBuffers(1, &m.vertices);
  glBindBuffer(GL_ARRAY_BUFFER, m.vertices);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(float)),
               data.vertices.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  // The instance attributes read the one shared instance buffer, refilled before each draw.
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  for (GLuint a = 0; a < 3; ++a) {
    glVertexAttribPointer(2 + a, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                          reinterpret_cast<void*>(static_cast<std::size_t>(a) * 4 * sizeof(float)));
    glEnableVertexAttribArray(2 + a);
    glVertexAttribDivisor(2 + a, 1);
  }
  glBindVertexArray(0);
  meshes_.push_back(m);
  return static_cast<MeshId>(meshes_.size() - 1);
}

void MeshRenderer::add_model_meshes(float detail) {
  model_meshes_[static_cast<int>(MeshKind::box)] = add_mesh(box_mesh());
  model_meshes_[static_cast<int>(MeshKind::cylinder)] = add_mesh(cylinder_mesh(segments_for(detail, 12)));
  model_meshes_[static_cast<int>(MeshKind::cone)] = add_mesh(cone_mesh(segments_for(detail, 12)));
  model_meshes_[static_cast<int>(MeshKind::sphere)] =
      add_mesh(sphere_mesh(segments_for(detail, 16), segments_for(detail, 10)));
}

void MeshRenderer::draw_models() {
  for (int k = 0; k < 4; ++k) {
    draw(model_meshes_[k], batches_[k]);
    batches_[k].clear();
  }
}

void MeshRenderer::begin(const Mat4& view_projection, Vec3 eye, const Lighting& lighting) {
  glUseProgram(program_);
  glUniformMatrix4fv(u_view_projection_, 1, GL_FALSE, view_projection.m);
  glUniform3f(u_eye_, eye.x, eye.y, eye.z);
  const Vec3 l = normalize(lighting.light_direction);
  glUniform3f(u_light_, l.x, l.y, l.z);
  glUniform3f(u_fog_colour_, lighting.fog_colour.x, lighting.fog_colour.y, lighting.fog_colour.z);
  glUniform2f(u_fog_range_, lighting.fog_start, lighting.fog_end);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
}

void MeshRenderer::draw(MeshId id, const std::vector<Instance>& instances) {
  if (instances.empty() || id < 0 || id >= static_cast<MeshId>(meshes_.size())) return;
  const Mesh& m = meshes_[static_cast<std::size_t>(id)];
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)), instances.data(),
               GL_STREAM_DRAW);
  glBindVertexArray(m.vao);
  glDrawArraysInstanced(GL_TRIANGLES, 0, m.count, static_cast<GLsizei>(instances.size()));
  glBindVertexArray(0);
}

void MeshRenderer::teardown() {
  for (auto& m : meshes_) {
    glDeleteBuffers(1, &m.vertices);
    glDeleteVertexArrays(1, &m.vao);
  }
  meshes_.clear();
  glDeleteBuffers(1, &instance_buffer_);
  glDeleteProgram(program_);
}

}  // namespace pictor::game
