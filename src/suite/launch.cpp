#include "suite/launch.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/preload.h"
#include "runner/install_paths.h"
#include "runner/process.h"

namespace pictor::suite {

namespace fs = std::filesystem;

namespace {

std::atomic<int> g_signal{0};
void on_signal(int sig) { g_signal.store(sig); }

std::string replace_size(std::string text, Size size) {
  for (const auto& [key, value] : {std::pair<std::string, int>{"{width}", size.width}, {"{height}", size.height}})
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key))
      text.replace(at, key.size(), std::to_string(value));
  return text;
}

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// A start-up wait that ends early when Pictor stops the session or the game exits: the runner
// gives the launcher a short grace period, and a launcher killed in a 12 s wait would leave the
// game (its own process group) running and launch.json without its end.
bool pause_s(double s, runner::Process& game) {
  const std::int64_t until = monotonic_ns() + static_cast<std::int64_t>(s * 1e9);
  while (monotonic_ns() < until) {
    if (g_signal.load() || !game.running()) return false;
    sleep_s(std::min(0.02, static_cast<double>(until - monotonic_ns()) * 1e-9));
  }
  return true;
}

// The profile's own waits after the first drawing: startup_wait and the wait: steps (each key or
// click adds its 50 ms press).
double startup_script_s(const Profile& p) {
  double s = p.startup_wait_s;
  for (const auto& step : p.startup) s += step.kind == StartupStep::Kind::wait ? step.seconds : 0.05;
  return std::round(s * 1000.0) / 1000.0;  // ms: no binary noise in launch.json
}

// The title of a window: _NET_WM_NAME (UTF-8) when set, else WM_NAME.
std::string window_title(Display* d, ::Window w) {
  std::string title;
  Atom type;
  int format;
  unsigned long count, after;
  unsigned char* data = nullptr;
  const Atom net_wm_name = XInternAtom(d, "_NET_WM_NAME", True);
  if (net_wm_name != None &&
      XGetWindowProperty(d, w, net_wm_name, 0, 1024, False, AnyPropertyType, &type, &format, &count, &after, &data) ==
          Success &&
      data) {
    title.assign(reinterpret_cast<char*>(data), count);
    XFree(data);
  }
  if (title.empty()) {
    char* name = nullptr;
    if (XFetchName(d, w, &name) && name) {
      title = name;
      XFree(name);
    }
  }
  return title;
}

// A viewable window whose title contains `match`, searched depth-first from `w`.
::Window find_window(Display* d, ::Window w, const std::string& match, std::string& title) {
  XWindowAttributes attributes;
  if (XGetWindowAttributes(d, w, &attributes) && attributes.map_state == IsViewable) {
    const std::string t = window_title(d, w);
    if (!t.empty() && t.find(match) != std::string::npos) {
      title = t;
      return w;
    }
  }
  ::Window root, parent, *children = nullptr;
  unsigned n = 0;
  ::Window found = 0;
  if (XQueryTree(d, w, &root, &parent, &children, &n)) {
    for (unsigned i = 0; i < n && !found; ++i) found = find_window(d, children[i], match, title);
    if (children) XFree(children);
  }
  return found;
}

int ignore_x_errors(Display*, XErrorEvent*) { return 0; }  // windows may vanish while we look

// Tells Pictor's input client (src/client/local_client.cpp checks the same name) that the game
// is still loading and being steered through its start-up screens: while the selection
// _PICTOR_LAUNCH_STARTING has an owner, the client holds its inputs. Without this the client's
// inputs would land in loading screens and measure start-up, not play. A selection rather than
// a property because the X server drops it by itself when this process dies, so a crashed
// launcher can never hold the client for ever.
void hold_client_inputs(Display* d, bool hold) {
  if (!d) return;
  static ::Window owner = 0;
  const Atom selection = XInternAtom(d, "_PICTOR_LAUNCH_STARTING", False);
  if (hold) {
    if (!owner) owner = XCreateWindow(d, DefaultRootWindow(d), 0, 0, 1, 1, 0, 0, InputOnly, CopyFromParent, 0, nullptr);
    XSetSelectionOwner(d, selection, owner, CurrentTime);
  } else if (owner) {
    XSetSelectionOwner(d, selection, None, CurrentTime);
    XDestroyWindow(d, owner);
    owner = 0;
  }
  XFlush(d);
}

