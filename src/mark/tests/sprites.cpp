#include "mark/tests/sprites.h"

#include "apps/gl_util.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <cmath>
#include <string>

#include "core/error.h"

namespace pictor::mark::stages {
namespace {

const char* kVertex = R"(#version 330 core
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 i_box;     // cx, cy, hx, hy
layout(location = 2) in vec4 i_shape;   // rotation, p0, p1, p2
layout(location = 3) in vec4 i_color;
layout(location = 4) in vec4 i_extra;
uniform vec2 u_stage;
out vec2 v_local;
out vec2 v_uv;
flat out vec4 v_box;
flat out vec4 v_shape;
flat out vec4 v_color;
flat out vec4 v_extra;
void main() {
  vec2 local = a_corner * i_box.zw;
  float c = cos(i_shape.x), s = sin(i_shape.x);
  vec2 p = i_box.xy + vec2(c * local.x - s * local.y, s * local.x + c * local.y);
  gl_Position = vec4(p.x / u_stage.x * 2.0 - 1.0, 1.0 - p.y / u_stage.y * 2.0, 0.0, 1.0);
  v_local = local;
  v_uv = mix(i_extra.xy, i_extra.zw, a_corner * 0.5 + 0.5);
  v_box = i_box;
  v_shape = i_shape;
  v_color = i_color;
  v_extra = i_extra;
}
)";

const char* kFragment = R"(#version 330 core
in vec2 v_local;
in vec2 v_uv;
flat in vec4 v_box;
flat in vec4 v_shape;
flat in vec4 v_color;
flat in vec4 v_extra;
uniform int u_shape;
uniform sampler2D u_texture;
out vec4 o_color;
const float PI = 3.14159265358979;

float coverage(float d) { return clamp(0.5 - d, 0.0, 1.0); }  // d: signed distance in px

float rounded_rect(vec2 p, vec2 half_size, float r) {
  vec2 q = abs(p) - half_size + vec2(r);
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

float suit(vec2 p, float kind, float size) {
  vec2 u = p / size;  // about -1..1, y down
  float d;
  if (kind < 0.5) {          // diamond
    d = (abs(u.x) * 0.8 + abs(u.y)) - 0.9;
  } else if (kind < 1.5) {   // heart
    vec2 a = vec2(abs(u.x) - 0.42, u.y + 0.3);
    float lobes = length(a) - 0.45;
    float tip = max(abs(u.x) * 1.1 + u.y * 0.9 - 0.75, -u.y - 0.3);
    d = min(lobes, tip);
  } else if (kind < 2.5) {   // spade
    vec2 a = vec2(abs(u.x) - 0.4, u.y - 0.05);
    float lobes = length(a) - 0.42;
    float tip = max(abs(u.x) * 1.1 - u.y * 0.9 - 0.75, u.y - 0.05);
    float stem = max(abs(u.x) - 0.12 - (u.y - 0.3) * 0.4, max(u.y - 0.95, 0.3 - u.y));
    d = min(min(lobes, tip), stem);
  } else {                   // club
    float c1 = length(u - vec2(0.0, -0.45)) - 0.36;
    float c2 = length(vec2(abs(u.x) - 0.42, u.y - 0.12)) - 0.36;
    float stem = max(abs(u.x) - 0.1 - (u.y - 0.2) * 0.4, max(u.y - 0.95, 0.1 - u.y));
    d = min(min(c1, c2), stem);
  }
  return d * size;
}

void main() {
  vec4 color = v_color;
  float a = 1.0;
  if (u_shape == 0) {
    a = coverage(rounded_rect(v_local, v_box.zw, v_shape.y));
  } else if (u_shape == 1) {
    float radius = min(v_box.z, v_box.w);
    float r = length(v_local);
    float angle = mod(atan(v_local.y, v_local.x) - v_shape.y, 2.0 * PI);
    if (angle > v_shape.z) discard;
    if (v_shape.w > 0.0)
      a = coverage(abs(r - (radius - v_shape.w * 0.5)) - v_shape.w * 0.5);
    else
      a = coverage(r - radius);
  } else if (u_shape == 2) {
    float w = v_box.w;
    vec2 q = vec2(max(abs(v_local.x) - (v_box.z - w), 0.0), v_local.y);
    a = coverage(length(q) - w);
  } else if (u_shape == 3) {
    float blur = max(v_shape.y, 0.5);
    float radius = v_box.z - blur;
    a = 1.0 - smoothstep(radius - blur, radius + blur, length(v_local));
  } else if (u_shape == 4) {
    color *= texture(u_texture, v_uv);
    a = 1.0;
  } else if (u_shape == 5) {
    a = texture(u_texture, v_uv).r;
  } else if (u_shape == 6) {
    float size = min(v_box.z, v_box.w);
    a = coverage(suit(v_local, v_shape.y, size));
    vec2 dir = vec2(cos(v_shape.z), sin(v_shape.z));
    float t = clamp(dot(v_local / size, dir) * 0.5 + 0.5, 0.0, 1.0);
    color = vec4(mix(v_color.rgb, v_extra.rgb, t), v_color.a);
  }
  if (a <= 0.0) discard;
  o_color = vec4(color.rgb, color.a * a);
}
)";

const char* kBackgroundVertex = R"(#version 330 core
out float v_y;
void main() {
  vec2 p = vec2((gl_VertexID & 1) * 2 - 1, (gl_VertexID >> 1) * 2 - 1);
  v_y = p.y * -0.5 + 0.5;
  gl_Position = vec4(p, 0.0, 1.0);
}
)";

