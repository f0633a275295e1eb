// `pictor suite` as a user runs it, on private Xvfb displays with llvmpipe: the quick default
// suite, a real-game profile path exercised with pictor-app standing in for a third-party game,
// skipped and broken profiles, the home shim, and each shipped profile when its game is installed.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <signal.h>
#include <unistd.h>

#include "runner/process.h"
#include "suite/profile.h"

using namespace pictor;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("pictor-suite-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

Result run(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {}) {
  const fs::path dir = fresh("cmd-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  runner::SpawnOptions o;
  o.argv = argv;
  o.env = env;
  o.stdout_path = (dir / "out").string();
  o.stderr_path = (dir / "err").string();
  const auto t0 = std::chrono::steady_clock::now();
  auto p = runner::Process::spawn(o);
  const auto st = p.wait_for(600);
  Result r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.exit_code = st && st->exited ? st->code : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  fs::remove_all(dir);
  return r;
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

// A profile that runs pictor-app as if it were a third-party game: the whole profile path
// (launcher, private home, window match, start-up keys, play start, interposer in the game).
void write_stand_in_profile(const fs::path& file) {
  std::ofstream(file) << "name = " << file.stem().string() << "\n"
                      << "description = pictor-app standing in for a third-party game\n"
                      << "command = " << PICTOR_APP_BIN_PATH << " spin:objects=100 --size {width}x{height}\n"
                      << "env = ALSOFT_DRIVERS=null\n"
                      << "config_file = .standin/rc: size {width}x{height}\n"
                      << "window = pictor: spin\n"
                      << "startup_timeout = 30s\n"
                      << "startup_wait = 200ms\n"
                      << "startup = key:Return wait:300ms\n"
                      << "inputs = space|Left\n"
                      << "driver = scripted:rate=4,keys=space|Left,seed=5\n"
                      << "load_time = 6s\n";
}

}  // namespace

TEST(PictorSuite, QuickDefaultSuiteWritesACompleteSummaryInUnderTwoMinutes) {
  const fs::path out = fresh("quick");
  const Result r = run({PICTOR_BIN, "suite", "--quick", "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(r.seconds, 120.0) << "make demo runs this: it must stay under two minutes";
  const auto s = read_json(out / "suite.json");
  EXPECT_EQ(s["schema"], 1);
  EXPECT_EQ(s["suite"], "default");
  EXPECT_EQ(s["quick"], true);
  EXPECT_TRUE(s["machine"].is_object());
  EXPECT_EQ(s["counts"]["ok"], 3);
  ASSERT_EQ(s["benchmarks"].size(), 3u);
  for (const auto& b : s["benchmarks"]) {
    SCOPED_TRACE(b.dump());
    EXPECT_EQ(b["status"], "ok");
    EXPECT_EQ(b["adapter"], "local");
    EXPECT_TRUE(b["driver"].is_string());
    for (const char* k : {"fps", "frame_ms_p50", "frame_ms_p99", "low_1pct_fps_percentile", "low_1pct_fps_average",
                          "low_0_1pct_fps_percentile", "low_0_1pct_fps_average"})
      EXPECT_TRUE(b[k].is_number()) << k;
    EXPECT_GT(b["fps"].get<double>(), 5.0);
    EXPECT_LE(b["frame_ms_p50"].get<double>(), b["frame_ms_p99"].get<double>());
    // The scripted driver's inputs were tracked to frames.
    EXPECT_GT(b["rtt_inputs"].get<int>(), 5);
    EXPECT_GT(b["rtt_ms_mean"].get<double>(), 0.0);
    EXPECT_GE(b["rtt_ms_p99"].get<double>(), b["rtt_ms_mean"].get<double>() * 0.5);
    const fs::path session = out / b["session_dir"].get<std::string>();
    for (const char* f : {"run.json", "frames.csv", "summary.json", "inputs.csv", "report.html"})
      EXPECT_TRUE(fs::exists(session / f)) << session / f;
  }
  // The suite's own report.html: every benchmark, linking to its session's report.
  const std::string html = slurp(out / "report.html");
  ASSERT_FALSE(html.empty()) << "no report.html in " << out;
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  for (const auto& b : s["benchmarks"]) {
    EXPECT_NE(html.find("href=\"" + b["session_dir"].get<std::string>() + "/report.html\""), std::string::npos) << b["name"];
    EXPECT_NE(html.find(b["name"].get<std::string>()), std::string::npos) << b["name"];
  }
  EXPECT_NE(r.err.find("report: " + out.string() + "/report.html"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Suite default (quick): 3 ok, 0 failed, 0 skipped"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("pictor: [1/3] racing:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pictor: [3/3] strategy: ok"), std::string::npos) << r.err;
}

TEST(PictorSuite, RepeatRunsInterleavedRoundsAndGivesEachFigureItsIntervalAcrossRuns) {
  const fs::path dir = fresh("repeat");
  {
    std::ofstream f(dir / "two.suite");
    f << "builtin:spin:objects=50 name=spin duration=1s driver=none\n"
         "builtin:latency name=latency duration=1s driver=scripted:rate=10\n";
  }
  const fs::path out = dir / "out";
  const Result r = run({PICTOR_BIN, "suite", (dir / "two.suite").string(), "--repeat", "2", "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Rounds interleave: every benchmark's first run comes before any second run.
  const auto first_second = r.err.find("[1/2 round 2/2]"), last_first = r.err.find("[2/2 round 1/2]");
  ASSERT_NE(first_second, std::string::npos) << r.err;
  ASSERT_NE(last_first, std::string::npos) << r.err;
  EXPECT_LT(last_first, first_second) << r.err;
  const auto s = read_json(out / "suite.json");
  EXPECT_EQ(s["repeat"], 2);
  ASSERT_EQ(s["benchmarks"].size(), 2u);
  for (const auto& b : s["benchmarks"]) {
    SCOPED_TRACE(b.dump());
    EXPECT_EQ(b["runs"], 2);
    ASSERT_TRUE(b["ci_across_runs"]["fps"].is_array());
    EXPECT_LE(b["ci_across_runs"]["fps"][0].get<double>(), b["fps"].get<double>());
    EXPECT_GE(b["ci_across_runs"]["fps"][1].get<double>(), b["fps"].get<double>());
    const fs::path bench = out / b["session_dir"].get<std::string>();
    for (const char* f : {"summary.json", "report.html", "repeat-1/summary.json", "repeat-2/report.html"})
      EXPECT_TRUE(fs::exists(bench / f)) << bench / f;
    EXPECT_EQ(read_json(bench / "summary.json")["kind"], "repeat");
  }
  EXPECT_NE(r.out.find("95 % CI across runs"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out / "report.html"));
}

TEST(PictorSuite, ProfilePathWithAStandInGame) {
  const fs::path out = fresh("standin");
  const fs::path profiles = fresh("standin-profiles");
  write_stand_in_profile(profiles / "standin.profile");
  std::ofstream(profiles / "broken.profile") << "name = broken\ncommand = true\nwindow = x\ninputs = Left|Nope\n";
  std::ofstream(profiles / "absent.profile")
      << "name = absent\ncommand = /nonexistent/pictor-no-game\nwindow = x\ninputs = Left\n";
  std::ofstream(out / "games.suite") << "description = stand-in\nprofile:standin quick=3s\nprofile:absent\nprofile:broken\n";
  const Result r = run({PICTOR_BIN, "suite", (out / "games.suite").string(), "--quick", "-o", (out / "run").string()},
                       {{"PICTOR_PROFILES", profiles.string()}});
  EXPECT_EQ(r.exit_code, 1) << "a broken profile fails its benchmark and the suite\n" << r.err;
  const auto s = read_json(out / "run" / "suite.json");
  ASSERT_EQ(s["benchmarks"].size(), 3u);

  const auto& standin = s["benchmarks"][0];
  ASSERT_EQ(standin["status"], "ok") << standin.dump(2) << r.err;
  EXPECT_EQ(standin["figures_from"], "play");
  EXPECT_GT(standin["fps"].get<double>(), 5.0);
  const fs::path session = out / "run" / standin["session_dir"].get<std::string>();
  const auto launch = read_json(session / "launch.json");
  EXPECT_EQ(launch["window_title"], "pictor: spin");
  EXPECT_TRUE(launch["play_start_ns"].is_number_integer()) << launch.dump(2);
  EXPECT_GT(launch["play_start_ns"].get<long long>(), launch["window_found_ns"].get<long long>());
  EXPECT_EQ(slurp(session / "game-home" / ".standin" / "rc"), "size 1280x720\n");
  // The interposer went into the game, not into the launcher.
  EXPECT_NE(read_json(session / "hook.json")["exe"].get<std::string>().find("pictor-app"), std::string::npos);
  const auto run_json = read_json(session / "run.json");
  EXPECT_EQ(run_json["status"], "ok");

  EXPECT_EQ(s["benchmarks"][1]["status"], "skipped");
  EXPECT_NE(s["benchmarks"][1]["reason"].get<std::string>().find("'/nonexistent/pictor-no-game' is not installed"),
            std::string::npos);
  EXPECT_EQ(s["benchmarks"][2]["status"], "failed");
  EXPECT_NE(s["benchmarks"][2]["reason"].get<std::string>().find("broken.profile:4: "), std::string::npos)
      << s["benchmarks"][2].dump();
  EXPECT_EQ(s["counts"]["ok"], 1);
  EXPECT_EQ(s["counts"]["skipped"], 1);
  EXPECT_EQ(s["counts"]["failed"], 1);
  EXPECT_NE(r.err.find("1 of 3 benchmarks failed"), std::string::npos) << r.err;
}

// The input client holds its inputs while pictor-launch starts the game (window wait, first
// drawing, start-up steps): every input is sent after play started, and tracking works after it.
TEST(PictorRunProfile, InputsWaitUntilTheLauncherStartedPlay) {
  const fs::path profiles = fresh("hold-profiles");
  std::ofstream(profiles / "slowstart.profile")
      << "name = slowstart\n"
      << "command = " << PICTOR_APP_BIN_PATH << " latency --size {width}x{height}\n"
      << "window = pictor: latency\n"
      << "startup_timeout = 30s\n"
      << "startup_wait = 500ms\n"
      << "startup = key:Return wait:2s\n"
      << "inputs = space\n";
  const fs::path out = fresh("hold");
  const Result r = run({PICTOR_BIN, "run", "profile:" + (profiles / "slowstart.profile").string(), "--driver",
                        "scripted:rate=8,keys=space,seed=3", "--size", "320x240", "-d", "8s", "-o", out.string(),
                        "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto launch = read_json(out / "launch.json");
  ASSERT_TRUE(launch["play_start_ns"].is_number_integer()) << launch.dump(2);
  ASSERT_TRUE(launch["first_drawn_ns"].is_number_integer()) << launch.dump(2);
  EXPECT_GE(launch["first_drawn_ns"].get<long long>(), launch["window_found_ns"].get<long long>());
  const long long play = launch["play_start_ns"].get<long long>();
  std::istringstream inputs(slurp(out / "client_inputs.csv"));
  std::string line;
  int rows = 0;
  while (std::getline(inputs, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("tag,", 0) == 0) continue;
    ++rows;
    std::istringstream fields(line);
    std::string f;
    for (int i = 0; i < 4; ++i) std::getline(fields, f, ',');
    EXPECT_GT(std::stoll(f), play) << "input sent before play started: " << line;
  }
  EXPECT_GE(rows, 10);
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_GE(summary["inputs"]["matched"].get<int>(), rows * 9 / 10) << summary["inputs"].dump();
  const auto notes = read_json(out / "run.json")["client"]["notes"].dump();
  EXPECT_NE(notes.find("inputs held for"), std::string::npos) << notes;
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto at = t.rfind('\n');
  return at == std::string::npos ? t : t.substr(at + 1);
}

// The game's pid, from pictor-launch's "started PROGRAM (pid N)" line in app.log.
int game_pid(const fs::path& session) {
  const std::string log = slurp(session / "app.log");
  const auto at = log.find("(pid ");
  return at == std::string::npos ? -1 : std::atoi(log.c_str() + at + 5);
}

// A session shorter than the profile's start-up never reaches play: it fails (exit 1) with one
// line saying so and what the start-up takes, run.json says the same, and the launcher still
// stops the game within the grace period although it was in the middle of a long start-up wait.
TEST(PictorRunProfile, ASessionEndingBeforePlayFailsAndSaysWhatTheStartUpTakes) {
  const fs::path profiles = fresh("noplay-profiles");
  std::ofstream(profiles / "slowmenu.profile")
      << "name = slowmenu\n"
      << "command = " << PICTOR_APP_BIN_PATH << " latency --size {width}x{height}\n"
      << "window = pictor: latency\n"
      << "startup_timeout = 30s\n"
      << "startup_wait = 20s\n"
      << "startup = key:Return wait:5s\n"
      << "inputs = space\n"
      << "load_time = 30s\n";
  const fs::path out = fresh("noplay");
  const Result r = run({PICTOR_BIN, "run", "profile:" + (profiles / "slowmenu.profile").string(), "--driver",
                        "scripted:rate=8,keys=space,seed=3", "--size", "320x240", "-d", "4s", "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string line = last_line(r.err);
  EXPECT_EQ(line.rfind("pictor: play never started within the 4 s duration (the profile's start-up needs about 2", 0), 0u)
      << line;
  EXPECT_NE(line.find(", then 25.05 s of startup_wait and start-up steps; load_time 30 s); see "), std::string::npos)
      << line;
  const auto run_json = read_json(out / "run.json");
  EXPECT_EQ(run_json["status"], "failed");
  EXPECT_EQ("pictor: " + run_json["failure"].get<std::string>(), line);
  const auto launch = read_json(out / "launch.json");
  EXPECT_EQ(launch["startup_end"], "session ended") << launch.dump(2);
  EXPECT_TRUE(launch["play_start_ns"].is_null());
  // The figures are the whole session's, and say so.
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["figures_from"], "session");
  EXPECT_NE(summary["play_note"].get<std::string>().find("the session ended before play started"), std::string::npos);
  // Stopped within the runner's grace, not after the 20 s wait; the game is gone.
  EXPECT_LT(r.seconds, 15.0);
  const int pid = game_pid(out);
  ASSERT_GT(pid, 0) << slurp(out / "app.log");
  EXPECT_NE(::kill(pid, 0), 0) << "the game is still running";
}

// Over a VNC adapter the game's window may start off the framebuffer (Extreme Tux Racer puts its
// 800x600 window at 240,340 on a 1280x720 screen): pictor-launch moves it on screen while it
// holds the inputs, and the RFB client follows it there instead of refusing it at once.
TEST(PictorRunProfile, OverXvncAWindowTheLauncherMovesOnScreenIsTracked) {
  if (!runner::find_executable("glxgears") || !runner::find_executable("Xvnc"))
    GTEST_SKIP() << "needs glxgears (mesa-utils) and Xvnc (tigervnc-standalone-server)";
  const fs::path profiles = fresh("offscreen-profiles");
  std::ofstream(profiles / "offscreen.profile")
      << "name = offscreen\n"
      << "command = glxgears -geometry 400x300+1000+600\n"
      << "window = glxgears\n"
      << "startup_timeout = 30s\n"
      << "startup_wait = 1s\n"
      << "inputs = Left|Right\n";
  const fs::path out = fresh("offscreen");
  const Result r = run({PICTOR_BIN, "run", "profile:" + (profiles / "offscreen.profile").string(), "--adapter",
                        "xvnc", "--driver", "scripted:rate=5,keys=Left|Right,seed=2", "-d", "8s", "-o",
                        out.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto launch = read_json(out / "launch.json");
  EXPECT_NE(launch["notes"].dump().find("moved the window from 1000,600 to 0,0"), std::string::npos) << launch.dump(2);
  EXPECT_TRUE(launch["play_start_ns"].is_number_integer());
  const auto run_json = read_json(out / "run.json");
  EXPECT_EQ(run_json["status"], "ok");
  EXPECT_EQ(run_json["window"]["x"], 0) << run_json["window"].dump();
  EXPECT_EQ(run_json["window"]["y"], 0);
  EXPECT_TRUE(run_json["client"]["failure"].is_null()) << run_json["client"].dump(2);
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["figures_from"], "play");
  const int sent = run_json["client"]["inputs_sent"].get<int>();
  EXPECT_GE(sent, 10);
  // glxgears selects key presses only: the releases are never read, every press is tracked.
  const int presses = sent / 2;
  EXPECT_GE(summary["inputs"]["matched"].get<int>(), presses * 9 / 10) << summary["inputs"].dump();
  EXPECT_GE(summary["inputs"]["not_read"].get<int>(), sent - presses - 1) << summary["inputs"].dump();
}

// The last line of a failure names its first cause: a client that could not start (the window
// hangs off the screen and no launcher moves it) leaves no client_inputs.csv, and that missing
// file must not be what the user is told.
TEST(PictorRun, AClientThatCannotStartIsTheNamedCauseNotTheFilesItLeftOut) {
  if (!runner::find_executable("glxgears") || !runner::find_executable("Xvnc"))
    GTEST_SKIP() << "needs glxgears (mesa-utils) and Xvnc (tigervnc-standalone-server)";
  for (const std::string adapter : {"local", "xvnc"}) {
    SCOPED_TRACE(adapter);
    const fs::path out = fresh("firstcause-" + adapter);
    const Result r = run({PICTOR_BIN, "run", "--adapter", adapter, "--driver", "scripted:rate=5,keys=Left", "-d", "3s",
                          "-o", out.string(), "--", "glxgears", "-geometry", "400x300+1000+600"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::string line = last_line(r.err);
    EXPECT_EQ(line.rfind("pictor: input client failed: ", 0), 0u) << line;
    EXPECT_NE(line.find(adapter == "local" ? "(400x300 at 1000,600) does not show its" : "400x300 at 1000,600 is not inside"),
              std::string::npos)
        << line;
    EXPECT_EQ(line.find("client_inputs.csv"), std::string::npos) << line;
    EXPECT_EQ("pictor: " + read_json(out / "run.json")["failure"].get<std::string>(), line);
  }
}

TEST(PictorSuite, UnknownSuiteIsAUsageError) {
  const Result r = run({PICTOR_BIN, "suite", "nosuchsuite", "--quick"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("pictor: no suite 'nosuchsuite'"), std::string::npos) << r.err;
}

TEST(HomeShim, AnswersThePasswordDatabaseWithThePrivateHome) {
  const Result plain = run({HOME_SHIM_PROBE});
  ASSERT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.out.find("/pictor-private"), std::string::npos);
  const Result shimmed = run({HOME_SHIM_PROBE}, {{"LD_PRELOAD", PICTOR_HOME_SHIM_PATH}, {"PICTOR_PRIVATE_HOME", "/tmp/pictor-private"}});
  ASSERT_EQ(shimmed.exit_code, 0) << shimmed.err;
  EXPECT_EQ(shimmed.out, "/tmp/pictor-private /tmp/pictor-private\n");
}

// Each shipped profile with its real game, only where the game is installed (never installed by
// the tests: scripts/install-games.sh does that by hand). extremetuxracer is not among them: its
// profile's run into play (play_start_ns in launch.json, figures from play) is asserted by
// Offload.ExtremeTuxRacerAnSfmlGameOffloadedOverXvnc, through the same profile and its 30 s of
// menus, so running them a second time here cost CI 51 s and checked nothing more.
class ShippedProfile : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedProfile, RunsIntoPlayWhenInstalled) {
  const std::string name = GetParam();
  const suite::Profile p = suite::load_profile((fs::path(PICTOR_SOURCE_DIR) / "profiles" / (name + ".profile")).string());
  if (!suite::profile_installed(p))
    GTEST_SKIP() << name << " is not installed (scripts/install-games.sh " << name << ")";
  const fs::path out = fresh("real-" + name);
  std::ofstream(out / "one.suite") << "profile:" << name << " quick=5s\n";
  const Result r = run({PICTOR_BIN, "suite", (out / "one.suite").string(), "--quick", "-o", (out / "run").string()});
  const auto s = read_json(out / "run" / "suite.json");
  const auto& b = s["benchmarks"][0];
  ASSERT_EQ(b["status"], "ok") << b.dump(2) << r.err;
  const auto launch = read_json(out / "run" / b["session_dir"].get<std::string>() / "launch.json");
  EXPECT_TRUE(launch["play_start_ns"].is_number_integer()) << launch.dump(2);
  EXPECT_EQ(b["figures_from"], "play");
  EXPECT_GT(b["frames"].get<int>(), 5);
}

INSTANTIATE_TEST_SUITE_P(Games, ShippedProfile, ::testing::Values("neverball", "supertuxkart"));
