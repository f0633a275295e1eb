#include "apps/game/state_log.h"

#include <X11/keysym.h>

#include <cstdio>
#include <cstdlib>
#include <istream>
#include <sstream>

#include "analysis/csv.h"
#include "apps/game/game_registry.h"
#include "core/csv_files.h"
#include "core/error.h"

namespace pictor::game {

namespace {

using Kind = platform::InputEvent::Kind;

struct KeyName {
  unsigned keysym;
  const char* name;
};
// The keys the games use, by their X keysym names; other keys are written as hex keysyms.
constexpr KeyName kKeyNames[] = {{XK_Left, "Left"},   {XK_Right, "Right"},   {XK_Up, "Up"},
                                 {XK_Down, "Down"},   {XK_w, "w"},           {XK_a, "a"},
                                 {XK_s, "s"},         {XK_d, "d"},           {XK_space, "space"},
                                 {XK_Return, "Return"}, {XK_Escape, "Escape"}};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::key_down: return "key_down";
    case Kind::key_up: return "key_up";
    case Kind::button_down: return "button_down";
    case Kind::button_up: return "button_up";
    case Kind::motion: return "motion";
  }
  return "?";
}

// Shortest text that reads back as the same float.
std::string float_text(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  if (std::strtof(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

// The game and its setup, carried in the detail of the log's `start` row (older logs had it on a
// `# game=...` line before the header); the log's schema version goes with it.
std::string setup_text(const GameSim& sim) {
  const GameSetup& s = sim.setup();
  return "game=" + sim.name() + " seed=" + std::to_string(s.seed) + " detail=" + float_text(s.detail) +
         " size=" + std::to_string(s.width) + "x" + std::to_string(s.height) + " step_s=1/60 schema=" +
         std::to_string(csv_files::kStateLog.schema);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(text);
  while (std::getline(in, cell, sep)) out.push_back(cell);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

}  // namespace

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  // "-0.0" and "0.0" are the same state; write one of them.
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string input_text(const platform::InputEvent& e) {
  std::string code;
  if (e.kind == Kind::key_down || e.kind == Kind::key_up) {
    for (const auto& k : kKeyNames)
      if (k.keysym == e.code) code = k.name;
    if (code.empty()) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%x", e.code);
      code = buf;
    }
  } else {
    code = std::to_string(e.code);
  }
  return std::string(kind_name(e.kind)) + " " + code + " " + std::to_string(e.x) + " " + std::to_string(e.y);
}

platform::InputEvent parse_input_text(const std::string& text) {
  const auto parts = split(text, ' ');
  const auto bad = [&](const std::string& why) { return UsageError("bad input event '" + text + "': " + why); };
  if (parts.size() != 4) throw bad("expected 'KIND CODE X Y'");
  platform::InputEvent e;
  bool known = false;
  for (Kind k : {Kind::key_down, Kind::key_up, Kind::button_down, Kind::button_up, Kind::motion})
    if (parts[0] == kind_name(k)) {
      e.kind = k;
      known = true;
    }
  if (!known) throw bad("unknown kind '" + parts[0] + "'");
  bool named = false;
  for (const auto& k : kKeyNames)
    if (parts[1] == k.name) {
      e.code = k.keysym;
      named = true;
    }
  char* end = nullptr;
  if (!named) {
    const unsigned long v = std::strtoul(parts[1].c_str(), &end, 0);
    if (parts[1].empty() || *end) throw bad("bad code '" + parts[1] + "'");
    e.code = static_cast<unsigned>(v);
  }
  const long x = std::strtol(parts[2].c_str(), &end, 10);
  if (parts[2].empty() || *end) throw bad("bad x '" + parts[2] + "'");
  const long y = std::strtol(parts[3].c_str(), &end, 10);
  if (parts[3].empty() || *end) throw bad("bad y '" + parts[3] + "'");
  e.x = static_cast<int>(x);
  e.y = static_cast<int>(y);
  return e;
}

std::string state_log_header(const GameSim& sim) {
  std::string header(csv_files::kStateLog.header);
  for (const auto& c : sim.state_columns()) (header += ',') += c;
  return header;
}

GameRun::GameRun(std::unique_ptr<GameSim> sim, files::RowFile* log) : GameRun(std::move(sim), log, nullptr) {}

GameRun::GameRun(std::unique_ptr<GameSim> sim, std::string* log) : GameRun(std::move(sim), nullptr, log) {}

GameRun::GameRun(std::unique_ptr<GameSim> sim, files::RowFile* file, std::string* text)
    : sim_(std::move(sim)), file_(file), log_(file ? &file->rows() : text) {
  // A file has its header row from RowFile::create; the text gets it here.
  if (text) (*text += state_log_header(*sim_)) += '\n';
  row("start", setup_text(*sim_));
}

void GameRun::row(const char* kind, const std::string& detail) {
  if (!log_) return;
  ((*log_ += std::to_string(steps_)) += ',') += kind;
  (*log_ += ',') += detail;
  for (const auto& v : sim_->state_values()) (*log_ += ',') += v;
  *log_ += '\n';
}

void GameRun::flush() {
  if (file_) file_->flush();
}

void GameRun::input(const platform::InputEvent& event) {
  sim_->input(event);
  row("input", input_text(event));
  for (const auto& e : sim_->take_events()) row(e.kind.c_str(), e.detail);
}

void GameRun::step() {
  sim_->step();
  ++steps_;
  for (const auto& e : sim_->take_events()) row(e.kind.c_str(), e.detail);
  if (steps_ % kTickSteps == 0) {
    row("tick", "");
    // Once a second, so a killed game leaves its log up to the last second.
    flush();
  }
}

void GameRun::finish() {
  row("end", "");
  flush();
}

StateLog parse_state_log(std::istream& in, const std::string& name) {
  StateLog log;
  std::ostringstream whole;
  whole << in.rdbuf();
  const std::string contents = whole.str();
  std::size_t number = 0;
  bool header = false, columns = false;
  const auto fail = [&](const std::string& why) {
    return UsageError(name + ":" + std::to_string(number) + ": " + why);
  };
  const auto parse_setup = [&](const std::string& text) {
    for (const auto& field : split(text, ' ')) {
      const auto eq = field.find('=');
      if (eq == std::string::npos) throw fail("bad header field '" + field + "'");
      const std::string key = field.substr(0, eq), value = field.substr(eq + 1);
      char* end = nullptr;
      if (key == "game") {
        log.game = value;
      } else if (key == "seed") {
        log.setup.seed = std::strtoull(value.c_str(), &end, 10);
        if (value.empty() || *end) throw fail("bad seed '" + value + "'");
      } else if (key == "detail") {
        log.setup.detail = std::strtof(value.c_str(), &end);
        if (value.empty() || *end) throw fail("bad detail '" + value + "'");
      } else if (key == "size") {
        if (std::sscanf(value.c_str(), "%dx%d", &log.setup.width, &log.setup.height) != 2)
          throw fail("bad size '" + value + "'");
      } else if (key == "schema") {
        const long schema = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end) throw fail("bad schema '" + value + "'");
        if (schema > csv_files::kStateLog.schema)
          throw fail("state log schema " + value + " is newer than this Pictor reads (" +
                     std::to_string(csv_files::kStateLog.schema) + ")");
      }
    }
    header = true;
  };
  // The one CSV reader (quoting, CRLF, line numbers); its errors name the file and line too.
  analysis::CsvReader reader(contents, name);
  analysis::CsvRow row;
  while (reader.next(row)) {
    number = row.line;
    const auto& cells = row.fields;
    if (!cells.empty() && cells[0].starts_with('#')) {
      std::string comment;
      for (std::size_t i = 0; i < cells.size(); ++i) (comment += i ? "," : "") += cells[i];
      if (comment.rfind("# game=", 0) == 0) parse_setup(comment.substr(2));
      continue;
    }
    if (!columns) {
      if (cells.size() < 3 || cells[0] != "step" || cells[1] != "event" || cells[2] != "detail")
        throw fail("expected the column row 'step,event,detail,...'");
      columns = true;
      continue;
    }
    if (cells.size() < 3) throw fail("expected at least 3 cells");
    char* end = nullptr;
    const long long step = std::strtoll(cells[0].c_str(), &end, 10);
    if (cells[0].empty() || *end || step < 0) throw fail("bad step '" + cells[0] + "'");
    if (cells[1] == "start" && !header) {
      parse_setup(cells[2]);
    } else if (cells[1] == "input") {
      try {
        log.inputs.push_back({step, parse_input_text(cells[2])});
      } catch (const UsageError& e) {
        throw fail(e.what());
      }
    } else if (cells[1] == "end") {
      log.end_step = step;
    }
  }
  if (!header) throw fail("no game setup (a 'start' row with game=...)");
  if (!columns) throw fail("no column row");
  return log;
}

std::string replay_state_log(const StateLog& log) {
  std::string out;
  GameRun run(make_game_sim(log.game, log.setup), &out);
  const std::int64_t end = log.end_step >= 0 ? log.end_step : (log.inputs.empty() ? 0 : log.inputs.back().step);
  std::size_t next = 0;
  while (true) {
    while (next < log.inputs.size() && log.inputs[next].step == run.steps()) run.input(log.inputs[next++].event);
    if (run.steps() >= end) break;
    run.step();
  }
  if (log.end_step >= 0) run.finish();
  return out;
}

}  // namespace pictor::game
