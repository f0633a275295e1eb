// Faults as a user meets them (issue 14): a frozen app or X server, Ctrl-C, absurd durations, bad
// scene options, an existing session directory, an absurd graph span. Real processes, real signals.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <thread>

#include "helpers.h"

extern char** environ;

using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

struct Ended {
  int exit_code = -1;
  double max_rss_mib = 0;
  double seconds = 0;
  std::string err, out;
  std::string last_err_line() const {
    CommandResult r;
    r.err = err;
    return r.last_err_line();
  }
};

// pictor (or any argv) in the background, stdout and stderr to files, optionally in `cwd`.
class Background {
 public:
  explicit Background(std::vector<std::string> args, const std::string& cwd = "")
      : err_(fresh_dir("bg") + "/err"), out_(fs::path(err_).parent_path() / "out") {
    if (!cwd.empty()) {
      std::vector<std::string> in_cwd{"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd};
      in_cwd.insert(in_cwd.end(), args.begin(), args.end());
      args = std::move(in_cwd);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    start_ = std::chrono::steady_clock::now();
    EXPECT_EQ(posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
  }
  pid_t pid() const { return pid_; }
  Ended wait() {
    Ended e;
    int status = 0;
    rusage ru{};
    EXPECT_EQ(::wait4(pid_, &status, 0, &ru), pid_);
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    e.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    e.max_rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
    std::ifstream in(err_), out(out_);
    std::stringstream ss, so;
    ss << in.rdbuf();
    so << out.rdbuf();
    e.err = ss.str();
    e.out = so.str();
    return e;
  }

 private:
  std::string err_;
  std::string out_;
  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point start_;
};

// run.json once `ready` holds for it (it is replaced atomically), or null after `timeout_s`.
nlohmann::json wait_for_run(const std::string& dir, const std::function<bool(const nlohmann::json&)>& ready,
                            double timeout_s = 20) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      const auto run = read_json(dir + "/run.json");
      if (run.is_object() && ready(run)) return run;
    } catch (...) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return nullptr;
}

// The pid of the process named `name` in run.json's processes while the session runs.
int pid_of(const nlohmann::json& run, const std::string& name) {
  for (const auto& p : run.value("processes", nlohmann::json::array()))
    if (p.value("name", "").find(name) != std::string::npos) return p["pid"].get<int>();
  return -1;
}

const nlohmann::json& entry_of(const nlohmann::json& run, const std::string& name) {
  static const nlohmann::json none;
  for (const auto& p : run["processes"])
    if (p.value("name", "").find(name) != std::string::npos) return p;
  return none;
}

// Waits until the app has presented frames for about `seconds`, then returns the session's run.json.
nlohmann::json running_with_frames(const std::string& dir, double seconds) {
  const auto run = wait_for_run(dir, [&](const nlohmann::json& r) {
    return r.contains("app") && r["app"].contains("pid") && fs::exists(dir + "/frames.csv") &&
           read_csv_rows(dir + "/frames.csv").size() > 20;
  });
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return run;
}

void expect_no_process_left(const nlohmann::json& run) {
  ASSERT_TRUE(run.contains("processes"));
  for (const auto& p : run["processes"]) EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
}

// The case: SIGSTOP of the app 2 s into a 6 s session was exit 0, status ok, 290 FPS.
TEST(Faults, AFrozenAppIsAStallAndAFailure) {
  const std::string dir = fresh_dir("sigstop-app");
  Background pictor({PICTOR_BIN, "run", "-d", "6s", "--size", "320x240", "builtin:spin:objects=50", "-o", dir});
  const auto running = running_with_frames(dir, 1.0);
  ASSERT_TRUE(running.is_object());
  const int app = running["app"]["pid"].get<int>();
  ASSERT_EQ(::kill(app, SIGSTOP), 0);
  const Ended e = pictor.wait();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  const std::string last = e.last_err_line();
  EXPECT_NE(last.find("builtin:spin:objects=50 stopped presenting frames"), std::string::npos) << last;
  EXPECT_NE(last.find("no frame for the last"), std::string::npos) << last;
  EXPECT_NE(last.find("it was suspended"), std::string::npos) << last;

  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_EQ(run["failure"], last.substr(std::string("pictor: ").size()));
  const auto& entry = entry_of(run, "pictor-app");
  EXPECT_EQ(entry["ended_by"], "pictor") << entry.dump();
  EXPECT_EQ(entry.value("suspended_at_end", false), true) << entry.dump();
  EXPECT_NE(entry["ended"].get<std::string>().find("SIGKILL"), std::string::npos) << entry.dump();
  expect_no_process_left(run);

  const auto summary = read_json(dir + "/summary.json");
  const auto& stalls = summary["stalls"];
  EXPECT_EQ(stalls["ended_in_stall"], true) << stalls.dump();
  EXPECT_GE(stalls["count"].get<int>(), 1);
  const double tail = stalls["last_frame_to_end_s"].get<double>();
  EXPECT_GT(tail, 2.5) << stalls.dump();
  EXPECT_LT(tail, 5.0) << stalls.dump();
  EXPECT_EQ(stalls["list"].back()["at_end"], true);
  // Frames and the stall cover the session: nothing is hidden by the shorter span of the frames.
  EXPECT_NEAR(summary["duration_s"].get<double>() + tail, run["duration_measured_s"].get<double>(), 1.5);
  std::fprintf(stderr, "[ figures  ] SIGSTOP app: %s FPS over %.2f s of frames, stalls %s; %s\n",
               summary["fps_avg"].dump().c_str(), summary["duration_s"].get<double>(), stalls.dump().c_str(),
               last.c_str());

  // analyze of the directory says it (the end from run.json); of frames.csv alone, that it cannot.
  const auto analyzed = run_command({PICTOR_BIN, "analyze", dir});
  EXPECT_EQ(analyzed.exit_code, 0) << analyzed.err;
  EXPECT_NE(analyzed.out.find("the app stopped presenting: no frame for the last"), std::string::npos) << analyzed.out;
  const auto bare = run_command({PICTOR_BIN, "analyze", dir + "/frames.csv"});
  EXPECT_NE(bare.out.find("a frames.csv alone does not say when the session ended"), std::string::npos) << bare.out;
  // The graph draws the stall as a band to the session's end.
  const auto graph = run_command({PICTOR_BIN, "graph", dir, "-o", dir + "/graph.svg"});
  ASSERT_EQ(graph.exit_code, 0) << graph.err;
  std::ifstream svg(dir + "/graph.svg");
  std::stringstream text;
  text << svg.rdbuf();
  EXPECT_NE(text.str().find("class=\"stall\""), std::string::npos);
  EXPECT_NE(text.str().find("no frame for the last"), std::string::npos);
}

// SIGSTOP of the X server freezes the app with it; the suspended server is named as the cause.
TEST(Faults, ASuspendedXServerIsNamedAsTheCause) {
  const std::string dir = fresh_dir("sigstop-xvfb");
  Background pictor({PICTOR_BIN, "run", "-d", "6s", "--size", "320x240", "builtin:spin:objects=50", "-o", dir});
  const auto running = running_with_frames(dir, 1.0);
  ASSERT_TRUE(running.is_object());
  const int xvfb = pid_of(running, "Xvfb");
  ASSERT_GT(xvfb, 0) << running.dump();
  ASSERT_EQ(::kill(xvfb, SIGSTOP), 0);
  const Ended e = pictor.wait();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  const std::string last = e.last_err_line();
  EXPECT_EQ(last.rfind("pictor: Xvfb was suspended", 0), 0u) << last;
  EXPECT_NE(last.find("stopped presenting frames"), std::string::npos) << last;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_EQ(entry_of(run, "Xvfb").value("suspended_at_end", false), true) << run["processes"].dump();
  EXPECT_EQ(read_json(dir + "/summary.json")["stalls"]["ended_in_stall"], true);
  expect_no_process_left(run);
  std::fprintf(stderr, "[ figures  ] SIGSTOP Xvfb: %s\n", last.c_str());
}

// An X server killed from outside is recorded as that, not as "stopped by pictor".
TEST(Faults, AKilledXServerIsRecordedAsKilledFromOutside) {
  const std::string dir = fresh_dir("kill-xvfb");
  Background pictor({PICTOR_BIN, "run", "-d", "10s", "--size", "320x240", "builtin:spin:objects=50", "-o", dir});
  const auto running = running_with_frames(dir, 0.5);
  ASSERT_TRUE(running.is_object());
  ASSERT_EQ(::kill(pid_of(running, "Xvfb"), SIGKILL), 0);
  const Ended e = pictor.wait();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  EXPECT_EQ(e.last_err_line().rfind("pictor: Xvfb died", 0), 0u) << e.err;
  EXPECT_NE(e.last_err_line().find("killed by SIGKILL from outside pictor"), std::string::npos) << e.err;
  const auto run = read_json(dir + "/run.json");
  const auto& x = entry_of(run, "Xvfb");
  EXPECT_EQ(x["ended_by"], "outside") << x.dump();
  EXPECT_EQ(x["status"], "killed by SIGKILL") << x.dump();
  EXPECT_NE(x["ended"].get<std::string>().find("from outside pictor"), std::string::npos) << x.dump();
  EXPECT_NE(entry_of(run, "pictor-app")["ended"].get<std::string>().find("Xvfb died"), std::string::npos)
      << run["processes"].dump();
  expect_no_process_left(run);
}

// Ctrl-C is not "the app failed": status interrupted, exit 130 as in a shell, results kept.
TEST(Faults, InterruptionHasItsOwnStatus) {
  const std::string dir = fresh_dir("sigint");
  Background pictor({PICTOR_BIN, "run", "-d", "20s", "--size", "320x240", "builtin:spin:objects=50", "-o", dir});
  ASSERT_TRUE(running_with_frames(dir, 0.5).is_object());
  ASSERT_EQ(::kill(pictor.pid(), SIGINT), 0);
  const Ended e = pictor.wait();
  EXPECT_EQ(e.exit_code, 130) << e.err;
  EXPECT_EQ(e.last_err_line().rfind("pictor: interrupted by SIGINT after", 0), 0u) << e.err;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "interrupted");
  EXPECT_EQ(run["interrupted_by"], "SIGINT");
  EXPECT_NE(entry_of(run, "pictor-app")["ended"].get<std::string>().find("when interrupted (SIGINT)"),
            std::string::npos);
  EXPECT_GT(read_json(dir + "/summary.json")["frames"].get<int>(), 20);
  EXPECT_TRUE(fs::exists(dir + "/frametime.png"));
  expect_no_process_left(run);
  EXPECT_LT(e.seconds, 15.0) << "did not wait out the duration";
}