const char* kBackgroundFragment = R"(#version 330 core
in float v_y;
uniform vec3 u_top;
uniform vec3 u_bottom;
out vec4 o_color;
void main() { o_color = vec4(mix(u_top, u_bottom, v_y), 1.0); }
)";

}  // namespace

SpriteRenderer::SpriteRenderer(Size stage_size) : size_(stage_size) {
  program_ = apps::build_program(kVertex, kFragment);
  u_stage_ = glGetUniformLocation(program_, "u_stage");
  u_shape_ = glGetUniformLocation(program_, "u_shape");
  u_texture_ = glGetUniformLocation(program_, "u_texture");
  glGenVertexArrays(1, &vao_);
  glBindVertexArray(vao_);
  const float corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glGenBuffers(1, &instance_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  for (unsigned i = 0; i < 4; ++i) {
    glEnableVertexAttribArray(1 + i);
    glVertexAttribPointer(1 + i, 4, GL_FLOAT, GL_FALSE, sizeof(Sprite),
                          reinterpret_cast<const void*>(static_cast<uintptr_t>(i * 4 * sizeof(float))));
    glVertexAttribDivisor(1 + i, 1);
  }
  glBindVertexArray(0);
  bg_program_ = apps::build_program(kBackgroundVertex, kBackgroundFragment);
  u_top_ = glGetUniformLocation(bg_program_, "u_top");
  u_bottom_ = glGetUniformLocation(bg_program_, "u_bottom");
  glGenVertexArrays(1, &bg_vao_);
  glViewport(0, 0, size_.width, size_.height);
}

SpriteRenderer::~SpriteRenderer() {
  glDeleteBuffers(1, &instance_vbo_);
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteVertexArrays(1, &bg_vao_);
  glDeleteProgram(program_);
  glDeleteProgram(bg_program_);
}

void SpriteRenderer::clear(float r, float g, float b) {
  glClearColor(r, g, b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
}

void SpriteRenderer::gradient_background(const float top[3], const float bottom[3]) {
  glDisable(GL_BLEND);
  glUseProgram(bg_program_);
  glUniform3fv(u_top_, 1, top);
  glUniform3fv(u_bottom_, 1, bottom);
  glBindVertexArray(bg_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

void SpriteRenderer::draw(Shape shape, const std::vector<Sprite>& sprites, unsigned texture) {
  if (sprites.empty()) return;
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(program_);
  glUniform2f(u_stage_, static_cast<float>(size_.width), static_cast<float>(size_.height));
  glUniform1i(u_shape_, static_cast<int>(shape));
  glUniform1i(u_texture_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  // Orphan the buffer every frame so the driver never waits for the previous frame's draw.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(sprites.size() * sizeof(Sprite)), sprites.data(),
               GL_STREAM_DRAW);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(sprites.size()));
  glBindVertexArray(0);
}

unsigned make_texture(int width, int height, const std::vector<uint8_t>& rgba) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return tex;
}

void delete_texture(unsigned texture) {
  GLuint t = texture;
  if (t) glDeleteTextures(1, &t);
}

void hsl_to_rgb(double h, double s, double l, float& r, float& g, float& b) {
  h = std::fmod(std::fmod(h, 360.0) + 360.0, 360.0) / 360.0;
  const double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const double p = 2 * l - q;
  const auto channel = [&](double t) {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1.0 / 6) return p + (q - p) * 6 * t;
    if (t < 1.0 / 2) return q;
    if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
    return p;
  };
  r = static_cast<float>(channel(h + 1.0 / 3));
  g = static_cast<float>(channel(h));
  b = static_cast<float>(channel(h - 1.0 / 3));
}

}  // namespace pictor::mark::stages
