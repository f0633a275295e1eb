// `shooter` simulation: a first-person arena with pillars; enemies appear at random places and
// walk at the player. The mouse aims, button 1 fires, w/a/s/d move. No GL here.
#pragma once
#include <optional>
#include <vector>

#include "apps/game/game_sim.h"
#include "apps/game/rng.h"

namespace pictor::shooter {

struct Enemy {
  game::Vec3 position;   // on the ground
  float yaw = 0;
  float speed = 2;
  float phase = 0;       // of its sideways weave
  bool alive = true;
  int respawn_steps = 0; // while dead: steps until it appears again
};

struct Pickup {
  game::Vec3 position;
};

class ShooterSim final : public game::GameSim {
 public:
  static constexpr float kArenaHalf = 40.0f;
  static constexpr float kEyeHeight = 1.7f;

  explicit ShooterSim(const game::GameSetup& setup);
  std::string name() const override { return "shooter"; }
  std::vector<std::string> classes() const override { return {"enemy", "pickup"}; }
  std::vector<std::string> state_columns() const override;
  std::vector<std::string> state_values() const override;
  void input(const platform::InputEvent& event) override;
  void step() override;
  game::Camera camera() const override;
  std::vector<game::TruthObject> truth_objects() const override;

  // For the view.
  const std::vector<game::OrientedBox>& pillars() const { return pillars_; }
  const std::vector<game::OrientedBox>& walls() const { return walls_; }
  const std::vector<Enemy>& enemies() const { return enemies_; }
  const std::vector<Pickup>& pickups() const { return pickups_; }
  int health() const { return health_; }
  int score() const { return score_; }
  int muzzle_flash() const { return flash_; }
  int hit_marker() const { return hit_marker_; }
  int hurt_flash() const { return hurt_flash_; }
  long long steps() const { return steps_; }
  // Held movement keys: w, a, s, d.
  bool held(int i) const { return keys_[i]; }
  static game::OrientedBox enemy_box(const Enemy& e);
  // The pickup's cross turns with the step count; its box turns with it.
  static game::OrientedBox pickup_box(const Pickup& p, long long steps);
  static float pickup_spin(long long steps);

  // Distance along the ray to the nearest wall or pillar (infinity when none).
  float obstacle_distance(game::Vec3 origin, game::Vec3 direction) const;

 private:
  void fire();
  game::Vec3 spawn_point(float min_distance);
  game::Vec3 push_out(game::Vec3 p, float radius) const;
  bool in_sight(game::Vec3 eye, game::Vec3 p) const;
  game::Vec3 forward() const;

  game::Rng rng_;
  std::vector<game::OrientedBox> pillars_, walls_;
  std::vector<Enemy> enemies_;
  std::vector<Pickup> pickups_;
  game::Vec3 position_;
  float yaw_ = 0, pitch_ = 0;
  bool keys_[4] = {false, false, false, false};
  bool has_pointer_ = false;
  int pointer_x_ = 0, pointer_y_ = 0;
  int health_ = 100, score_ = 0, hits_ = 0, shots_ = 0, damage_taken_ = 0, deaths_ = 0;
  int flash_ = 0, hit_marker_ = 0, hurt_flash_ = 0;
  long long steps_ = 0;
};

// Entry distance of a ray into an oriented box, if it hits it in front of the origin.
std::optional<float> ray_box(game::Vec3 origin, game::Vec3 direction, const game::OrientedBox& box);

}  // namespace pictor::shooter
