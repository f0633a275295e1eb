// pictor-launch: starts a real game as its profile says — private home with its config files,
// environment, window wait, start-up inputs through XTest — and records in launch.json when play
// started. It is the command `pictor run` measures, so the game itself is never changed.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/units.h"
#include "suite/profile.h"

namespace pictor::suite {

struct LaunchOptions {
  Profile profile;
  Size size{1280, 720};
  std::string home;        // the game's private home; created, config files written into it
  std::string launch_json; // where to record the launch (empty: nowhere)
  std::string preload;     // LD_PRELOAD for the game (the interposer), "" for none
  std::string home_shim;   // libpictor_home.so, for profiles with passwd_home = private
};

// libpictor_home.so next to pictor-launch (../lib) or $PICTOR_HOME_SHIM; throws RunError.
std::string find_home_shim();

// The game's argv with {width} and {height} replaced.
std::vector<std::string> game_argv(const Profile& profile, Size size);
// The variables set for the game: the profile's env, HOME and XDG_* into the private home.
std::map<std::string, std::string> game_env(const Profile& profile, const std::string& home);
// Creates the private home and writes the profile's config files ({width}/{height} replaced).
// Throws RunError naming the path when it cannot.
void prepare_home(const Profile& profile, const std::string& home, Size size);

// Runs the game until it exits or this process gets SIGTERM/SIGINT (then stops it); returns the
// exit code to pass on. Failures to find the window are recorded, not fatal: the game keeps running.
int launch(const LaunchOptions& options);

}  // namespace pictor::suite
