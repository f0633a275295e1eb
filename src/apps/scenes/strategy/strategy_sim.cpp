#include "apps/scenes/strategy/strategy_sim.h"

#include <X11/keysym.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pictor::strategy {

using game::OrientedBox;
using game::Vec3;

namespace {

constexpr float kScrollSpeed = 40.0f;   // m/s while an arrow key is held
constexpr float kScrollNudge = 1.0f;    // m at once on the key press, so it shows in the next frame
constexpr float kClickRadius = 2.5f;    // m around a unit that a click selects it within
constexpr int kDragThreshold = 6;       // px: a shorter drag is a click
constexpr int kMarkerSteps = 45, kClickPulseSteps = 12;
constexpr int kWorkerCapacity = 10, kMineSteps = 20, kAttackSteps = 30;
constexpr int kUnitRespawnSteps = 300, kEnemyRespawnSteps = 600;

int scaled(float detail, float base, int minimum) {
  return std::max(minimum, static_cast<int>(std::lround(base * detail)));
}

}  // namespace

StrategySim::StrategySim(const game::GameSetup& setup) : GameSim(setup), rng_(setup.seed) {
  base_ = {rng_.range(-60.0f, 60.0f), 0, rng_.range(-60.0f, 60.0f)};
  view_ = base_;
  const int workers = scaled(setup.detail, 5, 2), soldiers = scaled(setup.detail, 5, 2);
  for (int i = 0; i < workers + soldiers; ++i) {
    Unit u;
    u.kind = i < workers ? UnitKind::worker : UnitKind::soldier;
    const float angle = 2 * game::kPi * static_cast<float>(i) / static_cast<float>(workers + soldiers);
    const float r = rng_.range(8.0f, 12.0f);
    u.position = base_ + Vec3{r * std::cos(angle), 0, r * std::sin(angle)};
    u.yaw = rng_.range(0.0f, 2 * game::kPi);
    units_.push_back(u);
  }
  const int per_cluster = scaled(setup.detail, 6, 2);
  for (int c = 0; c < 6; ++c) {
    const Vec3 centre = free_point(25.0f);
    for (int i = 0; i < per_cluster; ++i) {
      Crystal k;
      k.position = centre + Vec3{rng_.range(-5.0f, 5.0f), 0, rng_.range(-5.0f, 5.0f)};
      k.yaw = rng_.range(0.0f, 2 * game::kPi);
      crystals_.push_back(k);
    }
  }
  const int enemies = scaled(setup.detail, 8, 2);
  for (int i = 0; i < enemies; ++i) {
    Enemy e;
    e.position = e.home = e.wander_to = free_point(40.0f);
    enemies_.push_back(e);
  }
  const int props = scaled(setup.detail, 250, 20);
  for (int i = 0; i < props; ++i) {
    Prop p;
    p.position = free_point(12.0f);
    p.size = rng_.range(0.8f, 2.0f);
    p.rock = rng_.unit() < 0.3f;
    props_.push_back(p);
  }
}

Vec3 StrategySim::free_point(float min_from_base) {
  const float a = kMapHalf - 5;
  Vec3 p{a, 0, a};
  for (int attempt = 0; attempt < 64; ++attempt) {
    p = {rng_.range(-a, a), 0, rng_.range(-a, a)};
    if (game::ground_distance(p, base_) >= min_from_base) break;
  }
  return p;
}

std::vector<std::string> StrategySim::state_columns() const {
  return {"score", "resources", "units", "selected", "kills", "lost", "commands", "view_x", "view_z"};
}

int StrategySim::selected_count() const {
  int n = 0;
  for (const auto& u : units_) n += u.selected ? 1 : 0;
  return n;
}

std::vector<std::string> StrategySim::state_values() const {
  int alive = 0;
  for (const auto& u : units_) alive += u.alive ? 1 : 0;
  return {std::to_string(score_), std::to_string(resources_), std::to_string(alive),
          std::to_string(selected_count()), std::to_string(kills_), std::to_string(lost_),
          std::to_string(commands_), game::fixed(view_.x, 2), game::fixed(view_.z, 2)};
}

std::optional<Vec3> StrategySim::ground_at(int x, int y) const {
  Vec3 origin, dir;
  camera().ray(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f, static_cast<float>(setup_.width),
               static_cast<float>(setup_.height), origin, dir);
  if (dir.y >= -1e-4f) return std::nullopt;
  const float t = -origin.y / dir.y;
  return origin + dir * t;
}

