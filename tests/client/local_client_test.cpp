// The local client against a real X server (Xvfb): a fake hooked app in a child process, inputs
// through XTest, frames through XDamage + MIT-SHM, markers decoded, then the matcher end to end.
// Also every failure: no display, no window, app gone, display killed, concurrent stop().
#include "client/local_client.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "analysis/rtt.h"
#include "core/error.h"
#include "drivers/scripted_driver.h"
#include "report/trace.h"
#include "test_display.h"

namespace pictor::client {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("pictor-client-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::unique_ptr<drivers::Driver> scripted(double rate, const std::string& keys) {
  drivers::ScriptedOptions o;
  o.rate_hz = rate;
  o.keys = {};
  std::string k;
  for (char c : keys + "|") {
    if (c == '|') {
      o.keys.push_back(k);
      k.clear();
    } else {
      k += c;
    }
  }
  return std::make_unique<drivers::ScriptedDriver>(o);
}

std::size_t data_rows(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') ++n;
  return n == 0 ? 0 : n - 1;  // minus the header
}

TEST(LocalClient, DrivesAHookedAppAndMatchesEveryInput) {
  test::TestXvfb x;
  TempDir dir;
  test::FakeAppOptions app_options;
  app_options.display = x.display();
  app_options.out_dir = dir.path.string();
  test::FakeApp app(app_options);

  LocalClientOptions o;
  o.display = x.display();
  o.out_dir = dir.path.string();
  auto client = LocalClient::start(o, scripted(40, "a|Left|button1"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_TRUE(client->running());
  // Let the last response reach the client before stopping it.
  const ClientStats stats = client->stop();
  // The app reads what the client sent last (the releases at stop) before it is told to end.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(app.stop(), 0);

  EXPECT_TRUE(stats.failure.empty()) << stats.failure;
  for (const auto& n : stats.notes) ADD_FAILURE() << "unexpected note: " << n;
  EXPECT_GT(stats.inputs_sent, 40u);          // ~60 taps/s of press+release... at 40 Hz taps
  EXPECT_EQ(stats.inputs_sent % 2, 0u);  // every press released (stop releases what is held)
  EXPECT_GT(stats.captures, 50u);
  EXPECT_GT(stats.markers_read, stats.captures * 9 / 10);
  EXPECT_EQ(data_rows(dir.path / "client_inputs.csv"), stats.inputs_sent);
  EXPECT_EQ(data_rows(dir.path / "client_frames.csv"), stats.captures);

  const auto summary = analysis::match_inputs(dir.path.string());
  const auto& inputs = summary["inputs"];
  EXPECT_EQ(inputs["sent"], stats.inputs_sent);
  EXPECT_EQ(inputs["not_read"], 0) << summary.dump(1);
  // Inputs sent in the last frames before stop() may have no frame at the client yet.
  EXPECT_GE(inputs["matched"].get<int>(), static_cast<int>(stats.inputs_sent) - 4) << summary.dump(1);
  const auto& rtt = summary["rtt_ms"];
  EXPECT_GT(rtt["min"].get<double>(), 0.0);
  // One 8 ms frame period plus scheduling on a loaded 2-core machine; generous but bounded.
  EXPECT_LT(rtt["p50"].get<double>(), 100.0);
  EXPECT_GE(summary["stages_ms"]["PS_ms"]["min"].get<double>(), 0.0);
  EXPECT_GE(summary["stages_ms"]["AL_ms"]["min"].get<double>(), 0.0);
  EXPECT_GE(summary["stages_ms"]["AS_ms"]["min"].get<double>(), 0.0);
  EXPECT_EQ(summary["stages_ms"]["RD_ms"]["n"], 0);  // the fake app has no GPU time: unknown
  EXPECT_GT(summary["fps_client"].get<double>(), 20.0);
  EXPECT_TRUE(fs::exists(dir.path / "inputs.csv"));

  // The trace of the real session: one flow (bound at both ends) per input with a response frame.
  report::write_trace(dir.path.string());
  std::ifstream in(dir.path / "trace.json");
  const auto trace = nlohmann::json::parse(in);
  std::size_t outs = 0, ins = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e.contains("bind_id")) ++(e.value("flow_out", false) ? outs : ins);
  }
  EXPECT_EQ(outs, ins);
  EXPECT_GE(outs, inputs["matched"].get<std::size_t>());
}

TEST(LocalClient, AppThatSelectsPressesOnlyStillMatchesItsPresses) {
  test::TestXvfb x;
  TempDir dir;
  test::FakeAppOptions app_options;
  app_options.display = x.display();
  app_options.out_dir = dir.path.string();
  app_options.select_releases = false;  // like glxgears
  test::FakeApp app(app_options);
  LocalClientOptions o;
  o.display = x.display();
  o.out_dir = dir.path.string();
  auto client = LocalClient::start(o, scripted(20, "space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const ClientStats stats = client->stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(app.stop(), 0);
  const auto summary = analysis::match_inputs(dir.path.string());
  EXPECT_EQ(summary["inputs"]["not_read"].get<std::uint64_t>(), stats.inputs_sent / 2);
  EXPECT_GE(summary["inputs"]["matched"].get<int>(), static_cast<int>(stats.inputs_sent / 2) - 2);
}

TEST(LocalClient, WindowWithoutMarkerIsCapturedButNotDecoded) {
  test::TestXvfb x;
  TempDir dir;
  test::FakeAppOptions app_options;
  app_options.display = x.display();
  app_options.out_dir = dir.path.string();
  app_options.marker = false;
  test::FakeApp app(app_options);
  LocalClientOptions o;
  o.display = x.display();
  o.out_dir = dir.path.string();
  auto client = LocalClient::start(o, scripted(10, "space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const ClientStats stats = client->stop();
  app.stop();
  EXPECT_GT(stats.captures, 10u);
  EXPECT_EQ(stats.markers_read, 0u);
  const auto summary = analysis::match_inputs(dir.path.string());
  EXPECT_EQ(summary["inputs"]["matched"], 0);
  EXPECT_TRUE(summary["fps_client"].is_null());
}

std::string start_error(const LocalClientOptions& o) {
  try {
    auto c = LocalClient::start(o, scripted(5, "space"));
  } catch (const RunError& e) {
    return e.what();
  }
  return "";
}

TEST(LocalClient, FailuresAreClearAndBounded) {
  TempDir dir;
  LocalClientOptions o;
  o.out_dir = dir.path.string();
  o.display = ":9999";
  EXPECT_NE(start_error(o).find("cannot open X display ':9999'"), std::string::npos);

  test::TestXvfb x;
  o.display = x.display();
  o.window_timeout_s = 0.3;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_NE(start_error(o).find("no app window appeared"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));

  o.window_timeout_s = 30;
  o.app_running = [] { return false; };
  EXPECT_NE(start_error(o).find("the app exited before it mapped a window"), std::string::npos);

  try {
    LocalClient::start(o, scripted(5, "space|Hyper_R|XF86AudioMute|F35"));
    ADD_FAILURE() << "a key without keycode must be refused";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("has no keycode"), std::string::npos) << e.what();
  }

  test::FakeAppOptions app_options;
  app_options.display = x.display();
  app_options.out_dir = dir.path.string();
  test::FakeApp app(app_options);
  o.app_running = nullptr;
  o.out_dir = (dir.path / "no-such-dir").string();
  EXPECT_NE(start_error(o).find("cannot create"), std::string::npos);
  app.stop();
}

TEST(LocalClient, DisplayDyingEndsTheClientNotTheProcess) {
  TempDir dir;
  auto x = std::make_unique<test::TestXvfb>();
  test::FakeAppOptions app_options;
  app_options.display = x->display();
  app_options.out_dir = dir.path.string();
  test::FakeApp app(app_options);
  LocalClientOptions o;
  o.display = x->display();
  o.out_dir = dir.path.string();
  auto client = LocalClient::start(o, scripted(20, "space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  x->kill();
  for (int i = 0; i < 200 && client->running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(client->running());
  const ClientStats stats = client->stop();
  EXPECT_NE(stats.failure.find("lost the connection"), std::string::npos) << stats.failure;
  EXPECT_GT(data_rows(dir.path / "client_frames.csv"), 0u);  // what was seen is kept
}

TEST(LocalClient, StopFromSeveralThreadsAtOnce) {
  test::TestXvfb x;
  TempDir dir;
  test::FakeAppOptions app_options;
  app_options.display = x.display();
  app_options.out_dir = dir.path.string();
  test::FakeApp app(app_options);
  LocalClientOptions o;
  o.display = x.display();
  o.out_dir = dir.path.string();
  auto client = LocalClient::start(o, scripted(50, "space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ClientStats a, b;
  std::thread t1([&] { a = client->stop(); });
  std::thread t2([&] { b = client->stop(); });
  t1.join();
  t2.join();
  EXPECT_EQ(a.inputs_sent, b.inputs_sent);
  EXPECT_EQ(a.captures, b.captures);
  EXPECT_FALSE(client->running());
  app.stop();
}

}  // namespace
}  // namespace pictor::client
