// The simulation side of a built-in game, free of GL: world, rules, camera and the objects to
// label. It advances only in fixed steps and on inputs, so a seed + an input sequence decide it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/game/math.h"
#include "apps/game/projection.h"
#include "platform/gl_window.h"

namespace pictor::game {

struct GameSetup {
  std::uint64_t seed = 1;
  float detail = 1.0f;  // load scale: object counts and tessellation
  int width = 1280;     // window size: the camera's aspect and the pixel space of mouse inputs
  int height = 720;
};

// An object that may be on screen: its class (index into GameSim::classes()) and its box.
struct TruthObject {
  int class_id = 0;
  OrientedBox box;
};

// Something that happened in a step, for the state log (kind: "hit", "lap", "kill", ...).
struct GameEvent {
  std::string kind;
  std::string detail;
};

class GameSim {
 public:
  // One simulation step. Game logic never sees wall-clock time, only steps and inputs.
  static constexpr double kStepSeconds = 1.0 / 60.0;
  static constexpr float kStep = 1.0f / 60.0f;

  virtual ~GameSim() = default;
  virtual std::string name() const = 0;
  // Ground-truth class names; TruthObject::class_id indexes this list.
  virtual std::vector<std::string> classes() const = 0;
  // The game-specific state-log columns (score, hits, laps, ...) and their current values.
  virtual std::vector<std::string> state_columns() const = 0;
  virtual std::vector<std::string> state_values() const = 0;
  // Applies an input at once, between steps: whatever it changes on screen changes in the next
  // frame even when no step runs before it (so the response frame answers it).
  virtual void input(const platform::InputEvent& event) = 0;
  virtual void step() = 0;
  virtual Camera camera() const = 0;
  // Objects to label: those the player could see (inside the fog distance, not hidden behind
  // walls where the game knows of walls). Off-screen ones are dropped by the projection.
  virtual std::vector<TruthObject> truth_objects() const = 0;

  const GameSetup& setup() const { return setup_; }
  Mat4 view_projection() const {
    return camera().view_projection(static_cast<float>(setup_.width) / static_cast<float>(setup_.height));
  }
  std::vector<GameEvent> take_events() {
    std::vector<GameEvent> out;
    out.swap(events_);
    return out;
  }

 protected:
  explicit GameSim(const GameSetup& setup) : setup_(setup) {}
  void event(std::string kind, std::string detail = {}) { events_.push_back({std::move(kind), std::move(detail)}); }

  GameSetup setup_;

 private:
  std::vector<GameEvent> events_;
};

// Window-pixel boxes of the objects on screen now, as the truth writer stores them.
struct LabelledBox {
  int class_id = 0;
  ScreenBox box;
};
std::vector<LabelledBox> screen_boxes(const GameSim& sim);

// Fixed-decimal text of a number for the state log (locale-independent, exact to compare).
std::string fixed(double value, int decimals);

}  // namespace pictor::game
