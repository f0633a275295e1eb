// A built-in game as a Scene: options seed/detail/truth/state, the simulation advanced in fixed
// steps from the frame clock, inputs applied the moment they are read, the game's view drawn,
// and the state log and ground truth written on request.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "apps/game/game_sim.h"
#include "apps/game/state_log.h"
#include "apps/game/truth_writer.h"
#include "apps/scene.h"
#include "core/files.h"

namespace pictor::game {

// The GL side of a game: draws its simulation's current state.
class GameView {
 public:
  virtual ~GameView() = default;
  virtual void setup() = 0;  // GL context current
  virtual void draw() = 0;
  virtual void teardown() = 0;
};

struct GameDefinition {
  std::string name;
  std::function<std::unique_ptr<GameSim>(const GameSetup&)> make_sim;
  // The view keeps a reference to the simulation it draws (always the one make_sim made).
  std::function<std::unique_ptr<GameView>(const GameSim&)> make_view;
};

class GameScene final : public apps::Scene {
 public:
  // After a stall (a frame longer than this) the game does not run its missed steps at once.
  static constexpr double kMaxCatchUpSeconds = 0.25;

  explicit GameScene(GameDefinition definition) : definition_(std::move(definition)) {}
  std::vector<apps::SceneOption> options() const override;
  void setup(const apps::SceneContext& context) override;
  void input(const platform::InputEvent& event) override;
  void update(double t, double dt) override;
  void draw() override;
  void teardown() override;

 private:
  GameDefinition definition_;
  GameSetup setup_;
  files::RowFile state_file_;
  std::unique_ptr<GameRun> run_;
  std::unique_ptr<GameView> view_;
  std::unique_ptr<TruthWriter> truth_;
  std::vector<unsigned char> pixels_;
  double pending_s_ = 0;  // frame time not yet simulated
  std::int64_t frame_ = 0;
};

}  // namespace pictor::game