game::ScreenBox StrategySim::drag_box() const {
  return {static_cast<float>(std::min(drag_x0_, pointer_x_)), static_cast<float>(std::min(drag_y0_, pointer_y_)),
          static_cast<float>(std::max(drag_x0_, pointer_x_)), static_cast<float>(std::max(drag_y0_, pointer_y_))};
}

void StrategySim::input(const platform::InputEvent& e) {
  using Kind = platform::InputEvent::Kind;
  const unsigned arrows[4] = {XK_Left, XK_Right, XK_Up, XK_Down};
  const Vec3 nudges[4] = {{-1, 0, 0}, {1, 0, 0}, {0, 0, -1}, {0, 0, 1}};
  switch (e.kind) {
    case Kind::key_down:
    case Kind::key_up:
      for (int i = 0; i < 4; ++i)
        if (e.code == arrows[i]) {
          arrows_[i] = e.kind == Kind::key_down;
          if (arrows_[i]) view_ = view_ + nudges[i] * kScrollNudge;
        }
      break;
    case Kind::motion:
      pointer_x_ = e.x;
      pointer_y_ = e.y;
      break;
    case Kind::button_down:
      pointer_x_ = click_x_ = e.x;
      pointer_y_ = click_y_ = e.y;
      click_pulse_ = kClickPulseSteps;
      if (e.code == 1) {
        dragging_ = true;
        drag_x0_ = e.x;
        drag_y0_ = e.y;
      } else if (e.code == 3) {
        command(e.x, e.y);
      }
      break;
    case Kind::button_up:
      pointer_x_ = e.x;
      pointer_y_ = e.y;
      if (e.code == 1 && dragging_) {
        dragging_ = false;
        select(drag_x0_, drag_y0_, e.x, e.y);
      }
      break;
  }
  view_.x = std::clamp(view_.x, -kMapHalf, kMapHalf);
  view_.z = std::clamp(view_.z, -kMapHalf, kMapHalf);
}

void StrategySim::select(int x0, int y0, int x1, int y1) {
  if (std::abs(x1 - x0) < kDragThreshold && std::abs(y1 - y0) < kDragThreshold) {
    const auto g = ground_at(x1, y1);
    int best = -1;
    float best_d = kClickRadius;
    for (std::size_t i = 0; g && i < units_.size(); ++i) {
      const float d = game::ground_distance(units_[i].position, *g);
      if (units_[i].alive && d < best_d) {
        best_d = d;
        best = static_cast<int>(i);
      }
    }
    for (std::size_t i = 0; i < units_.size(); ++i) units_[i].selected = static_cast<int>(i) == best;
  } else {
    const game::Mat4 vp = view_projection();
    const float bx0 = static_cast<float>(std::min(x0, x1)), bx1 = static_cast<float>(std::max(x0, x1));
    const float by0 = static_cast<float>(std::min(y0, y1)), by1 = static_cast<float>(std::max(y0, y1));
    for (auto& u : units_) {
      const auto p = game::project_point(vp, u.position + Vec3{0, 0.8f, 0}, static_cast<float>(setup_.width),
                                         static_cast<float>(setup_.height));
      u.selected = u.alive && p && p->x >= bx0 && p->x <= bx1 && p->y >= by0 && p->y <= by1;
    }
  }
  event("select", std::to_string(selected_count()));
}

int StrategySim::nearest_crystal(Vec3 p, float within) const {
  int best = -1;
  float best_d = within;
  for (std::size_t i = 0; i < crystals_.size(); ++i) {
    const float d = game::ground_distance(crystals_[i].position, p);
    if (crystals_[i].amount > 0 && d < best_d) {
      best_d = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void StrategySim::command(int x, int y) {
  const auto g = ground_at(x, y);
  if (!g) return;
  int enemy = -1;
  for (std::size_t i = 0; i < enemies_.size(); ++i)
    if (enemies_[i].alive && game::ground_distance(enemies_[i].position, *g) < 3.0f) enemy = static_cast<int>(i);
  const int crystal = enemy < 0 ? nearest_crystal(*g, kClickRadius) : -1;
  const OrderKind order = enemy >= 0 ? OrderKind::attack : crystal >= 0 ? OrderKind::gather : OrderKind::move;
  marker_ = {*g, order, kMarkerSteps};
  const int selected = selected_count();
  if (selected == 0) return;
  ++commands_;
  int slot = 0;
  for (auto& u : units_) {
    if (!u.selected) continue;
    // Move targets on a small grid around the point, so a group does not pile on one spot.
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(selected))));
    const Vec3 offset{static_cast<float>(slot % side - side / 2) * 1.8f, 0,
                      static_cast<float>(slot / side - side / 2) * 1.8f};
    ++slot;
    u.target = *g + offset;
    u.target_id = -1;
    u.order = order;
    if (order == OrderKind::attack) u.target_id = enemy;
    if (order == OrderKind::gather) {
      if (u.kind == UnitKind::worker) u.target_id = crystal;
      else u.order = OrderKind::move;
    }
  }
  const char* names[] = {"idle", "move", "gather", "attack"};
  event("command", std::string(names[static_cast<int>(order)]) + " " + std::to_string(selected));
}

