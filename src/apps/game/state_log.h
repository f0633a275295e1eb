// The game state log (CSV, schema 1): one row per input, per game event and per second of game
// time, each with the step index and the game's state, so a driver's play can be judged and two
// runs compared exactly. Also the parser that replays a log's inputs (determinism checks).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "apps/game/game_sim.h"
#include "core/files.h"

namespace pictor::game {

// Input events as the log writes them: "key_down Up 640 360", "button_down 1 10 20", "motion 0 5 6".
std::string input_text(const platform::InputEvent& event);
// The inverse; throws pictor::UsageError naming the text on a malformed event.
platform::InputEvent parse_input_text(const std::string& text);

// The state log's header row (without its line end): the fixed columns, then the game's state.
std::string state_log_header(const GameSim& sim);

// Drives one game simulation and writes its state log: to a file through files::RowFile (created
// with state_log_header as its header row; rows flushed every second of game time and at the
// end), or in memory to a string (the header row first). Either may be null: no log.
class GameRun {
 public:
  static constexpr int kTickSteps = 60;  // a "tick" row every second of game time

  GameRun(std::unique_ptr<GameSim> sim, files::RowFile* log);
  GameRun(std::unique_ptr<GameSim> sim, std::string* log);
  void input(const platform::InputEvent& event);
  void step();
  void finish();  // the "end" row; call once
  std::int64_t steps() const { return steps_; }
  GameSim& sim() { return *sim_; }
  const GameSim& sim() const { return *sim_; }

 private:
  GameRun(std::unique_ptr<GameSim> sim, files::RowFile* file, std::string* text);
  void row(const char* kind, const std::string& detail);
  void flush();

  std::unique_ptr<GameSim> sim_;
  files::RowFile* file_;
  std::string* log_;  // the rows not yet written: the file's buffer, or the text
  std::int64_t steps_ = 0;
};

// A parsed state log: the setup its header names, its inputs by step, where it ended.
struct LoggedInput {
  std::int64_t step = 0;
  platform::InputEvent event;
};
struct StateLog {
  std::string game;
  GameSetup setup;
  std::vector<LoggedInput> inputs;
  std::int64_t end_step = -1;  // -1: no "end" row (the run was cut short)
};
// Throws pictor::UsageError "<name>:<line>: <cause>" on a malformed log.
StateLog parse_state_log(std::istream& in, const std::string& name);

// Runs the game named in the log from its seed with its inputs at their steps, up to its end
// step, and returns the state log that run writes. A deterministic game returns the same text.
std::string replay_state_log(const StateLog& log);

}  // namespace pictor::game
