// `strategy` simulation: a top-down real-time strategy map with a base, workers and soldiers,
// crystal resources and wandering enemies, all placed by the seed. Button 1 selects (click or
// drag a box), button 3 commands (move, gather, attack), the arrow keys scroll. No GL here.
#pragma once
#include <optional>
#include <vector>

#include "apps/game/game_sim.h"
#include "apps/game/rng.h"

namespace pictor::strategy {

enum class UnitKind { worker, soldier };
enum class OrderKind { idle, move, gather, attack };

struct Unit {
  UnitKind kind = UnitKind::worker;
  game::Vec3 position;
  float yaw = 0;
  int hp = 100;
  bool alive = true;
  int respawn_steps = 0;
  bool selected = false;
  OrderKind order = OrderKind::idle;
  game::Vec3 target;      // move target
  int target_id = -1;     // crystal (gather) or enemy (attack)
  int carried = 0;        // crystal a worker carries home
  int cooldown = 0;       // steps until its next mining or attack action
};

struct Crystal {
  game::Vec3 position;
  float yaw = 0;
  int amount = 40;
};

struct Enemy {
  game::Vec3 position;
  game::Vec3 home;
  game::Vec3 wander_to;
  float yaw = 0;
  int hp = 60;
  bool alive = true;
  int respawn_steps = 0;
  int cooldown = 0;
};

struct Prop {  // scenery: trees and rocks, drawn but not labelled
  game::Vec3 position;
  float size = 1;
  bool rock = false;
};

struct Marker {  // where the last command went, shown for a moment
  game::Vec3 position;
  OrderKind order = OrderKind::move;
  int steps = 0;
};

class StrategySim final : public game::GameSim {
 public:
  static constexpr float kMapHalf = 100.0f;

  explicit StrategySim(const game::GameSetup& setup);
  std::string name() const override { return "strategy"; }
  std::vector<std::string> classes() const override { return {"worker", "soldier", "enemy", "resource", "base"}; }
  std::vector<std::string> state_columns() const override;
  std::vector<std::string> state_values() const override;
  void input(const platform::InputEvent& event) override;
  void step() override;
  game::Camera camera() const override;
  std::vector<game::TruthObject> truth_objects() const override;

  // For the view.
  const std::vector<Unit>& units() const { return units_; }
  const std::vector<Crystal>& crystals() const { return crystals_; }
  const std::vector<Enemy>& enemies() const { return enemies_; }
  const std::vector<Prop>& props() const { return props_; }
  game::Vec3 base() const { return base_; }
  const Marker& marker() const { return marker_; }
  int resources() const { return resources_; }
  int score() const { return score_; }
  int selected_count() const;
  // The drag rectangle while button 1 is held (window pixels), and the last click's echo.
  bool dragging() const { return dragging_; }
  game::ScreenBox drag_box() const;
  int click_pulse() const { return click_pulse_; }
  game::Vec2 click_position() const { return {static_cast<float>(click_x_), static_cast<float>(click_y_)}; }
  game::Vec3 camera_target() const { return view_; }
  bool scrolling(int i) const { return arrows_[i]; }  // Left, Right, Up, Down

  static game::OrientedBox unit_box(const Unit& u);
  static game::OrientedBox enemy_box(const Enemy& e);
  static game::OrientedBox crystal_box(const Crystal& c);
  game::OrientedBox base_box() const;

 private:
  std::optional<game::Vec3> ground_at(int x, int y) const;
  void select(int x0, int y0, int x1, int y1);
  void command(int x, int y);
  void update_unit(Unit& u);
  void update_enemy(Enemy& e);
  bool walk(game::Vec3& position, float& yaw, game::Vec3 target, float speed, float stop);
  int nearest_crystal(game::Vec3 p, float within) const;
  game::Vec3 free_point(float min_from_base);

  game::Rng rng_;
  game::Vec3 base_;
  std::vector<Unit> units_;
  std::vector<Crystal> crystals_;
  std::vector<Enemy> enemies_;
  std::vector<Prop> props_;
  Marker marker_;
  game::Vec3 view_;           // the point the camera looks at
  bool arrows_[4] = {false, false, false, false};
  bool dragging_ = false;
  int drag_x0_ = 0, drag_y0_ = 0, pointer_x_ = 0, pointer_y_ = 0;
  int click_x_ = 0, click_y_ = 0, click_pulse_ = 0;
  int resources_ = 0, score_ = 0, kills_ = 0, lost_ = 0, commands_ = 0;
  long long steps_ = 0;
};

}  // namespace pictor::strategy
