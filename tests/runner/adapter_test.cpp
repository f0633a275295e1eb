// `pictor run --adapter xvnc|x11vnc` as a user runs it: the servers start on free displays and
// loopback ports, the app renders into them, and a proxy that dies mid-run is a clear failure
// with everything recorded kept and no process left behind.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "helpers.h"
#include "net/netem.h"
#include "runner/adapter.h"

extern char** environ;

using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

void expect_no_process_left(const nlohmann::json& run) {
  ASSERT_TRUE(run.contains("processes"));
  for (const auto& p : run["processes"]) EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
}

// An adapter spec is checked like every other spec (core/options.h): the adapters declare no
// option (display takes its X display as the leading value), so any option is unknown, in the
// one wording.
TEST(AdapterSpecs, NameAndOptionsAreChecked) {
  namespace r = pictor::runner;
  EXPECT_EQ(r::require_adapter_name("xvnc"), "xvnc");
  EXPECT_EQ(r::require_adapter_name("stream:"), "stream");  // the name, whatever options follow
  auto error_of = [](const char* spec) {
    try {
      r::require_adapter_name(spec);
    } catch (const pictor::UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("xvnc:quality=9"), "adapter 'xvnc' has no option 'quality' (options: none)");
  EXPECT_EQ(error_of("vnc"), "unknown adapter 'vnc' (known: local, xvnc, x11vnc, stream, vncviewer, xpra, display)");
  EXPECT_EQ(r::adapter_names(),
            (std::vector<std::string>{"local", "xvnc", "x11vnc", "stream", "vncviewer", "xpra", "display"}));
  // display:DISPLAY: the display is the leading value, colons and all.
  EXPECT_EQ(r::parse_adapter_spec("display::0").display, ":0");
  EXPECT_EQ(r::parse_adapter_spec("display:localhost:10.0").display, "localhost:10.0");
  EXPECT_EQ(r::parse_adapter_spec("display::5").name, "display");
  EXPECT_EQ(r::parse_adapter_spec("xvnc").display, "");
  EXPECT_EQ(error_of("display"), "adapter 'display': DISPLAY comes first (DISPLAY[,option=value...])");
  EXPECT_EQ(error_of("display::0,fast=1"), "adapter 'display' has no option 'fast' (options: none)");
}

class Adapters : public ::testing::TestWithParam<std::string> {};

TEST_P(Adapters, AppRendersIntoTheProxyDisplay) {
  const std::string adapter = GetParam();
  const std::string dir = fresh_dir("adapter-" + adapter);
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", adapter, "builtin:spin:objects=100",
                              "--size", "640x360", "-d", "2s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_EQ(run["adapter"], adapter);
  EXPECT_EQ(run["proxy"]["proxy"], adapter == "xvnc" ? "Xvnc" : "x11vnc");
  EXPECT_NE(run["proxy"]["proxy_version"].get<std::string>().find(adapter == "xvnc" ? "TigerVNC" : "x11vnc"),
            std::string::npos);
  const int port = run["proxy"]["rfb_port"].get<int>();
  EXPECT_GT(port, 1023);
  // Frames were presented on the proxy's display.
  EXPECT_GT(read_csv_rows(dir + "/frames.csv").size(), 20u);
  expect_no_process_left(run);
  EXPECT_EQ(run["processes"].size(), adapter == "xvnc" ? 2u : 3u);
}

INSTANTIATE_TEST_SUITE_P(Remote, Adapters, ::testing::Values("xvnc", "x11vnc"));

TEST(Adapters, NetNeedsARemoteAdapter) {
  const auto r = run_command({PICTOR_BIN, "run", "--net", "delay=20ms", "builtin:null", "-d", "1s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("--net needs a remote adapter"), std::string::npos) << r.err;
}

TEST(Adapters, BadNetSpecIsAUsageError) {
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--net", "delay=fast", "builtin:null", "-d", "1s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("delay"), std::string::npos) << r.err;
}

// A 20 s `pictor run --adapter ADAPTER` of the spin scene into `dir`, started in the background
// with stderr in DIR.err, to be killed under: the pid, run.json once it shows more than 10 frames
// recorded (null when that never came within 15 s), and at the end the exit code and the last
// stderr line.
struct BackgroundRun {
  std::string dir;
  pid_t pid = -1;

  BackgroundRun(const std::string& adapter, std::string out) : dir(std::move(out)) {
    std::vector<std::string> args{PICTOR_BIN, "run", "--adapter", adapter, "builtin:spin:objects=100", "--size",
                                  "640x360", "-d", "20s", "-o", dir};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, (dir + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&fa);
  }

  nlohmann::json wait_for_frames(const std::string& key) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        const auto run = read_json(dir + "/run.json");
        if (run.contains(key) && fs::exists(dir + "/frames.csv") &&
            read_csv_rows(dir + "/frames.csv").size() > 10)
          return run;
      } catch (...) {
        // run.json is replaced atomically, but may not exist yet.
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return nullptr;
  }

  // Waits for pictor to end: its exit code (-1 when it did not exit) and its last stderr line.
  std::pair<int, std::string> wait_end() const {
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return {-1, ""};
    std::ifstream in(dir + ".err");
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    return {WEXITSTATUS(status), last};
  }
};

// The proxy killed mid-run: exit 1 naming it, frames recorded so far kept, nothing left running.
TEST(Adapters, ProxyKilledMidRun) {
  const BackgroundRun bg("xvnc", fresh_dir("proxy-killed"));
  ASSERT_GT(bg.pid, 0);
  // Wait for the proxy's pid in run.json and for the first frames, then kill the proxy.
  const auto started = bg.wait_for_frames("proxy");
  ASSERT_TRUE(started.is_object() && started.contains("proxy")) << started.dump();
  const int proxy_pid = started["proxy"]["proxy_pid"].get<int>();
  ASSERT_GT(proxy_pid, 0);
  ::kill(proxy_pid, SIGKILL);
  const auto [exit_code, last] = bg.wait_end();
  EXPECT_EQ(exit_code, 1);
  EXPECT_EQ(last.rfind("pictor: Xvnc died", 0), 0u) << last;
  const auto run = read_json(bg.dir + "/run.json");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_GT(read_csv_rows(bg.dir + "/frames.csv").size(), 10u);
  EXPECT_TRUE(fs::exists(bg.dir + "/summary.json"));
  // Who ended it: not Pictor's stop, a SIGKILL from outside (it was "stopped by pictor").
  const auto& xvnc = run["processes"][0];
  EXPECT_EQ(xvnc["name"], "Xvnc");
  EXPECT_EQ(xvnc["ended_by"], "outside") << xvnc.dump();
  EXPECT_EQ(xvnc["ended"], "killed by SIGKILL from outside pictor (another process or the kernel)") << xvnc.dump();
  EXPECT_NE(last.find("killed by SIGKILL from outside pictor"), std::string::npos) << last;
  expect_no_process_left(run);
}

// Killing the Xvfb under x11vnc was reported as "x11vnc died": the first cause is the X server;
// x11vnc and the app ended after it.
TEST(Adapters, XServerKilledUnderX11vncIsTheFirstCause) {
  const BackgroundRun bg("x11vnc", fresh_dir("x11vnc-xvfb-killed"));
  ASSERT_GT(bg.pid, 0);
  int xvfb_pid = -1;
  const auto started = bg.wait_for_frames("processes");
  if (started.is_object())
    for (const auto& p : started["processes"])
      if (p["name"] == "Xvfb") xvfb_pid = p["pid"].get<int>();
  ASSERT_GT(xvfb_pid, 0);
  ::kill(xvfb_pid, SIGKILL);
  const auto [exit_code, last] = bg.wait_end();
  EXPECT_EQ(exit_code, 1);
  EXPECT_EQ(last.rfind("pictor: Xvfb died", 0), 0u) << last;
  EXPECT_NE(last.find("killed by SIGKILL from outside pictor"), std::string::npos) << last;
  EXPECT_NE(last.find("xvfb.log"), std::string::npos) << last;
  const auto run = read_json(bg.dir + "/run.json");
  EXPECT_EQ(run["status"], "failed");
  ASSERT_EQ(run["processes"].size(), 3u);
  const auto& x11vnc = run["processes"][0];
  const auto& xvfb = run["processes"][1];
  const auto& app = run["processes"][2];
  EXPECT_EQ(xvfb["ended_by"], "outside") << xvfb.dump();
  EXPECT_EQ(xvfb["status"], "killed by SIGKILL");
  EXPECT_NE(x11vnc["ended"].get<std::string>().find("after Xvfb died"), std::string::npos) << x11vnc.dump();
  EXPECT_NE(app["ended"].get<std::string>().find("Xvfb died"), std::string::npos) << app.dump();
  EXPECT_LE(xvfb["ended_s"].get<double>(), x11vnc["ended_s"].get<double>());
  expect_no_process_left(run);
}

}  // namespace

