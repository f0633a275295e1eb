// The local client on a real OpenGL app: pictor-app (Mesa llvmpipe on Xvfb) under the
// interposer with input tracking and the marker on. Checks the whole chain the runner uses.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "analysis/rtt.h"
#include "client/local_client.h"
#include "core/preload.h"
#include "drivers/driver.h"
#include "test_display.h"

extern char** environ;

namespace pictor::client {
namespace {

namespace fs = std::filesystem;

// pictor-app NAME under LD_PRELOAD of the hook, its files going to `out`.
pid_t spawn_app(const std::string& display, const std::string& out, const std::string& scene) {
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) env_text.emplace_back(*e);
  env_text.push_back("DISPLAY=" + display);
  env_text.push_back("LD_PRELOAD=" + pictor::preload_value(PICTOR_HOOK_PATH));
  env_text.push_back("PICTOR_OUT=" + out);
  env_text.push_back("PICTOR_MARKER=1");
  std::vector<char*> env;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::vector<std::string> args = {PICTOR_APP_BIN, scene, "--size", "320x240"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, PICTOR_APP_BIN, nullptr, nullptr, argv.data(), env.data()) != 0) return -1;
  return pid;
}

TEST(LocalClientGl, TracksInputsThroughARealGlAppUnderTheHook) {
  test::TestXvfb x;
  const fs::path dir = fs::temp_directory_path() / ("pictor-client-gl-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const pid_t app = spawn_app(x.display(), dir.string(), "null");
  ASSERT_GT(app, 0);
  LocalClientOptions o;
  o.display = x.display();
  o.out_dir = dir.string();
  o.window_timeout_s = 30;  // llvmpipe start-up on a loaded 2-core machine
  o.app_running = [app] { return ::waitpid(app, nullptr, WNOHANG) == 0; };
  auto client = LocalClient::start(o, drivers::make_driver("scripted:rate=20,keys=space+Left"));
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  const ClientStats stats = client->stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the app reads the last releases
  ::kill(app, SIGTERM);
  int status = 0;
  ::waitpid(app, &status, 0);

  EXPECT_TRUE(stats.failure.empty()) << stats.failure;
  EXPECT_GT(stats.inputs_sent, 20u);
  EXPECT_GT(stats.captures, 10u);
  EXPECT_GT(stats.markers_read, stats.captures / 2) << "the hook's marker should read";
  const auto summary = analysis::match_inputs(dir.string());
  EXPECT_EQ(summary["inputs"]["not_read"], 0) << summary.dump(1);
  EXPECT_GE(summary["inputs"]["matched"].get<int>(), static_cast<int>(stats.inputs_sent) - 6)
      << summary.dump(1);
  EXPECT_GE(summary["stages_ms"]["PS_ms"]["min"].get<double>(), 0.0);
  EXPECT_GE(summary["stages_ms"]["AL_ms"]["min"].get<double>(), 0.0);
  EXPECT_GE(summary["stages_ms"]["AS_ms"]["min"].get<double>(), 0.0);
  // The figures, for the log (docs/client.md quotes a run of this test).
  const auto t = analysis::load_rtt_timeline(dir.string());
  std::vector<double> capture, decode;
  for (const auto& c : t.seen) {
    capture.push_back(c.capture_us);
    decode.push_back(c.decode_us);
  }
  std::cout << "rtt_ms " << summary["rtt_ms"].dump() << "\nstages_ms " << summary["stages_ms"].dump()
            << "\nclient_frames " << summary["client_frames"].dump() << " fps_client "
            << summary["fps_client"].dump() << "\ncapture_us " << analysis::distribution_json(capture).dump()
            << "\ndecode_us " << analysis::distribution_json(decode).dump() << "\n";
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace pictor::client
