// Ground-truth projection: analytic cases, clipping at the near plane and at the window.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/game/projection.h"

using namespace pictor::game;

namespace {

// A camera at the origin looking down −z with a 90° vertical field of view, square window.
Mat4 square_camera() {
  Camera c;
  c.eye = {0, 0, 0};
  c.target = {0, 0, -1};
  c.fovy = kPi / 2;
  c.near_z = 0.1f;
  c.far_z = 100;
  return c.view_projection(1.0f);
}

}  // namespace

TEST(Projection, CubeStraightAheadIsCentredWithTheExpectedSize) {
  // The front face (z = −4.5, half size 0.5) spans ±0.5/4.5 in NDC: ±5.556 px of a 100 px window.
  const auto b = project_box(square_camera(), {{0, 0, -5}, {0.5f, 0.5f, 0.5f}, 0}, 100, 100);
  ASSERT_TRUE(b.has_value());
  const float half = 50.0f * 0.5f / 4.5f;
  EXPECT_NEAR(b->x0, 50 - half, 1e-3);
  EXPECT_NEAR(b->x1, 50 + half, 1e-3);
  EXPECT_NEAR(b->y0, 50 - half, 1e-3);
  EXPECT_NEAR(b->y1, 50 + half, 1e-3);
}

TEST(Projection, WindowYGrowsDownwards) {
  const auto above = project_box(square_camera(), {{0, 2, -5}, {0.2f, 0.2f, 0.2f}, 0}, 100, 100);
  ASSERT_TRUE(above.has_value());
  EXPECT_LT(above->y1, 50.0f) << "a box above the view axis is in the upper half of the window";
  const auto right = project_box(square_camera(), {{2, 0, -5}, {0.2f, 0.2f, 0.2f}, 0}, 100, 100);
  ASSERT_TRUE(right.has_value());
  EXPECT_GT(right->x0, 50.0f);
}

TEST(Projection, YawTurnsTheBox) {
  // A long thin box turned 90° about y is as wide on screen as it was deep.
  const OrientedBox along_z{{0, 0, -10}, {0.1f, 0.1f, 2.0f}, 0};
  OrientedBox along_x = along_z;
  along_x.yaw = kPi / 2;
  const auto a = project_box(square_camera(), along_z, 100, 100, 0.0f);
  const auto b = project_box(square_camera(), along_x, 100, 100, 0.0f);
  ASSERT_TRUE(a && b);
  EXPECT_LT(a->width(), 3.0f);
  EXPECT_GT(b->width(), 15.0f);
  const Vec3 h = rotate_yaw({0, 0, 1}, 0.3f);
  EXPECT_NEAR(h.x, std::sin(0.3f), 1e-6);
  EXPECT_NEAR(h.z, std::cos(0.3f), 1e-6);
}

TEST(Projection, BehindOrOutsideGivesNothing) {
  EXPECT_FALSE(project_box(square_camera(), {{0, 0, 5}, {0.5f, 0.5f, 0.5f}, 0}, 100, 100).has_value());
  EXPECT_FALSE(project_box(square_camera(), {{50, 0, -5}, {0.5f, 0.5f, 0.5f}, 0}, 100, 100).has_value());
  // Too small: a 1 cm cube 50 m away.
  EXPECT_FALSE(project_box(square_camera(), {{0, 0, -50}, {0.005f, 0.005f, 0.005f}, 0}, 100, 100).has_value());
}

TEST(Projection, BoxThroughTheNearPlaneIsClippedToTheWindow) {
  // A box around the camera reaching ahead of it: its visible part fills the window.
  const auto b = project_box(square_camera(), {{0, 0, -1}, {3, 3, 3}, 0}, 100, 100);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->x0, 0.0f);
  EXPECT_EQ(b->y0, 0.0f);
  EXPECT_EQ(b->x1, 100.0f);
  EXPECT_EQ(b->y1, 100.0f);
  // A wall to the right that starts behind the camera: clipped at the near plane, it reaches
  // from the right edge of the window inwards, not across the whole window.
  const auto wall = project_box(square_camera(), {{3, 0, -2}, {0.1f, 1, 4}, 0}, 100, 100);
  ASSERT_TRUE(wall.has_value());
  EXPECT_EQ(wall->x1, 100.0f);
  EXPECT_GT(wall->x0, 50.0f);
}

TEST(Projection, PointAndCameraRayAgree) {
  Camera c;
  c.eye = {3, 20, 10};
  c.target = {1, 0, -2};
  const Mat4 vp = c.view_projection(1280.0f / 720.0f);
  for (const Vec2 px : {Vec2{640, 360}, Vec2{10, 20}, Vec2{1200, 700}}) {
    Vec3 o, d;
    c.ray(px.x, px.y, 1280, 720, o, d);
    const Vec3 on_ray = o + d * 15.0f;
    const auto back = project_point(vp, on_ray, 1280, 720);
    ASSERT_TRUE(back.has_value());
    EXPECT_NEAR(back->x, px.x, 0.05);
    EXPECT_NEAR(back->y, px.y, 0.05);
  }
}
