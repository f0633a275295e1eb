// The drawing kit the mark stages share: instanced screen-space quads ("sprites") whose fragment
// shader draws one of a few shapes, so N elements cost O(N) GPU work in one draw call.
#pragma once
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace pictor::mark::stages {

// One element as the GPU sees it (4 × vec4 per instance). Positions in stage pixels, y down.
struct Sprite {
  float cx = 0, cy = 0;      // centre
  float hx = 0, hy = 0;      // half extents of the quad
  float rotation = 0;        // radians, clockwise on screen
  float p0 = 0, p1 = 0, p2 = 0;  // shape parameters (meaning per shape)
  float r = 1, g = 1, b = 1, a = 1;  // colour (straight alpha)
  float q0 = 0, q1 = 0, q2 = 0, q3 = 0;  // more shape parameters / second colour / texture rect
};
static_assert(sizeof(Sprite) == 16 * sizeof(float), "Sprite is 4 vec4 attributes");

// What the fragment shader draws inside each quad.
enum class Shape : int {
  RoundedRect = 0,  // p0 = corner radius (px)
  Arc = 1,          // p0 = start angle, p1 = sweep (rad), p2 = stroke width (px; 0 = filled wedge)
  Capsule = 2,      // a thick line along x: hx = half length + half width, hy = half width
  SoftDisk = 3,     // p0 = blur radius (px): a disk of radius hx − p0 with a blurred edge
  Textured = 4,     // q0..q3 = texture rect (u0, v0, u1, v1); colour multiplies the texel
  TexturedAlpha = 5,  // as Textured, texel's red channel is coverage (glyph atlases)
  Suit = 6,         // p0 = suit 0..3 (clip shape); q0..q2 = second colour; p1 = gradient angle
};

class SpriteRenderer {
 public:
  explicit SpriteRenderer(Size stage_size);
  ~SpriteRenderer();
  SpriteRenderer(const SpriteRenderer&) = delete;
  SpriteRenderer& operator=(const SpriteRenderer&) = delete;

  Size size() const { return size_; }
  // Clears the stage to a colour.
  void clear(float r, float g, float b);
  // A full-stage vertical gradient from `top` to `bottom` (RGB).
  void gradient_background(const float top[3], const float bottom[3]);
  // Draws the sprites with alpha blending in one instanced call; `texture` is used by the
  // Textured shapes (GL texture name, 0 for none).
  void draw(Shape shape, const std::vector<Sprite>& sprites, unsigned texture = 0);

 private:
  Size size_;
  unsigned program_ = 0, vao_ = 0, quad_vbo_ = 0, instance_vbo_ = 0;
  int u_stage_ = -1, u_shape_ = -1, u_texture_ = -1;
  unsigned bg_program_ = 0, bg_vao_ = 0;
  int u_top_ = -1, u_bottom_ = -1;
};

// Creates an RGBA8 texture from pixels (row 0 = top); linear filtering, clamped.
unsigned make_texture(int width, int height, const std::vector<uint8_t>& rgba);
void delete_texture(unsigned texture);

// HSL (h in degrees, s and l in 0..1) to RGB, for the scenes' colour cycling.
void hsl_to_rgb(double h, double s, double l, float& r, float& g, float& b);

}  // namespace pictor::mark::stages
