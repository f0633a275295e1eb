#include "apps/scenes/racing/racing_sim.h"

#include <X11/keysym.h>

#include <algorithm>
#include <cmath>

namespace pictor::racing {

using game::Vec3;

namespace {

Vec3 heading(float yaw) { return {std::sin(yaw), 0, std::cos(yaw)}; }
float yaw_of(Vec3 direction) { return std::atan2(direction.x, direction.z); }
float wrap_angle(float a) {
  while (a > game::kPi) a -= 2 * game::kPi;
  while (a < -game::kPi) a += 2 * game::kPi;
  return a;
}

constexpr float kLanes[3] = {-3.5f, 0.0f, 3.5f};
constexpr float kVisibleDistance = 200.0f;  // the fog hides anything farther (see the view)
constexpr int kHitFlashSteps = 20;
constexpr int kKnockedSteps = 600;          // a knocked obstacle is back after 10 s

Track make_track(std::uint64_t seed) {
  game::Rng rng(seed);
  return Track(rng);
}

int scaled(float detail, float base, int minimum) {
  return std::max(minimum, static_cast<int>(std::lround(base * detail)));
}

}  // namespace

RacingSim::RacingSim(const game::GameSetup& setup) : GameSim(setup), track_(make_track(setup.seed)) {
  // Everything but the track comes from a second stream, so the track of a seed does not
  // change with the detail level.
  game::Rng rng(setup.seed ^ 0x5EEDC0DEull);
  const TrackSample& start = track_.sample(0);
  player_.position = start.centre + start.left * -3.0f;
  player_.yaw = yaw_of(start.tangent);
  player_.colour = {0.9f, 0.15f, 0.1f};
  camera_yaw_ = player_.yaw;

  const int opponents = std::clamp(static_cast<int>(std::lround(5 * std::sqrt(setup.detail))), 2, 12);
  for (int i = 0; i < opponents; ++i) {
    Opponent o;
    o.s = 14.0f + 10.0f * static_cast<float>(i);
    o.lane = o.target_lane = kLanes[i % 3];
    o.cruise = rng.range(17.0f, 27.0f);
    o.car.colour = {rng.range(0.1f, 0.9f), rng.range(0.1f, 0.9f), rng.range(0.2f, 1.0f)};
    o.car.position = track_.point(o.s, o.lane);
    o.car.yaw = yaw_of(track_.sample(track_.index_at(o.s)).tangent);
    opponents_.push_back(o);
  }

  const int obstacles = scaled(setup.detail, 36, 3);
  for (int i = 0; i < obstacles; ++i) {
    Obstacle o;
    o.kind = static_cast<ObstacleKind>(rng.below(3));
    o.s = rng.range(70.0f, track_.length() - 20.0f);
    o.lateral = rng.range(-5.5f, 5.5f);
    o.yaw = rng.range(0.0f, 2 * game::kPi);
    switch (o.kind) {
      case ObstacleKind::cone: o.half = {0.35f, 0.45f, 0.35f}, o.radius = 0.4f; break;
      case ObstacleKind::crate: o.half = {0.6f, 0.6f, 0.6f}, o.radius = 0.8f; break;
      case ObstacleKind::barrel: o.half = {0.45f, 0.55f, 0.45f}, o.radius = 0.5f; break;
    }
    o.position = track_.point(o.s, o.lateral);
    o.position.y = o.half.y;
    obstacles_.push_back(o);
  }

  const int trees = scaled(setup.detail, 260, 20);
  for (int i = 0, attempts = 0; i < trees && attempts < trees * 20; ++attempts) {
    const Vec3 p{rng.range(-260.0f, 260.0f), 0, rng.range(-260.0f, 260.0f)};
    const float height = rng.range(4.0f, 9.0f), radius = rng.range(1.5f, 3.0f);
    const int near = track_.nearest(p);
    if (std::fabs(track_.lateral(p, near)) < Track::kHalfWidth + radius + 4.0f &&
        game::ground_distance(p, track_.sample(near).centre) < Track::kHalfWidth + radius + 4.0f)
      continue;
    trees_.push_back({p, height, radius});
    ++i;
  }
}

std::vector<std::string> RacingSim::state_columns() const {
  return {"score", "hits", "laps", "position", "speed_kmh", "lap_progress_pct", "off_track", "x", "z"};
}

int RacingSim::score() const {
  const double metres = static_cast<double>(best_progress_) * track_.length() / Track::kSamples;
  return static_cast<int>(metres) - 25 * hits_;
}

int RacingSim::race_position() const {
  const float mine = static_cast<float>(progress_) * track_.length() / Track::kSamples;
  int ahead = 0;
  for (const auto& o : opponents_) ahead += o.s > mine ? 1 : 0;
  return ahead + 1;
}

std::vector<std::string> RacingSim::state_values() const {
  const bool off = std::fabs(track_.lateral(player_.position, index_)) > Track::kHalfWidth;
  const long long in_lap = progress_ - static_cast<long long>(laps_) * Track::kSamples;
  return {std::to_string(score()),
          std::to_string(hits_),
          std::to_string(laps_),
          std::to_string(race_position()),
          game::fixed(player_.speed * 3.6, 1),
          game::fixed(100.0 * static_cast<double>(in_lap) / Track::kSamples, 1),
          off ? "1" : "0",
          game::fixed(player_.position.x, 2),
          game::fixed(player_.position.z, 2)};
}

void RacingSim::input(const platform::InputEvent& e) {
  using Kind = platform::InputEvent::Kind;
  if (e.kind != Kind::key_down && e.kind != Kind::key_up) return;
  const bool down = e.kind == Kind::key_down;
  switch (e.code) {
    case XK_Left: left_ = down; break;
    case XK_Right: right_ = down; break;
    case XK_Up: up_ = down; break;
    case XK_Down: down_ = down; break;
    default: break;
  }
}

void RacingSim::step() {
  ++steps_;
  drive_player();
  for (auto& o : opponents_) drive_opponent(o);
  collide();
  track_progress();
  camera_yaw_ += wrap_angle(player_.yaw - camera_yaw_) * 0.08f;
  if (hit_flash_ > 0) --hit_flash_;
  for (auto& o : obstacles_)
    if (o.knocked_steps > 0) --o.knocked_steps;
}

void RacingSim::drive_player() {
  const float dt = kStep;
  const bool off = std::fabs(track_.lateral(player_.position, index_)) > Track::kHalfWidth + 0.5f;
  float& v = player_.speed;
  if (up_) v += 14.0f * dt;
  if (down_) v -= (v > 0 ? 30.0f : 6.0f) * dt;
  if (!up_ && !down_) {
    const float rolling = 2.0f * dt;
    v = std::fabs(v) <= rolling ? 0.0f : v - std::copysign(rolling, v);
  }
  v -= 0.012f * v * std::fabs(v) * dt;  // air drag: top speed about 34 m/s
  if (off && v > 14.0f) v -= 20.0f * dt;  // grass
  v = std::clamp(v, -8.0f, 45.0f);
  player_.yaw += static_cast<float>(steer()) * 1.6f * std::clamp(v / 8.0f, -1.0f, 1.0f) * dt;
  player_.position = player_.position + heading(player_.yaw) * (v * dt);
  player_.position.x = std::clamp(player_.position.x, -280.0f, 280.0f);
  player_.position.z = std::clamp(player_.position.z, -280.0f, 280.0f);
}

void RacingSim::drive_opponent(Opponent& o) {
  const float dt = kStep;
  // Change lanes when an obstacle stands in this one within 30 m.
  auto blocked = [&](float lane) {
    const float here = std::fmod(o.s, track_.length());
    for (const auto& ob : obstacles_) {
      if (ob.knocked_steps > 0) continue;
      float ahead = ob.s - here;
      if (ahead < 0) ahead += track_.length();
      if (ahead < 30.0f && std::fabs(ob.lateral - lane) < 2.2f) return true;
    }
    return false;
  };
  if (blocked(o.target_lane))
    for (float lane : kLanes)
      if (!blocked(lane)) {
        o.target_lane = lane;
        break;
      }
  const float shift = 3.0f * dt;
  o.lane += std::clamp(o.target_lane - o.lane, -shift, shift);
  o.car.speed += std::clamp(o.cruise - o.car.speed, -8.0f * dt, 6.0f * dt);
  o.s += o.car.speed * dt;
  o.car.position = track_.point(o.s, o.lane);
  o.car.yaw = yaw_of(track_.sample(track_.index_at(o.s)).tangent);
}

void RacingSim::collide() {
  for (std::size_t i = 0; i < obstacles_.size(); ++i) {
    Obstacle& o = obstacles_[i];
    const bool contact = o.knocked_steps == 0 && game::ground_distance(player_.position, o.position) < o.radius + 1.3f;
    if (contact && !o.touching) {
      ++hits_;
      player_.speed *= 0.35f;
      hit_flash_ = kHitFlashSteps;
      o.knocked_steps = kKnockedSteps;
      event("hit", "obstacle " + std::to_string(i));
    }
    o.touching = contact;
  }
  for (std::size_t i = 0; i < opponents_.size(); ++i) {
    Opponent& o = opponents_[i];
    const Vec3 d = player_.position - o.car.position;
    const float dist = std::hypot(d.x, d.z);
    const bool contact = dist < 2.6f;
    if (contact && !o.touching) {
      ++hits_;
      player_.speed *= 0.6f;
      o.car.speed *= 0.8f;
      hit_flash_ = kHitFlashSteps;
      event("hit", "car " + std::to_string(i));
    }
    if (contact && dist > 1e-3f) {  // push the player out of the other car
      const Vec3 out{d.x / dist, 0, d.z / dist};
      player_.position = o.car.position + out * 2.6f;
    }
    o.touching = contact;
  }
}

void RacingSim::track_progress() {
  const int previous = index_;
  index_ = track_.nearest(player_.position, index_, 24);
  int delta = index_ - previous;
  if (delta > Track::kSamples / 2) delta -= Track::kSamples;
  if (delta < -Track::kSamples / 2) delta += Track::kSamples;
  progress_ += delta;
  best_progress_ = std::max(best_progress_, progress_);
  // Reversing over the line takes progress back, so a lap is only ever counted once.
  if (progress_ >= static_cast<long long>(laps_ + 1) * Track::kSamples) {
    ++laps_;
    event("lap", std::to_string(laps_));
  }
}

game::Camera RacingSim::camera() const {
  game::Camera c;
  const Vec3 h = heading(camera_yaw_);
  c.eye = player_.position - h * 10.0f + Vec3{0, 4.2f, 0};
  c.target = player_.position + h * 6.0f + Vec3{0, 1.2f, 0};
  c.fovy = 1.05f;
  c.near_z = 0.5f;
  c.far_z = 450.0f;
  return c;
}

game::OrientedBox RacingSim::car_box(const Car& car) {
  return {{car.position.x, kCarHalfHeight, car.position.z}, {kCarHalfWidth, kCarHalfHeight, kCarHalfLength}, car.yaw};
}

std::vector<game::TruthObject> RacingSim::truth_objects() const {
  const Vec3 eye = camera().eye;
  std::vector<game::TruthObject> out{{0, car_box(player_)}};
  for (const auto& o : opponents_)
    if (game::ground_distance(eye, o.car.position) < kVisibleDistance) out.push_back({1, car_box(o.car)});
  for (const auto& o : obstacles_)
    if (o.knocked_steps == 0 && game::ground_distance(eye, o.position) < kVisibleDistance)
      out.push_back({2, {o.position, o.half, o.yaw}});
  return out;
}

}  // namespace pictor::racing
