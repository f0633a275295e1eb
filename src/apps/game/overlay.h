// The games' 2-D overlay (HUD): translucent rectangles in window pixels and seven-segment
// numbers, collected during a frame and drawn in one instanced call on top of the 3-D scene.
#pragma once
#include <GL/gl.h>
#include <GL/glext.h>

#include <vector>

namespace pictor::game {

struct Rgba {
  float r = 1, g = 1, b = 1, a = 1;
};

class Overlay {
 public:
  void setup();  // GL context current; throws pictor::RunError on a shader error
  // Rectangle with its top-left corner at (x, y), window pixels, origin top-left.
  void rect(float x, float y, float w, float h, Rgba colour);
  // Outline of a rectangle, `thickness` pixels wide, inside its bounds.
  void frame(float x, float y, float w, float h, float thickness, Rgba colour);
  // A non-negative integer in seven-segment digits, `height` pixels tall, right-aligned at x.
  void number(long long value, float right_x, float y, float height, Rgba colour);
  // Draws what was collected, over everything, and forgets it.
  void flush(int window_width, int window_height);
  void teardown();

 private:
  std::vector<float> rects_;  // x y w h r g b a per rectangle
  GLuint program_ = 0, vao_ = 0, quad_ = 0, instances_ = 0;
  GLint u_window_ = -1;
};

}  // namespace pictor::game