// Waits until the window's contents change (the game's first frame reached the screen) or the
// deadline passes; true when it did. A game reads input long before it shows anything: a click
// on a start screen that is not drawn yet is read and thrown away (Neverball under load).
bool wait_for_first_drawing(Display* d, ::Window w, std::int64_t deadline_ns, runner::Process& game) {
  int damage_event = 0, damage_error = 0;
  if (!XDamageQueryExtension(d, &damage_event, &damage_error)) return false;
  const Damage damage = XDamageCreate(d, w, XDamageReportNonEmpty);
  XSync(d, False);
  bool drawn = false;
  while (!drawn && game.running() && !g_signal.load() && monotonic_ns() < deadline_ns) {
    while (XPending(d) > 0) {
      XEvent ev;
      XNextEvent(d, &ev);
      if (ev.type == damage_event + XDamageNotify) drawn = true;
    }
    if (!drawn) sleep_s(0.02);
  }
  XDamageDestroy(d, damage);
  XSync(d, False);
  return drawn;
}

void tap_key(Display* d, const std::string& name) {
  const KeySym sym = XStringToKeysym(name.c_str());
  const KeyCode code = XKeysymToKeycode(d, sym);
  if (code == 0) throw RunError("the display has no key for '" + name + "'");
  XTestFakeKeyEvent(d, code, True, CurrentTime);
  XFlush(d);
  sleep_s(0.05);
  XTestFakeKeyEvent(d, code, False, CurrentTime);
  XFlush(d);
}

void click_at(Display* d, ::Window w, const StartupStep& step) {
  int x = step.x, y = step.y;
  if (step.percent) {
    XWindowAttributes a;
    if (XGetWindowAttributes(d, w, &a)) {
      x = a.width * step.x / 100;
      y = a.height * step.y / 100;
    }
  }
  int rx = x, ry = y;
  ::Window child;
  XTranslateCoordinates(d, w, DefaultRootWindow(d), x, y, &rx, &ry, &child);
  XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
  XTestFakeButtonEvent(d, 1, True, CurrentTime);
  XFlush(d);
  sleep_s(0.05);
  XTestFakeButtonEvent(d, 1, False, CurrentTime);
  XFlush(d);
}

// Moves a window that does not lie wholly on the screen to the top-left corner, when it fits
// there. There is no window manager on Pictor's displays, so the game's own placement stands:
// Extreme Tux Racer puts its 800x600 window at 240,340 on a 1280x720 screen, and the part below
// the screen's edge (where the marker is) is never drawn to the screen at all. Returns a note
// saying what was done, empty when nothing was needed.
std::string bring_on_screen(Display* d, ::Window w) {
  XWindowAttributes a;
  if (!XGetWindowAttributes(d, w, &a)) return "";
  int x = 0, y = 0;
  ::Window child;
  XTranslateCoordinates(d, w, DefaultRootWindow(d), 0, 0, &x, &y, &child);
  const int sw = DisplayWidth(d, DefaultScreen(d)), sh = DisplayHeight(d, DefaultScreen(d));
  if (x >= 0 && y >= 0 && x + a.width <= sw && y + a.height <= sh) return "";
  if (a.width > sw || a.height > sh) {
    return "the window (" + std::to_string(a.width) + "x" + std::to_string(a.height) + ") is larger than the " +
           std::to_string(sw) + "x" + std::to_string(sh) + " screen: part of it is never shown";
  }
  XMoveWindow(d, w, 0, 0);
  XSync(d, False);
  return "moved the window from " + std::to_string(x) + "," + std::to_string(y) + " to 0,0: it did not lie on the " +
         std::to_string(sw) + "x" + std::to_string(sh) + " screen";
}

