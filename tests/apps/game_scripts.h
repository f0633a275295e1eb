// Scripted input sequences for the built-in games' tests: inputs at fixed steps, so that a run is
// fully given by (game, seed, detail, script).
#pragma once
#include <X11/keysym.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "apps/game/game_registry.h"
#include "apps/game/state_log.h"

namespace pictor::test {

using Kind = platform::InputEvent::Kind;

struct ScriptedInput {
  std::int64_t step;
  platform::InputEvent event;
};

inline platform::InputEvent key(Kind kind, unsigned keysym) { return {kind, keysym, 640, 360}; }
inline platform::InputEvent pointer(Kind kind, unsigned button, int x, int y) { return {kind, button, x, y}; }

// A few seconds of play for each game, touching every input the game understands.
inline std::vector<ScriptedInput> script_for(const std::string& game) {
  if (game == "racing")
    return {{0, key(Kind::key_down, XK_Up)},      {150, key(Kind::key_down, XK_Left)},
            {170, key(Kind::key_up, XK_Left)},    {220, key(Kind::key_down, XK_Right)},
            {240, key(Kind::key_up, XK_Right)},   {330, key(Kind::key_up, XK_Up)},
            {331, key(Kind::key_down, XK_Down)},  {380, key(Kind::key_up, XK_Down)},
            {381, key(Kind::key_down, XK_Up)}};
  if (game == "shooter") {
    std::vector<ScriptedInput> s{{0, pointer(Kind::motion, 0, 640, 360)}, {5, key(Kind::key_down, XK_w)},
                                 {60, key(Kind::key_up, XK_w)},           {61, key(Kind::key_down, XK_d)},
                                 {90, key(Kind::key_up, XK_d)}};
    // Sweep the view round in small motions, firing every few steps.
    for (int i = 0; i < 60; ++i) {
      s.push_back({100 + i * 6, pointer(Kind::motion, 0, 640 + ((i % 2) ? 20 : -20) + i, 360)});
      s.push_back({102 + i * 6, pointer(Kind::button_down, 1, 640, 360)});
      s.push_back({103 + i * 6, pointer(Kind::button_up, 1, 640, 360)});
    }
    return s;
  }
  // strategy: drag-select everything in view, send it somewhere, scroll, click one unit away.
  return {{5, pointer(Kind::button_down, 1, 20, 20)},    {6, pointer(Kind::motion, 0, 600, 400)},
          {7, pointer(Kind::motion, 0, 1260, 700)},      {8, pointer(Kind::button_up, 1, 1260, 700)},
          {10, pointer(Kind::button_down, 3, 640, 200)}, {11, pointer(Kind::button_up, 3, 640, 200)},
          {200, key(Kind::key_down, XK_Right)},          {230, key(Kind::key_up, XK_Right)},
          {240, key(Kind::key_down, XK_Down)},           {250, key(Kind::key_up, XK_Down)},
          {300, pointer(Kind::button_down, 3, 300, 500)}, {301, pointer(Kind::button_up, 3, 300, 500)},
          {400, pointer(Kind::button_down, 1, 5, 5)},    {401, pointer(Kind::button_up, 1, 5, 5)}};
}

// Runs a game from its seed with the script up to `end_step` and returns its state log.
inline std::string run_script(const std::string& game, std::uint64_t seed, const std::vector<ScriptedInput>& script,
                              std::int64_t end_step, float detail = 1.0f) {
  std::string out;
  game::GameSetup setup;
  setup.seed = seed;
  setup.detail = detail;
  game::GameRun run(game::make_game_sim(game, setup), &out);
  std::size_t next = 0;
  for (;;) {
    while (next < script.size() && script[next].step == run.steps()) run.input(script[next++].event);
    if (run.steps() >= end_step) break;
    run.step();
  }
  run.finish();
  return out;
}

// The last row of a state log, split into cells.
inline std::vector<std::string> last_row(const std::string& log) {
  std::istringstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<std::string> cells;
  std::istringstream ls(last);
  std::string cell;
  while (std::getline(ls, cell, ',')) cells.push_back(cell);
  return cells;
}

// The column index of `name` in a state log's column row.
inline int column(const std::string& log, const std::string& name) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("step,event,detail", 0) == 0) {
      std::istringstream ls(line);
      std::string cell;
      for (int i = 0; std::getline(ls, cell, ','); ++i)
        if (cell == name) return i;
    }
  return -1;
}

}  // namespace pictor::test