TEST(Faults, AbsurdDurationsAreUsageErrorsWithTheBounds) {
  for (const char* d : {"1e300s", "1e-9s", "25h", "0"}) {
    const std::string dir = fresh_dir("duration") + "/never";
    const auto r = run_command({PICTOR_BIN, "run", "-d", d, "builtin:null", "-o", dir});
    EXPECT_EQ(r.exit_code, 2) << d << ": " << r.err;
    const std::string last = r.last_err_line();
    EXPECT_NE(last.find(d), std::string::npos) << last;
    EXPECT_TRUE(last.find("must be between 1 s and 24 h") != std::string::npos || last.find("year") != std::string::npos)
        << last;
    EXPECT_FALSE(fs::exists(dir)) << "nothing starts for a bad duration";
  }
}

TEST(Faults, ABadSceneOptionIsRefusedBeforeAnythingStarts) {
  const std::string dir = fresh_dir("bad-option") + "/never";
  const auto r = run_command({PICTOR_BIN, "run", "-d", "2s", "builtin:spin:objects=abc", "-o", dir});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.last_err_line(), "pictor: scene 'spin': objects=abc is not an integer in [1, 1000000] (number of cubes)");
  EXPECT_FALSE(fs::exists(dir)) << "no directory, no Xvfb, no app";
  const auto range = run_command({PICTOR_BIN, "run", "-d", "2s", "builtin:racing:detail=99", "-o", dir});
  EXPECT_EQ(range.exit_code, 2) << range.err;
  EXPECT_NE(range.last_err_line().find("scene 'racing': detail=99 is not a number in [0.1, 8]"), std::string::npos) << range.err;
}