// Replaced whole each time (core/files.h), so the runner, which reads it while the game runs, never
// sees half a file. A failed write is said on stderr (launch.log) and the launch goes on: the
// runner then reports launch.json's state as it finds it.
void write_launch_json(const std::string& path, const nlohmann::json& j) {
  if (path.empty()) return;
  try {
    write_json_file(path, j, {.sync = false});
  } catch (const files::WriteError& e) {
    std::fprintf(stderr, "pictor-launch: %s\n", e.what());
  }
}

}  // namespace

std::vector<std::string> game_argv(const Profile& profile, Size size) {
  std::vector<std::string> argv;
  for (const auto& a : profile.command) argv.push_back(replace_size(a, size));
  return argv;
}

std::map<std::string, std::string> game_env(const Profile& profile, const std::string& home) {
  std::map<std::string, std::string> env;
  for (const auto& [k, v] : profile.env) env[k] = v;
  // A private home: the game's settings, saves and caches never touch the user's, also for games
  // that read XDG_* instead of HOME.
  env["HOME"] = home;
  env["XDG_CONFIG_HOME"] = home + "/.config";
  env["XDG_DATA_HOME"] = home + "/.local/share";
  env["XDG_CACHE_HOME"] = home + "/.cache";
  env["XDG_STATE_HOME"] = home + "/.local/state";
  return env;
}

void prepare_home(const Profile& profile, const std::string& home, Size size) {
  std::error_code ec;
  for (const char* sub : {"", ".config", ".local/share", ".cache", ".local/state"}) {
    fs::create_directories(fs::path(home) / sub, ec);
    if (ec) throw RunError("cannot create the game's private home '" + home + "': " + ec.message());
  }
  for (const auto& file : profile.config_files) {
    const fs::path path = fs::path(home) / file.path;
    fs::create_directories(path.parent_path(), ec);
    std::string text;
    for (const auto& line : file.lines) text += replace_size(line, size) + '\n';
    files::write_file(path, text, {.sync = false});  // WriteError (a RunError) names the file
  }
}

std::string find_home_shim() {
  if (const char* env = std::getenv("PICTOR_HOME_SHIM"); env && *env) {
    if (!fs::exists(env)) throw RunError(std::string("PICTOR_HOME_SHIM names '") + env + "', which does not exist");
    return env;
  }
  const fs::path self = runner::self_directory();
  for (const fs::path& c : {self / "../lib/libpictor_home.so", self / "../lib/pictor/libpictor_home.so",
                            self / "libpictor_home.so"})
    if (fs::exists(c)) return fs::weakly_canonical(c).string();
  throw RunError("libpictor_home.so not found next to pictor-launch (in " + (self / "../lib").string() +
                 "); set PICTOR_HOME_SHIM");
}