bool StrategySim::walk(Vec3& position, float& yaw, Vec3 target, float speed, float stop) {
  const Vec3 d{target.x - position.x, 0, target.z - position.z};
  const float dist = std::hypot(d.x, d.z);
  if (dist <= stop) return true;
  const float step = std::min(speed * kStep, dist - stop);
  position = position + d * (step / dist);
  position.x = std::clamp(position.x, -kMapHalf, kMapHalf);
  position.z = std::clamp(position.z, -kMapHalf, kMapHalf);
  yaw = std::atan2(d.x, d.z);
  return dist - step <= stop + 1e-4f;
}

void StrategySim::update_unit(Unit& u) {
  if (!u.alive) {
    if (--u.respawn_steps <= 0) {
      Unit fresh;
      fresh.kind = u.kind;
      fresh.position = base_ + Vec3{6, 0, 6};
      u = fresh;
    }
    return;
  }
  if (u.cooldown > 0) --u.cooldown;
  const float speed = u.kind == UnitKind::worker ? 6.0f : 7.0f;
  if (u.order == OrderKind::idle && u.kind == UnitKind::soldier)
    for (std::size_t i = 0; i < enemies_.size(); ++i)
      if (enemies_[i].alive && game::ground_distance(enemies_[i].position, u.position) < 8.0f) {
        u.order = OrderKind::attack;
        u.target_id = static_cast<int>(i);
        break;
      }
  switch (u.order) {
    case OrderKind::idle:
      break;
    case OrderKind::move:
      if (walk(u.position, u.yaw, u.target, speed, 0.3f)) u.order = OrderKind::idle;
      break;
    case OrderKind::gather: {
      const bool crystal_left = u.target_id >= 0 && crystals_[static_cast<std::size_t>(u.target_id)].amount > 0;
      if (u.carried >= kWorkerCapacity || (!crystal_left && u.carried > 0)) {
        if (walk(u.position, u.yaw, base_, speed, 6.0f)) {
          resources_ += u.carried;
          score_ += u.carried;
          event("deliver", std::to_string(u.carried));
          u.carried = 0;
          if (!crystal_left) u.target_id = nearest_crystal(u.position, 40.0f);
          if (u.target_id < 0) u.order = OrderKind::idle;
        }
      } else if (crystal_left) {
        Crystal& c = crystals_[static_cast<std::size_t>(u.target_id)];
        if (walk(u.position, u.yaw, c.position, speed, 1.8f) && u.cooldown == 0) {
          ++u.carried;
          u.cooldown = kMineSteps;
          if (--c.amount == 0) event("depleted", std::to_string(u.target_id));
        }
      } else {
        u.target_id = nearest_crystal(u.position, 30.0f);
        if (u.target_id < 0) u.order = OrderKind::idle;
      }
      break;
    }
    case OrderKind::attack: {
      if (u.target_id < 0 || !enemies_[static_cast<std::size_t>(u.target_id)].alive) {
        u.order = OrderKind::idle;
        break;
      }
      Enemy& e = enemies_[static_cast<std::size_t>(u.target_id)];
      if (walk(u.position, u.yaw, e.position, speed, 1.8f) && u.cooldown == 0) {
        e.hp -= u.kind == UnitKind::soldier ? 20 : 5;
        u.cooldown = kAttackSteps;
        if (e.hp <= 0) {
          e.alive = false;
          e.respawn_steps = kEnemyRespawnSteps;
          ++kills_;
          score_ += 50;
          event("kill", "enemy " + std::to_string(u.target_id));
        }
      }
      break;
    }
  }
}

