// Real-game profiles: a small key = value file per third-party game saying how to start it
// unchanged under Pictor (command, environment, private config, window, start-up inputs) and
// which inputs make sense in play. Loading validates every field and names file:line on error.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pictor::suite {

// One start-up action, done by pictor-launch once the game's window is up.
struct StartupStep {
  enum class Kind { key, click, wait };
  Kind kind = Kind::wait;
  std::string key;        // kind == key: an X keysym name ("Return", "space")
  int x = 0, y = 0;       // kind == click: window pixels, button 1 ...
  bool percent = false;   // ... or per cent of the window's width and height ("click:50%x50%")
  double seconds = 0;     // kind == wait
};

// A file written into the game's private home before it starts (its config, so it runs windowed
// at the session's size and skips intros), one `config_file = PATH: LINE` per line.
struct ConfigFile {
  std::string path;       // relative to the private home
  std::vector<std::string> lines;
};

struct Profile {
  std::string name;
  std::string description;
  std::string package;                                   // the Debian package that provides it
  std::vector<std::string> command;                      // argv; "{width}", "{height}" are replaced
  std::vector<std::pair<std::string, std::string>> env;  // set for the game only
  // HOME and XDG_* always point into the session directory. A game that finds its home through
  // the password database instead (getpwuid) needs `passwd_home = private`: libpictor_home.so is
  // then preloaded into it and answers with the private home too.
  bool passwd_home = false;
  std::vector<ConfigFile> config_files;
  std::string window;                                    // a substring of the game window's title
  double startup_timeout_s = 60;                         // wait this long for the window at most
  double startup_wait_s = 0;                             // then this long before the start-up steps
  // About how long the game takes to get to play (load, window, start-up steps): a session runs
  // this much longer than its play duration. Figures cover play only, so more costs nothing.
  double load_time_s = 10;
  std::vector<StartupStep> startup;
  std::vector<std::string> inputs;                       // the keys/buttons that make sense in play
  std::string driver;                                    // default driver for suites ("" = none)
  double duration_s = 30;                                // default benchmark duration in play
  std::string source;                                    // file it was read from
};

// Reads and validates a profile; throws pictor::UsageError "<file>:<line>: <cause>" (or
// "<file>: <cause>" for a missing field) naming what is wrong.
Profile parse_profile(std::istream& in, const std::string& file);
Profile load_profile(const std::string& path);

// Where profiles are looked up, in order: $PICTOR_PROFILES, the install tree
// (<bin>/../share/pictor/profiles), the source tree's profiles/ (build trees), ./profiles.
std::vector<std::string> profile_dirs();
// A profile by name (NAME.profile in profile_dirs()) or by path (contains '/' or ends in
// .profile); throws UsageError listing the known profiles when there is none.
std::string find_profile(const std::string& name_or_path);
// Names of all profiles found in profile_dirs(), sorted, without duplicates.
std::vector<std::string> known_profiles();

// The game's program: command[0] found on $PATH, or in /usr/games (where Debian installs games,
// often not on root's PATH); nullopt when the game is not installed.
std::optional<std::string> game_program(const Profile& profile);
bool profile_installed(const Profile& profile);

}  // namespace pictor::suite
