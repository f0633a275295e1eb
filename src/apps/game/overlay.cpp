#include "apps/game/overlay.h"

#include "apps/gl_util.h"

namespace pictor::game {

namespace {

const char* kOverlayVertex = R"(#version 330 core
layout(location = 0) in vec2 corner;     // 0…1
layout(location = 1) in vec4 rect;       // x y w h in window pixels, origin top-left
layout(location = 2) in vec4 colour;
uniform vec2 window;
out vec4 v_colour;
void main() {
  vec2 p = rect.xy + corner * rect.zw;
  gl_Position = vec4(p.x / window.x * 2.0 - 1.0, 1.0 - p.y / window.y * 2.0, 0.0, 1.0);
  v_colour = colour;
}
)";

const char* kOverlayFragment = R"(#version 330 core
in vec4 v_colour;
out vec4 frag;
void main() { frag = v_colour; }
)";

// Segments a…g of a seven-segment digit, bit 0 = a (top), clockwise, g = middle.
constexpr unsigned char kDigits[10] = {0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f};

}  // namespace

void Overlay::setup() {
  program_ = apps::build_program(kOverlayVertex, kOverlayFragment);
  u_window_ = glGetUniformLocation(program_, "window");
  glGenVertexArrays(1, &vao_);
  glBindVertexArray(vao_);
  const float corners[12] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
  glGenBuffers(1, &quad_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  glEnableVertexAttribArray(0);
  glGenBuffers(1, &instances_);
  glBindBuffer(GL_ARRAY_BUFFER, instances_);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), nullptr);
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), reinterpret_cast<void*>(4 * sizeof(float)));
  for (GLuint a = 1; a <= 2; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  glBindVertexArray(0);
}

void Overlay::rect(float x, float y, float w, float h, Rgba c) {
  rects_.insert(rects_.end(), {x, y, w, h, c.r, c.g, c.b, c.a});
}

void Overlay::frame(float x, float y, float w, float h, float t, Rgba c) {
  rect(x, y, w, t, c);
  rect(x, y + h - t, w, t, c);
  rect(x, y + t, t, h - 2 * t, c);
  rect(x + w - t, y + t, t, h - 2 * t, c);
}

void Overlay::number(long long value, float right_x, float y, float height, Rgba c) {
  if (value < 0) value = 0;
  const float w = height * 0.5f, t = height * 0.12f, gap = height * 0.2f;
  float x = right_x - w;
  do {
    const unsigned bits = kDigits[value % 10];
    const float half = height / 2;
    if (bits & 0x01) rect(x, y, w, t, c);                          // a
    if (bits & 0x02) rect(x + w - t, y, t, half, c);               // b
    if (bits & 0x04) rect(x + w - t, y + half, t, half, c);        // c
    if (bits & 0x08) rect(x, y + height - t, w, t, c);             // d
    if (bits & 0x10) rect(x, y + half, t, half, c);                // e
    if (bits & 0x20) rect(x, y, t, half, c);                       // f
    if (bits & 0x40) rect(x, y + half - t / 2, w, t, c);           // g
    x -= w + gap;
    value /= 10;
  } while (value > 0);
}

void Overlay::flush(int window_width, int window_height) {
  if (rects_.empty()) return;
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(program_);
  glUniform2f(u_window_, static_cast<float>(window_width), static_cast<float>(window_height));
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, instances_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(rects_.size() * sizeof(float)), rects_.data(),
               GL_STREAM_DRAW);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(rects_.size() / 8));
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  rects_.clear();
}

void Overlay::teardown() {
  glDeleteBuffers(1, &quad_);
  glDeleteBuffers(1, &instances_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteProgram(program_);
}

}  // namespace pictor::game