void StrategySim::update_enemy(Enemy& e) {
  if (!e.alive) {
    if (--e.respawn_steps <= 0) {
      e = Enemy{};
      e.position = e.home = e.wander_to = free_point(40.0f);
    }
    return;
  }
  if (e.cooldown > 0) --e.cooldown;
  int prey = -1;
  float prey_d = 12.0f;
  for (std::size_t i = 0; i < units_.size(); ++i) {
    const float d = game::ground_distance(units_[i].position, e.position);
    if (units_[i].alive && d < prey_d) {
      prey_d = d;
      prey = static_cast<int>(i);
    }
  }
  if (prey >= 0) {
    Unit& u = units_[static_cast<std::size_t>(prey)];
    if (walk(e.position, e.yaw, u.position, 4.5f, 1.6f) && e.cooldown == 0) {
      u.hp -= 10;
      e.cooldown = kAttackSteps;
      if (u.hp <= 0) {
        u.alive = false;
        u.selected = false;
        u.order = OrderKind::idle;
        u.carried = 0;
        u.respawn_steps = kUnitRespawnSteps;
        ++lost_;
        event("lost", "unit " + std::to_string(prey));
      }
    }
  } else if (walk(e.position, e.yaw, e.wander_to, 2.5f, 0.5f)) {
    e.wander_to = e.home + Vec3{rng_.range(-15.0f, 15.0f), 0, rng_.range(-15.0f, 15.0f)};
  }
}

void StrategySim::step() {
  ++steps_;
  const Vec3 scroll{static_cast<float>(arrows_[1] - arrows_[0]), 0, static_cast<float>(arrows_[3] - arrows_[2])};
  view_ = view_ + scroll * (kScrollSpeed * kStep);
  view_.x = std::clamp(view_.x, -kMapHalf, kMapHalf);
  view_.z = std::clamp(view_.z, -kMapHalf, kMapHalf);
  for (auto& u : units_) update_unit(u);
  for (auto& e : enemies_) update_enemy(e);
  // Units keep a little apart (in index order, so the result is the same every run).
  for (std::size_t i = 0; i < units_.size(); ++i)
    for (std::size_t j = i + 1; j < units_.size(); ++j) {
      Unit &a = units_[i], &b = units_[j];
      if (!a.alive || !b.alive) continue;
      const Vec3 d{b.position.x - a.position.x, 0, b.position.z - a.position.z};
      const float dist = std::hypot(d.x, d.z);
      if (dist >= 1.4f || dist < 1e-4f) continue;
      const Vec3 push = d * ((1.4f - dist) / dist * 0.5f);
      a.position = a.position - push;
      b.position = b.position + push;
    }
  if (marker_.steps > 0) --marker_.steps;
  if (click_pulse_ > 0) --click_pulse_;
}

game::Camera StrategySim::camera() const {
  game::Camera c;
  c.eye = view_ + Vec3{0, 42, 28};
  c.target = view_;
  c.fovy = 0.85f;
  c.near_z = 1.0f;
  c.far_z = 400.0f;
  return c;
}

OrientedBox StrategySim::unit_box(const Unit& u) {
  if (u.kind == UnitKind::worker) return {{u.position.x, 0.83f, u.position.z}, {0.5f, 0.83f, 0.5f}, u.yaw};
  // A soldier carries its weapon on the right, forward: its box sits off its feet.
  const Vec3 centre = u.position + game::rotate_yaw({0.04f, 0.9f, 0.1f}, u.yaw);
  return {centre, {0.54f, 0.9f, 0.5f}, u.yaw};
}

OrientedBox StrategySim::enemy_box(const Enemy& e) {
  return {{e.position.x, 1.05f, e.position.z}, {0.8f, 1.05f, 0.8f}, e.yaw};
}

OrientedBox StrategySim::crystal_box(const Crystal& c) {
  return {{c.position.x, 1.2f, c.position.z}, {0.7f, 1.2f, 0.7f}, c.yaw};
}

OrientedBox StrategySim::base_box() const { return {{base_.x, 4.25f, base_.z}, {5.0f, 4.25f, 5.0f}, 0}; }

std::vector<game::TruthObject> StrategySim::truth_objects() const {
  std::vector<game::TruthObject> out;
  for (const auto& u : units_)
    if (u.alive) out.push_back({u.kind == UnitKind::worker ? 0 : 1, unit_box(u)});
  for (const auto& e : enemies_)
    if (e.alive) out.push_back({2, enemy_box(e)});
  for (const auto& c : crystals_)
    if (c.amount > 0) out.push_back({3, crystal_box(c)});
  out.push_back({4, base_box()});
  return out;
}

}  // namespace pictor::strategy