TEST(Faults, AnExistingSessionIsNeverOverwrittenWithoutForce) {
  const std::string dir = fresh_dir("existing");
  ASSERT_EQ(run_command({PICTOR_BIN, "-q", "run", "-d", "1s", "--size", "320x240", "builtin:null", "-o", dir}).exit_code, 0);
  const auto first = read_json(dir + "/run.json");
  std::ofstream(dir + "/mine-from-the-first-run.txt") << "x\n";
  const auto refused = run_command({PICTOR_BIN, "run", "-d", "1s", "builtin:null", "-o", dir});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.last_err_line().find("already holds the results of an earlier run"), std::string::npos) << refused.err;
  EXPECT_NE(refused.last_err_line().find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(read_json(dir + "/run.json"), first) << "the refusal touched nothing";
  const auto forced = run_command({PICTOR_BIN, "-q", "run", "-d", "1s", "--size", "320x240", "builtin:null", "-o", dir, "--force"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  const auto second = read_json(dir + "/run.json");
  EXPECT_GT(second["start_ns"].get<int64_t>(), first["end_ns"].get<int64_t>());
  EXPECT_FALSE(fs::exists(dir + "/mine-from-the-first-run.txt")) << "--force empties the directory";
  // Every frame is the second session's.
  for (const auto& row : read_csv_rows(dir + "/frames.csv"))
    EXPECT_GT(std::stoll(row[2]), first["end_ns"].get<int64_t>());
}

TEST(Faults, DefaultDirectoriesNeverCollide) {
  // Two runs started together in one directory, both without --out: two session directories.
  const std::string cwd = fresh_dir("default-out");
  Background a({PICTOR_BIN, "-q", "run", "-d", "1s", "--size", "320x240", "builtin:null"}, cwd);
  Background b({PICTOR_BIN, "-q", "run", "-d", "1s", "--size", "320x240", "builtin:null"}, cwd);
  EXPECT_EQ(a.wait().exit_code, 0);
  EXPECT_EQ(b.wait().exit_code, 0);
  std::vector<std::string> dirs;
  for (const auto& d : fs::directory_iterator(fs::path(cwd) / "pictor-out")) dirs.push_back(d.path().string());
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_NE(read_json(dirs[0] + "/run.json")["app"]["pid"], read_json(dirs[1] + "/run.json")["app"]["pid"]);
}

// Frames at 0 and INT64_MAX ns: `pictor graph` took 11 GB in 20 s. Now one line, exit 2, at once.
TEST(Faults, AnAbsurdGraphSpanIsOneLineInBoundedMemory) {
  const std::string dir = fresh_dir("huge-span");
  {
    std::ofstream csv(dir + "/frames.csv");
    csv << "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
        << "0,0,0,,,,,,\n"
        << "1,0," << std::numeric_limits<int64_t>::max() << ",,,,,,\n";
  }
  // The bound is the memory of drawing an ordinary graph (one second), plus a margin far below
  // the gigabytes a layout of the span would take; relative, so that the sanitizer build, whose
  // every process is larger, is held to it too.
  const std::string small = fresh_dir("small-span");
  std::ofstream(small + "/frames.csv") << "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
                                       << "0,0,0,,,,,,\n1,0,1000000000,,,,,,\n";
  const Ended ordinary = Background({PICTOR_BIN, "graph", small + "/frames.csv", "-o", small + "/g.png"}).wait();
  ASSERT_EQ(ordinary.exit_code, 0) << ordinary.err;
  for (const char* out : {"/g.png", "/g.svg"}) {
    Background graph({PICTOR_BIN, "graph", dir + "/frames.csv", "-o", dir + out});
    const Ended e = graph.wait();
    EXPECT_EQ(e.exit_code, 2) << e.err;
    EXPECT_NE(e.last_err_line().find("292 years"), std::string::npos) << e.err;
    EXPECT_EQ(e.err.find('\n'), e.err.size() - 1) << "one line: " << e.err;
    EXPECT_LT(e.max_rss_mib, ordinary.max_rss_mib + 100.0) << "an ordinary graph: " << ordinary.max_rss_mib << " MiB";
    EXPECT_LT(e.seconds, 10.0);
    EXPECT_FALSE(fs::exists(dir + out));
  }
}

}  // namespace

// Ctrl-C during `--instances`: every stack torn down, each session's results kept, the run's
// own status interrupted with 130.
TEST(Faults, InterruptingInstancesStopsEveryStackAndKeepsTheirResults) {
  const std::string dir = fresh_dir("sigint-instances");
  Background pictor({PICTOR_BIN, "run", "--instances", "2", "-d", "30s", "--size", "320x240", "builtin:spin:objects=50",
                     "-o", dir});
  ASSERT_TRUE(running_with_frames(dir + "/instance-2", 0.5).is_object());
  ASSERT_EQ(::kill(pictor.pid(), SIGINT), 0);
  const Ended e = pictor.wait();
  EXPECT_EQ(e.exit_code, 130) << e.err;
  EXPECT_EQ(e.last_err_line().rfind("pictor: interrupted by SIGINT", 0), 0u) << e.err;
  EXPECT_EQ(read_json(dir + "/run.json")["status"], "interrupted");
  for (const char* name : {"instance-1", "instance-2"}) {
    const auto run = read_json(dir + "/" + name + "/run.json");
    EXPECT_EQ(run["status"], "interrupted") << name;
    EXPECT_GT(read_json(dir + "/" + name + "/summary.json")["frames"].get<int>(), 5) << name;
    expect_no_process_left(run);
  }
  EXPECT_LT(e.seconds, 25.0) << "did not wait out the duration";
}