namespace {

nlohmann::json run_remote(const std::string& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> argv{PICTOR_BIN, "--quiet", "run", "-o", dir};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_json(dir + "/summary.json");
}

class RemoteTracking : public ::testing::TestWithParam<std::string> {};

// Issue #3: each adapter tracks a built-in scene's inputs through the proxy: ≥ 90 % matched, RTT
// and CP present, client FPS ≤ server FPS, nothing left running.
TEST_P(RemoteTracking, InputsAreMatchedThroughTheProxy) {
  const std::string adapter = GetParam();
  const std::string dir = fresh_dir("remote-track-" + adapter);
  const auto s = run_remote(dir, {"--adapter", adapter, "--driver", "scripted:rate=5,keys=Up|Left,seed=3",
                                  "builtin:racing", "--size", "640x360", "-d", "6s"});
  const auto sent = s["inputs"]["sent"].get<int>();
  const auto matched = s["inputs"]["matched"].get<int>();
  EXPECT_GT(sent, 15);
  EXPECT_GE(matched, 0.9 * sent) << s["inputs"].dump();
  EXPECT_GT(s["rtt_ms"]["n"].get<int>(), 0);
  EXPECT_GT(s["rtt_ms"]["mean"].get<double>(), 0.0);
  ASSERT_TRUE(s["stages_ms"].contains("CP_ms")) << s["stages_ms"].dump();
  EXPECT_GT(s["stages_ms"]["CP_ms"]["n"].get<int>(), 0);
  EXPECT_TRUE(s["stages_ms"].contains("CS_ms"));
  // The client cannot see more distinct frames than the app presented, nor (in the long run) see
  // them faster than the app drew the same frames: 25 % allows the catch-up after a first frame
  // that arrived late, as it can under load.
  const auto& cf = s["client_frames"];
  EXPECT_LE(cf["seen"].get<double>(), cf["app_frames"].get<double>()) << cf.dump();
  ASSERT_TRUE(cf["app_fps_same_span"].is_number()) << cf.dump();
  EXPECT_LE(s["fps_client"].get<double>(), 1.25 * cf["app_fps_same_span"].get<double>()) << cf.dump();
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_TRUE(run["rfb"].is_object());
  EXPECT_GT(run["client"]["updates"].get<int>(), 0);
  for (const char* f : {"client_updates.csv", "proxy_events.csv", "inputs.csv", "trace.json"})
    EXPECT_TRUE(fs::exists(fs::path(dir) / f)) << f;
  expect_no_process_left(run);
}

INSTANTIATE_TEST_SUITE_P(Remote, RemoteTracking, ::testing::Values("xvnc", "x11vnc"));

// Issue #3: delay=20ms on each direction adds 40 ± 4 ms to the mean RTT. Runs alone (RUN_SERIAL in tests/schedule.cmake).
TEST(RemoteNet, DelayAddsTwiceTheOneWayDelayToRtt) {
  const std::vector<std::string> common{"--adapter", "xvnc", "--driver", "scripted:rate=4,hold=100ms,keys=space,seed=5",
                                        "builtin:latency", "--size", "640x360", "-d", "8s"};
  auto with = common;
  with.insert(with.end(), {"--net", "delay=20ms"});
  const auto base = run_remote(fresh_dir("net-base"), common);
  const auto delayed = run_remote(fresh_dir("net-delay"), with);
  ASSERT_GT(base["rtt_ms"]["n"].get<int>(), 10);
  ASSERT_GT(delayed["rtt_ms"]["n"].get<int>(), 10);
  const double diff = delayed["rtt_ms"]["mean"].get<double>() - base["rtt_ms"]["mean"].get<double>();
  EXPECT_NEAR(diff, 40.0, 4.0) << "base " << base["rtt_ms"].dump() << "\ndelayed " << delayed["rtt_ms"].dump();
  // The delay is on the network: CS (client → proxy) carries about one one-way delay.
  EXPECT_NEAR(delayed["stages_ms"]["CS_ms"]["p50"].get<double>(), 20.0, 4.0);
}

// The kernel backend where it exists: the same 40 ± 4 ms as the relay. Runs alone (RUN_SERIAL in tests/schedule.cmake).
TEST(RemoteNet, NetemDelayAddsTwiceTheOneWayDelayToRtt) {
  if (const auto why = pictor::net::netem_unavailable()) GTEST_SKIP() << "netem is not available here: " << *why;
  if (::geteuid() != 0) GTEST_SKIP() << "netem on loopback needs root (CAP_NET_ADMIN)";
  const std::vector<std::string> common{"--adapter", "xvnc", "--driver", "scripted:rate=4,hold=100ms,keys=space,seed=5",
                                        "builtin:latency", "--size", "640x360", "-d", "8s"};
  auto with = common;
  with.insert(with.end(), {"--net", "delay=20ms", "--net-backend", "netem"});
  const auto base = run_remote(fresh_dir("netem-base"), common);
  const std::string dir = fresh_dir("netem-delay");
  const auto delayed = run_remote(dir, with);
  const double diff = delayed["rtt_ms"]["mean"].get<double>() - base["rtt_ms"]["mean"].get<double>();
  EXPECT_NEAR(diff, 40.0, 4.0) << "base " << base["rtt_ms"].dump() << "\ndelayed " << delayed["rtt_ms"].dump();
  EXPECT_EQ(read_json(dir + "/run.json")["net"]["emulation"], "tc netem on lo");
}

// Where the kernel has no netem (or no permission), the backend is one clear line, exit 1, the
// session directory kept, the proxy stopped and loopback left as it was.
TEST(RemoteNet, NetemUnavailableIsAClearFailure) {
  if (!pictor::net::netem_unavailable() && ::geteuid() == 0)
    GTEST_SKIP() << "netem works here; NetemDelayAddsTwiceTheOneWayDelayToRtt covers it";
  const auto qdisc_before = run_command({"/bin/sh", "-c", "tc qdisc show dev lo"}).out;
  const std::string dir = fresh_dir("netem-missing");
  const auto r = run_command({PICTOR_BIN, "--quiet", "run", "--adapter", "xvnc", "--net", "delay=20ms", "--net-backend",
                              "netem", "--driver", "scripted", "builtin:latency", "-d", "3s", "-o", dir});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.last_err_line().rfind("pictor: --net-backend netem: ", 0), 0u) << r.err;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "failed to start");
  EXPECT_EQ(run["net"]["emulation"], "tc netem on lo");
  EXPECT_FALSE(process_alive(run["proxy"]["proxy_pid"].get<int>()));
  EXPECT_EQ(run_command({"/bin/sh", "-c", "tc qdisc show dev lo"}).out, qdisc_before);
}

