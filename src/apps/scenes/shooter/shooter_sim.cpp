#include "apps/scenes/shooter/shooter_sim.h"

#include <X11/keysym.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pictor::shooter {

using game::OrientedBox;
using game::Vec3;

namespace {

constexpr float kMoveSpeed = 6.0f;            // m/s
constexpr float kMouseTurn = 0.005f;          // radians per pixel of pointer motion
constexpr float kEdgeTurn = 1.6f;             // rad/s while the pointer rests at a window edge
constexpr float kPlayerRadius = 0.4f;
constexpr float kVisibleDistance = 90.0f;     // the fog hides anything farther (see the view)
constexpr int kRespawnSteps = 90;
constexpr int kFlashSteps = 6, kHitMarkerSteps = 12, kHurtFlashSteps = 15;

int scaled(float detail, float base, int minimum) {
  return std::max(minimum, static_cast<int>(std::lround(base * detail)));
}

}  // namespace

std::optional<float> ray_box(Vec3 origin, Vec3 direction, const OrientedBox& box) {
  const Vec3 o = game::rotate_yaw(origin - box.centre, -box.yaw);
  const Vec3 d = game::rotate_yaw(direction, -box.yaw);
  float t0 = 0, t1 = std::numeric_limits<float>::infinity();
  const float os[3] = {o.x, o.y, o.z}, ds[3] = {d.x, d.y, d.z}, hs[3] = {box.half.x, box.half.y, box.half.z};
  for (int a = 0; a < 3; ++a) {
    if (std::fabs(ds[a]) < 1e-8f) {
      if (os[a] < -hs[a] || os[a] > hs[a]) return std::nullopt;
      continue;
    }
    float near_t = (-hs[a] - os[a]) / ds[a], far_t = (hs[a] - os[a]) / ds[a];
    if (near_t > far_t) std::swap(near_t, far_t);
    t0 = std::max(t0, near_t);
    t1 = std::min(t1, far_t);
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

ShooterSim::ShooterSim(const game::GameSetup& setup) : GameSim(setup), rng_(setup.seed) {
  const float a = kArenaHalf;
  walls_ = {{{0, 2.5f, a + 0.5f}, {a + 1, 2.5f, 0.5f}, 0},
            {{0, 2.5f, -a - 0.5f}, {a + 1, 2.5f, 0.5f}, 0},
            {{a + 0.5f, 2.5f, 0}, {0.5f, 2.5f, a + 1}, 0},
            {{-a - 0.5f, 2.5f, 0}, {0.5f, 2.5f, a + 1}, 0}};
  const int pillars = scaled(setup.detail, 16, 4);
  for (int i = 0, attempts = 0; i < pillars && attempts < 1000; ++attempts) {
    OrientedBox b{{rng_.range(-a + 4, a - 4), 0, rng_.range(-a + 4, a - 4)},
                  {rng_.range(0.8f, 2.4f), rng_.range(2.0f, 4.0f), rng_.range(0.8f, 2.4f)},
                  rng_.range(0.0f, game::kPi)};
    b.centre.y = b.half.y;
    if (std::hypot(b.centre.x, b.centre.z) < 7.0f) continue;  // keep the start clear
    pillars_.push_back(b);
    ++i;
  }
  position_ = {0, 0, 0};
  const int enemies = scaled(setup.detail, 8, 2);
  for (int i = 0; i < enemies; ++i) {
    Enemy e;
    e.position = spawn_point(15.0f);
    e.speed = rng_.range(1.6f, 3.0f);
    e.phase = rng_.range(0.0f, 2 * game::kPi);
    enemies_.push_back(e);
  }
  for (int i = 0; i < 3; ++i) pickups_.push_back({spawn_point(8.0f)});
}

Vec3 ShooterSim::spawn_point(float min_distance) {
  const float a = kArenaHalf - 3;
  Vec3 p{a, 0, a};
  for (int attempt = 0; attempt < 64; ++attempt) {
    const Vec3 c{rng_.range(-a, a), 0, rng_.range(-a, a)};
    if (game::ground_distance(c, position_) < min_distance) continue;
    bool inside = false;
    for (const auto& b : pillars_) {
      const Vec3 l = game::rotate_yaw(c - b.centre, -b.yaw);
      inside = inside || (std::fabs(l.x) < b.half.x + 1.0f && std::fabs(l.z) < b.half.z + 1.0f);
    }
    if (inside) continue;
    p = c;
    break;
  }
  return p;
}

Vec3 ShooterSim::push_out(Vec3 p, float radius) const {
  for (const auto& b : pillars_) {
    Vec3 l = game::rotate_yaw(p - b.centre, -b.yaw);
    const float hx = b.half.x + radius, hz = b.half.z + radius;
    if (std::fabs(l.x) >= hx || std::fabs(l.z) >= hz) continue;
    // Out along the axis of least penetration.
    if (hx - std::fabs(l.x) < hz - std::fabs(l.z)) l.x = std::copysign(hx, l.x);
    else l.z = std::copysign(hz, l.z);
    const Vec3 w = game::rotate_yaw(l, b.yaw) + b.centre;
    p.x = w.x;
    p.z = w.z;
  }
  const float limit = kArenaHalf - radius;
  p.x = std::clamp(p.x, -limit, limit);
  p.z = std::clamp(p.z, -limit, limit);
  return p;
}

Vec3 ShooterSim::forward() const {
  return {std::sin(yaw_) * std::cos(pitch_), std::sin(pitch_), std::cos(yaw_) * std::cos(pitch_)};
}

float ShooterSim::obstacle_distance(Vec3 origin, Vec3 direction) const {
  float best = std::numeric_limits<float>::infinity();
  for (const auto* list : {&pillars_, &walls_})
    for (const auto& b : *list)
      if (auto t = ray_box(origin, direction, b)) best = std::min(best, *t);
  return best;
}

bool ShooterSim::in_sight(Vec3 eye, Vec3 p) const {
  const Vec3 d = p - eye;
  const float dist = game::length(d);
  return dist < kVisibleDistance && obstacle_distance(eye, d * (1.0f / dist)) > dist;
}

std::vector<std::string> ShooterSim::state_columns() const {
  return {"score", "hits", "shots", "damage_taken", "health", "deaths", "enemies", "yaw_deg", "x", "z"};
}

std::vector<std::string> ShooterSim::state_values() const {
  int alive = 0;
  for (const auto& e : enemies_) alive += e.alive ? 1 : 0;
  return {std::to_string(score_),  std::to_string(hits_),   std::to_string(shots_),
          std::to_string(damage_taken_), std::to_string(health_), std::to_string(deaths_),
          std::to_string(alive),   game::fixed(yaw_ * 180.0 / game::kPi, 1),
          game::fixed(position_.x, 2), game::fixed(position_.z, 2)};
}

void ShooterSim::input(const platform::InputEvent& e) {
  using Kind = platform::InputEvent::Kind;
  switch (e.kind) {
    case Kind::motion:
      // Relative aim from pointer motion (the view turns in the next frame); a pointer resting
      // at a window edge keeps turning in step().
      if (has_pointer_) {
        yaw_ -= static_cast<float>(e.x - pointer_x_) * kMouseTurn;
        pitch_ = std::clamp(pitch_ - static_cast<float>(e.y - pointer_y_) * kMouseTurn, -1.2f, 1.2f);
      }
      has_pointer_ = true;
      pointer_x_ = e.x;
      pointer_y_ = e.y;
      break;
    case Kind::button_down:
      if (e.code == 1) fire();
      break;
    case Kind::key_down:
    case Kind::key_up: {
      const bool down = e.kind == Kind::key_down;
      const unsigned codes[4] = {XK_w, XK_a, XK_s, XK_d};
      for (int i = 0; i < 4; ++i)
        if (e.code == codes[i]) keys_[i] = down;
      break;
    }
    default:
      break;
  }
}

void ShooterSim::fire() {
  ++shots_;
  flash_ = kFlashSteps;
  const Vec3 eye = camera().eye, dir = forward();
  const float wall = obstacle_distance(eye, dir);
  int target = -1;
  float best = wall;
  for (std::size_t i = 0; i < enemies_.size(); ++i) {
    if (!enemies_[i].alive) continue;
    if (auto t = ray_box(eye, dir, enemy_box(enemies_[i])); t && *t < best) {
      best = *t;
      target = static_cast<int>(i);
    }
  }
  if (target < 0) return;
  Enemy& e = enemies_[static_cast<std::size_t>(target)];
  e.alive = false;
  e.respawn_steps = kRespawnSteps;
  ++hits_;
  score_ += 100;
  hit_marker_ = kHitMarkerSteps;
  event("hit", "enemy " + std::to_string(target));
}

void ShooterSim::step() {
  ++steps_;
  const float dt = kStep;
  const Vec3 fwd{std::sin(yaw_), 0, std::cos(yaw_)}, right{-std::cos(yaw_), 0, std::sin(yaw_)};
  Vec3 move = fwd * static_cast<float>(keys_[0] - keys_[2]) + right * static_cast<float>(keys_[3] - keys_[1]);
  if (game::length(move) > 0) position_ = push_out(position_ + game::normalize(move) * (kMoveSpeed * dt), kPlayerRadius);
  if (has_pointer_) {
    const float w = static_cast<float>(setup_.width);
    if (static_cast<float>(pointer_x_) < 0.04f * w) yaw_ += kEdgeTurn * dt;
    if (static_cast<float>(pointer_x_) > 0.96f * w) yaw_ -= kEdgeTurn * dt;
  }

  for (std::size_t i = 0; i < enemies_.size(); ++i) {
    Enemy& e = enemies_[i];
    if (!e.alive) {
      if (--e.respawn_steps <= 0) {
        e.alive = true;
        e.position = spawn_point(15.0f);
      }
      continue;
    }
    const Vec3 to = position_ - e.position;
    const float dist = std::hypot(to.x, to.z);
    if (dist < 1.2f) {
      health_ -= 10;
      ++damage_taken_;
      score_ -= 50;
      hurt_flash_ = kHurtFlashSteps;
      event("hurt", "enemy " + std::to_string(i));
      e.position = spawn_point(15.0f);
      if (health_ <= 0) {
        ++deaths_;
        health_ = 100;
        event("died");
      }
      continue;
    }
    const Vec3 dir{to.x / dist, 0, to.z / dist}, side{-dir.z, 0, dir.x};
    const float weave = std::sin(e.phase + static_cast<float>(steps_) * 0.03f) * 1.2f;
    e.position = push_out(e.position + (dir * e.speed + side * weave) * dt, 0.5f);
    e.yaw = std::atan2(dir.x, dir.z);
  }
  for (auto& p : pickups_)
    if (game::ground_distance(p.position, position_) < 1.3f) {
      health_ = std::min(100, health_ + 25);
      score_ += 20;
      event("pickup");
      p.position = spawn_point(8.0f);
    }
  for (int* timer : {&flash_, &hit_marker_, &hurt_flash_})
    if (*timer > 0) --*timer;
}

game::Camera ShooterSim::camera() const {
  game::Camera c;
  c.eye = position_ + Vec3{0, kEyeHeight, 0};
  c.target = c.eye + forward();
  c.fovy = 1.2f;
  c.near_z = 0.1f;
  c.far_z = 200.0f;
  return c;
}

OrientedBox ShooterSim::enemy_box(const Enemy& e) {
  return {{e.position.x, 1.125f, e.position.z}, {0.5f, 1.125f, 0.35f}, e.yaw};
}

float ShooterSim::pickup_spin(long long steps) { return static_cast<float>(steps % 7200) * 0.05f; }

OrientedBox ShooterSim::pickup_box(const Pickup& p, long long steps) {
  return {{p.position.x, 0.6f, p.position.z}, {0.5f, 0.5f, 0.15f}, pickup_spin(steps)};
}

std::vector<game::TruthObject> ShooterSim::truth_objects() const {
  const Vec3 eye = camera().eye;
  std::vector<game::TruthObject> out;
  // Labelled when the body or the head can be seen past the walls and pillars.
  for (const auto& e : enemies_)
    if (e.alive && (in_sight(eye, e.position + Vec3{0, 1.0f, 0}) || in_sight(eye, e.position + Vec3{0, 1.95f, 0})))
      out.push_back({0, enemy_box(e)});
  for (const auto& p : pickups_)
    if (in_sight(eye, p.position + Vec3{0, 0.6f, 0})) out.push_back({1, pickup_box(p, steps_)});
  return out;
}

}  // namespace pictor::shooter