int launch(const LaunchOptions& o) {
  const Profile& p = o.profile;
  prepare_home(p, o.home, o.size);
  runner::SpawnOptions spawn;
  spawn.argv = game_argv(p, o.size);
  if (const auto program = game_program(p)) spawn.argv[0] = *program;
  else throw UsageError("'" + p.command[0] + "' is not installed (scripts/install-games.sh " + p.name + ")");
  spawn.env = game_env(p, o.home);
  std::string preload = o.preload;
  if (p.passwd_home) {
    preload = o.home_shim + (preload.empty() ? "" : ":" + preload);
    spawn.env["PICTOR_PRIVATE_HOME"] = o.home;
  }
  spawn.env["LD_PRELOAD"] = preload_value(preload);  // empty unsets
  nlohmann::json record{{"schema", 1},
                        {"profile", p.name},
                        {"profile_file", p.source},
                        {"argv", spawn.argv},
                        {"home", o.home},
                        {"window_match", p.window},
                        {"start_ns", monotonic_ns()},
                        {"window_found_ns", nullptr},
                        {"window_title", nullptr},
                        {"first_drawn_ns", nullptr},
                        {"play_start_ns", nullptr},
                        {"startup_steps", p.startup.size()},
                        {"startup_steps_done", 0},
                        {"startup_script_s", startup_script_s(p)},
                        {"startup_timeout_s", p.startup_timeout_s},
                        {"load_time_s", p.load_time_s},
                        {"startup_end", nullptr},
                        {"notes", nlohmann::json::array()}};
  write_launch_json(o.launch_json, record);

  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  std::signal(SIGHUP, on_signal);
  Display* d = XOpenDisplay(nullptr);
  if (d) XSetErrorHandler(ignore_x_errors);
  hold_client_inputs(d, true);
  runner::Process game = runner::Process::spawn(spawn);
  std::fprintf(stderr, "pictor-launch: started %s (pid %d), home %s\n", spawn.argv[0].c_str(), game.pid(), o.home.c_str());

  ::Window window = 0;
  std::string title;
  const std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(p.startup_timeout_s * 1e9);
  while (d && !window && game.running() && !g_signal.load() && monotonic_ns() < deadline) {
    window = find_window(d, DefaultRootWindow(d), p.window, title);
    if (!window) sleep_s(0.1);
  }
  if (window) {
    record["window_found_ns"] = monotonic_ns();
    record["window_title"] = title;
    if (const std::string moved = bring_on_screen(d, window); !moved.empty()) {
      record["notes"].push_back(moved);
      std::fprintf(stderr, "pictor-launch: %s\n", moved.c_str());
    }
    if (wait_for_first_drawing(d, window, deadline, game)) {
      record["first_drawn_ns"] = monotonic_ns();
    } else if (!g_signal.load() && game.running()) {
      record["notes"].push_back("the window was not drawn within startup_timeout; start-up steps sent anyway");
    }
    pause_s(p.startup_wait_s, game);
    try {
      int done = 0;
      for (const auto& step : p.startup) {
        if (g_signal.load() || !game.running()) break;
        if (step.kind == StartupStep::Kind::key) tap_key(d, step.key);
        else if (step.kind == StartupStep::Kind::click) click_at(d, window, step);
        else if (!pause_s(step.seconds, game)) break;
        record["startup_steps_done"] = ++done;
      }
      if (!g_signal.load() && game.running()) {
        record["play_start_ns"] = monotonic_ns();
        record["startup_end"] = "play";
      }
    } catch (const RunError& e) {
      record["notes"].push_back(std::string("start-up inputs failed: ") + e.what());
      record["startup_end"] = "gave up";
    }
  } else if (!g_signal.load() && game.running()) {
    record["startup_end"] = "gave up";
    record["notes"].push_back(d ? "no window with '" + p.window + "' in its title within " +
                                      std::to_string(p.startup_timeout_s) + " s"
                                : std::string("cannot open the X display to find the game's window"));
    std::fprintf(stderr, "pictor-launch: %s\n", record["notes"].back().get<std::string>().c_str());
  }
  if (record["startup_end"].is_null()) record["startup_end"] = g_signal.load() ? "session ended" : "game exited";
  // From here on the client may drive the game (also when start-up failed: it then measures
  // whatever the game shows, as it would without a launcher).
  hold_client_inputs(d, false);
  if (d) XCloseDisplay(d);
  write_launch_json(o.launch_json, record);

  while (game.running() && !g_signal.load()) sleep_s(0.05);
  if (g_signal.load()) {
    // Pictor is ending the session: stop the game within the runner's grace period.
    game.stop(1.5);
    return 0;
  }
  const auto status = game.status();
  if (!status) return 1;
  std::fprintf(stderr, "pictor-launch: %s ended: %s\n", spawn.argv[0].c_str(), status->describe().c_str());
  return status->exited ? status->code : 128 + status->signal;
}

}  // namespace pictor::suite
