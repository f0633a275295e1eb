// `pictor-launch --profile FILE [--size WxH]`: what `pictor run profile:NAME` and profile
// benchmarks run in place of the game (see launch.h). The interposer must go to the game, not to
// this launcher, so the launcher first re-executes itself without LD_PRELOAD.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "suite/launch.h"

namespace {

constexpr const char* kSavedPreload = "PICTOR_LAUNCH_PRELOAD";

// Runs this program again without the interposer, keeping what LD_PRELOAD held for the game.
void drop_preload(char** argv) {
  const char* preload = std::getenv("LD_PRELOAD");
  if (!preload || !*preload || std::getenv(kSavedPreload)) return;
  setenv(kSavedPreload, preload, 1);
  unsetenv("LD_PRELOAD");
  execv("/proc/self/exe", argv);
  std::perror("pictor-launch: cannot re-execute itself without LD_PRELOAD");  // then carry on as is
}

}  // namespace

int main(int argc, char** argv) {
  drop_preload(argv);
  using namespace pictor;
  CLI::App cli{"pictor-launch: starts a real game as its Pictor profile says"};
  std::string profile_path, size_text = "1280x720", home;
  cli.add_option("--profile", profile_path, "profile file (NAME.profile)")->required();
  cli.add_option("--size", size_text, "window size WxH, for {width}/{height} in the profile")->capture_default_str();
  cli.add_option("--home", home, "the game's private home (default: $PICTOR_OUT/game-home, else a temp dir)");
  CLI11_PARSE(cli, argc, argv);
  try {
    suite::LaunchOptions o;
    o.profile = suite::load_profile(profile_path);
    o.size = parse_size(size_text);
    const char* out = std::getenv("PICTOR_OUT");
    if (home.empty()) {
      if (out && *out) {
        home = std::string(out) + "/game-home";
      } else {
        char tmpl[] = "/tmp/pictor-game-home-XXXXXX";
        if (!mkdtemp(tmpl)) throw RunError("cannot create a private home under /tmp");
        home = tmpl;
      }
    }
    o.home = std::filesystem::absolute(home).string();
    o.launch_json = out && *out ? std::string(out) + "/launch.json" : "";
    const char* saved = std::getenv(kSavedPreload);
    o.preload = saved ? saved : "";
    if (o.profile.passwd_home) o.home_shim = suite::find_home_shim();
    unsetenv(kSavedPreload);
    return suite::launch(o);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "pictor-launch: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pictor-launch: %s\n", e.what());
    return 1;
  }
}