TEST(Adapters, NetBackendUsageErrors) {
  auto r = run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--net", "delay=5ms", "--net-backend", "tunnel",
                        "builtin:null", "-d", "1s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("unknown --net-backend 'tunnel'"), std::string::npos) << r.err;
  r = run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--net-backend", "netem", "builtin:null", "-d", "1s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("--net-backend netem needs --net"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// A key held longer than X's auto-repeat delay (660 ms on Xvfb) must not produce repeats the
// client never sent: every read is one the client sent, and every input is matched.
TEST(Tracking, HeldKeysDoNotAutoRepeat) {
  const std::string dir = fresh_dir("held-keys");
  const auto s = run_remote(dir, {"--driver", "scripted:rate=0.3,hold=1200ms,keys=space,seed=2", "builtin:latency",
                                  "--size", "640x360", "-d", "12s"});
  const auto reads = read_csv_rows(dir + "/inputs_read.csv");
  const auto sent = read_csv_rows(dir + "/client_inputs.csv");
  EXPECT_GE(sent.size(), 4u);
  EXPECT_EQ(reads.size(), sent.size());
  EXPECT_EQ(s["inputs"]["matched"].get<std::size_t>(), sent.size()) << s["inputs"].dump();
  EXPECT_EQ(read_json(dir + "/run.json")["keyboard_auto_repeat"], false);
}

}  // namespace
