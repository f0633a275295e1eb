// Small vector and matrix types for the built-in games: the simulation, the ground-truth
// projection and the renderer share them, so what is drawn and what is labelled cannot drift.
#pragma once
#include <cmath>

namespace pictor::game {

struct Vec2 {
  float x = 0, y = 0;
};

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 operator*(float s, Vec3 a) { return a * s; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalize(Vec3 a) {
  const float l = length(a);
  return l > 0 ? a * (1.0f / l) : a;
}
// Distance in the ground plane (x, z): the games' collision tests are all 2-D.
inline float ground_distance(Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.z - b.z); }

constexpr float kPi = 3.14159265358979f;

// Column-major 4×4 matrix, as OpenGL takes it (m[column * 4 + row]).
struct Mat4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

  Vec4 operator*(Vec4 v) const {
    return {m[0] * v.x + m[4] * v.y + m[8] * v.z + m[12] * v.w,
            m[1] * v.x + m[5] * v.y + m[9] * v.z + m[13] * v.w,
            m[2] * v.x + m[6] * v.y + m[10] * v.z + m[14] * v.w,
            m[3] * v.x + m[7] * v.y + m[11] * v.z + m[15] * v.w};
  }
  Mat4 operator*(const Mat4& b) const {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
      for (int row = 0; row < 4; ++row) {
        float s = 0;
        for (int k = 0; k < 4; ++k) s += m[k * 4 + row] * b.m[c * 4 + k];
        r.m[c * 4 + row] = s;
      }
    return r;
  }
};

// Right-handed perspective projection (gluPerspective): fovy in radians.
inline Mat4 perspective(float fovy, float aspect, float near_z, float far_z) {
  const float f = 1.0f / std::tan(fovy / 2);
  Mat4 r;
  r.m[0] = f / aspect;
  r.m[5] = f;
  r.m[10] = (far_z + near_z) / (near_z - far_z);
  r.m[11] = -1;
  r.m[14] = 2 * far_z * near_z / (near_z - far_z);
  r.m[15] = 0;
  return r;
}

// View matrix of a camera at `eye` looking at `target` (gluLookAt).
inline Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
  const Vec3 f = normalize(target - eye);
  const Vec3 s = normalize(cross(f, up));
  const Vec3 u = cross(s, f);
  Mat4 r;
  r.m[0] = s.x;
  r.m[4] = s.y;
  r.m[8] = s.z;
  r.m[1] = u.x;
  r.m[5] = u.y;
  r.m[9] = u.z;
  r.m[2] = -f.x;
  r.m[6] = -f.y;
  r.m[10] = -f.z;
  r.m[12] = -dot(s, eye);
  r.m[13] = -dot(u, eye);
  r.m[14] = dot(f, eye);
  return r;
}

// A camera as the games keep it: where it is and where it looks, plus the lens.
struct Camera {
  Vec3 eye;
  Vec3 target;
  float fovy = 1.0f;  // radians
  float near_z = 0.3f;
  float far_z = 400.0f;

  Mat4 view_projection(float aspect) const {
    return perspective(fovy, aspect, near_z, far_z) * look_at(eye, target, {0, 1, 0});
  }
  // The world-space ray through window pixel (px, py) (origin top-left) of a width×height window.
  void ray(float px, float py, float width, float height, Vec3& origin, Vec3& direction) const {
    const Vec3 f = normalize(target - eye);
    const Vec3 s = normalize(cross(f, {0, 1, 0}));
    const Vec3 u = cross(s, f);
    const float th = std::tan(fovy / 2);
    const float nx = (2 * px / width - 1) * th * (width / height);
    const float ny = (1 - 2 * py / height) * th;
    origin = eye;
    direction = normalize(f + s * nx + u * ny);
  }
};

}  // namespace pictor::game
