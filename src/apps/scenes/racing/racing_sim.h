// `racing` simulation: third-person driving on a seeded track with obstacles and opponent cars.
// Left/Right steer, Up accelerates, Down brakes (and reverses). No GL here.
#pragma once
#include <array>
#include <vector>

#include "apps/game/game_sim.h"
#include "apps/scenes/racing/racing_track.h"

namespace pictor::racing {

enum class ObstacleKind { cone, crate, barrel };

struct Obstacle {
  ObstacleKind kind = ObstacleKind::cone;
  game::Vec3 position;
  float yaw = 0;
  float s = 0, lateral = 0;   // where on the track it stands
  float radius = 0.5f;        // collision radius
  game::Vec3 half;            // drawn/labelled half extents
  int knocked_steps = 0;      // > 0: knocked off the road, back after this many steps
  bool touching = false;      // in contact with the player last step (a hit counts once)
};

struct Car {
  game::Vec3 position;
  float yaw = 0;
  float speed = 0;            // m/s along the heading
  game::Vec3 colour;
};

struct Opponent {
  Car car;
  float s = 0;                // unwrapped arc length travelled (laps × length + position)
  float lane = 0;             // lateral offset it drives at
  float target_lane = 0;
  float cruise = 20;          // preferred speed, m/s
  bool touching = false;
};

struct Tree {
  game::Vec3 position;
  float height = 6, radius = 2;
};

class RacingSim final : public game::GameSim {
 public:
  static constexpr float kCarHalfWidth = 1.22f, kCarHalfLength = 2.2f, kCarHalfHeight = 0.75f;

  explicit RacingSim(const game::GameSetup& setup);
  std::string name() const override { return "racing"; }
  std::vector<std::string> classes() const override { return {"player", "car", "obstacle"}; }
  std::vector<std::string> state_columns() const override;
  std::vector<std::string> state_values() const override;
  void input(const platform::InputEvent& event) override;
  void step() override;
  game::Camera camera() const override;
  std::vector<game::TruthObject> truth_objects() const override;

  // For the view.
  const Track& track() const { return track_; }
  const Car& player() const { return player_; }
  const std::vector<Opponent>& opponents() const { return opponents_; }
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  const std::vector<Tree>& trees() const { return trees_; }
  int steer() const { return (left_ ? 1 : 0) - (right_ ? 1 : 0); }  // +1 left, −1 right
  bool left_held() const { return left_; }
  bool right_held() const { return right_; }
  bool throttle() const { return up_; }
  bool braking() const { return down_; }
  int laps() const { return laps_; }
  int race_position() const;
  int hit_flash() const { return hit_flash_; }
  int score() const;
  static game::OrientedBox car_box(const Car& car);

 private:
  void drive_player();
  void drive_opponent(Opponent& o);
  void collide();
  void track_progress();

  Track track_;
  Car player_;
  std::vector<Opponent> opponents_;
  std::vector<Obstacle> obstacles_;
  std::vector<Tree> trees_;
  bool left_ = false, right_ = false, up_ = false, down_ = false;
  float camera_yaw_ = 0;
  int index_ = 0;              // nearest track sample to the player
  long long progress_ = 0;     // unwrapped sample count travelled (laps × samples + index)
  long long best_progress_ = 0;
  int laps_ = 0, hits_ = 0, hit_flash_ = 0;
  long long steps_ = 0;
};

}  // namespace pictor::racing
