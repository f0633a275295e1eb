// The remote client on real VNC servers: TigerVNC's Xvnc, and x11vnc on an Xvfb, with pictor-app
// under the interposer (marker on). Checks inputs, markers, tags and client_updates.csv, and
// prints the figures docs/rfb-client.md quotes (receive and decode times, updates/s vs app FPS).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "analysis/rtt.h"
#include "client/remote_client.h"
#include "client/x_connection.h"
#include "core/error.h"
#include "core/preload.h"
#include "drivers/driver.h"
#include "remote_test_servers.h"
#include "test_display.h"

namespace pictor::client {
namespace {

namespace fs = std::filesystem;

struct Dir {
  fs::path path;
  explicit Dir(const std::string& name)
      : path(fs::temp_directory_path() / ("pictor-remote-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() {
    if (std::getenv("PICTOR_KEEP_TEST_DIRS") == nullptr) {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  }
};

std::vector<std::vector<std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  if (!rows.empty()) rows.erase(rows.begin());  // header
  return rows;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct RunResult {
  ClientStats stats;
  RemoteClientStats rfb;
  double seconds = 0;
  std::size_t app_frames = 0;
};

// pictor-app SCENE on `display` under the hook, RemoteClient on `port` for `seconds`.
RunResult run_app(const std::string& display, int port, const Dir& dir, int quality,
                  double seconds, const std::string& scene = "latency") {
  test::ChildProcess app({PICTOR_APP_BIN, scene, "--size", "640x360"},
                         {"DISPLAY=" + display, "LD_PRELOAD=" + pictor::preload_value(PICTOR_HOOK_PATH),
                          "PICTOR_OUT=" + dir.path.string(), "PICTOR_MARKER=1"},
                         (dir.path / "app.log").string());
  // The window in framebuffer coordinates: the VNC framebuffer is the X screen.
  auto x = XConnection::open(display);
  const WindowInfo w = wait_for_app_window(*x, 30, [&app] { return app.running(); });
  x.reset();
  RemoteClientOptions o;
  o.port = port;
  o.out_dir = dir.path.string();
  o.window = tag::WindowRect{w.x, w.y, w.width, w.height};
  o.jpeg_quality = quality;
  o.keycode_display = display;
  o.first_frame_timeout_s = 20;  // llvmpipe start-up on a loaded machine
  o.app_running = [&app] { return app.running(); };
  auto client = RemoteClient::start(o, drivers::make_driver("scripted:rate=10,keys=space+Left"));
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  client->finish_inputs();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  RunResult r;
  r.stats = client->stop();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.rfb = client->rfb_stats();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the app reads the last releases
  EXPECT_EQ(app.stop(5.0), 0) << "the app writes its files at exit";
  r.app_frames = read_csv(dir.path / "frames.csv").size();
  return r;
}

// What every run must show, and the figures for the log.
// `min_read_percent`: marker updates whose marker must decode. x11vnc polls the screen in pieces,
// so a marker it sends may mix two frames (torn) and fail its check: it gets a lower bar.
void check_and_report(const RunResult& r, const Dir& dir, const std::string& label, unsigned min_read_percent) {
  const ClientStats& s = r.stats;
  EXPECT_TRUE(s.failure.empty()) << s.failure;
  EXPECT_GT(s.inputs_sent, 10u);
  EXPECT_GT(r.rfb.marker_updates, 10u);
  EXPECT_GE(s.markers_read * 100, s.captures * min_read_percent) << "too few markers decoded";
  // Tags never go back; updates are numbered 1.. with sane times and sizes.
  const auto frames = read_csv(dir.path / "client_frames.csv");
  EXPECT_EQ(frames.size(), s.captures);
  long long last_tag = -1;
  std::vector<double> receive_us, decode_us;
  for (const auto& f : frames) {
    if (!f.at(1).empty()) {
      const long long tag = std::stoll(f[1]);
      EXPECT_GE(tag, last_tag);
      last_tag = tag;
    }
    decode_us.push_back(std::stod(f.at(3)));
  }
  EXPECT_GT(last_tag, 5);
  const auto updates = read_csv(dir.path / "client_updates.csv");
  EXPECT_EQ(updates.size(), r.rfb.updates);
  std::uint64_t n = 0, marker_rows = 0;
  std::vector<double> bytes;
  long long next_offset = 0;  // an update starts at or after the end of the previous one
  for (const auto& u : updates) {
    ASSERT_EQ(u.size(), 11u);
    ASSERT_FALSE(u[10].empty());
    const long long offset = std::stoll(u[10]);
    EXPECT_GE(offset, next_offset) << "update " << u[0];
    next_offset = offset + (u[4].empty() ? 0 : std::stoll(u[4]));
    EXPECT_EQ(std::stoull(u[0]), ++n);
    const long long start = std::stoll(u[1]), end = std::stoll(u[2]);
    EXPECT_LE(start, end);
    receive_us.push_back(static_cast<double>(end - start) / 1e3);
    if (std::stoi(u[3]) > 0) {
      ASSERT_FALSE(u[4].empty());
      EXPECT_GT(std::stoll(u[4]), 16);
      bytes.push_back(std::stod(u[4]));
    }
    if (u[9] == "1") ++marker_rows;
  }
  EXPECT_EQ(marker_rows, r.rfb.marker_updates);
  // The matcher pairs inputs with the app's reads through the keycodes looked up on the display.
  const auto summary = analysis::match_inputs(dir.path.string());
  EXPECT_EQ(summary["inputs"]["not_read"], 0) << summary.dump(1);
  std::cout << label << ": updates/s " << static_cast<double>(r.rfb.updates) / r.seconds << " marker updates/s "
            << static_cast<double>(r.rfb.marker_updates) / r.seconds << " app fps "
            << static_cast<double>(r.app_frames) / r.seconds << " receive_us median " << median(receive_us)
            << " decode_us median " << median(decode_us) << " markers read " << s.markers_read << "/" << s.captures << " bytes/update median " << median(bytes)
            << "\n  rtt_ms " << summary["rtt_ms"].dump() << "\n  notes:";
  for (const auto& note : s.notes) std::cout << " [" << note << "]";
  std::cout << "\n";
}

std::vector<int> qualities() {
  // PICTOR_RFB_QUALITIES="15,42,80" for the figures; one run by default.
  std::vector<int> out;
  if (const char* q = std::getenv("PICTOR_RFB_QUALITIES")) {
    std::stringstream ss(q);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::stoi(item));
  }
  if (out.empty()) out.push_back(80);
  return out;
}

// PICTOR_XVNC_ARGS / PICTOR_X11VNC_ARGS: the servers' tuning options (space-separated), to
// compare settings with the same test; the defaults are the ones docs/rfb-client.md recommends.
std::vector<std::string> server_args(const char* variable, const std::vector<std::string>& fallback) {
  const char* text = std::getenv(variable);
  if (!text) return fallback;
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (ss >> item) out.push_back(item);
  return out;
}

double run_seconds() {
  const char* s = std::getenv("PICTOR_RFB_SECONDS");
  return s ? std::stod(s) : 3.0;
}

TEST(RemoteClientSystem, XvncWithTheHookedApp) {
  test::TestXvnc server("640x360", server_args("PICTOR_XVNC_ARGS", {"-FrameRate", "120"}));
  for (const int q : qualities()) {
    Dir dir("xvnc-q" + std::to_string(q));
    const RunResult r = run_app(server.display(), server.port(), dir, q, run_seconds());
    EXPECT_EQ(r.rfb.server["continuous_updates"]["enabled"], true) << r.rfb.server.dump(1);
    EXPECT_GT(r.rfb.server["fences_answered"].get<int>(), 0);
    check_and_report(r, dir, "Xvnc q" + std::to_string(q), 80);
  }
}

TEST(RemoteClientSystem, X11vncOnXvfbWithTheHookedApp) {
  test::TestXvfb x;  // 640x480: the 640x360 window is inside a larger framebuffer
  const int port = test::free_tcp_port();
  std::vector<std::string> argv = {"x11vnc", "-display", x.display(), "-rfbport", std::to_string(port),
                                   "-localhost", "-forever", "-shared", "-nopw"};
  for (const std::string& a : server_args("PICTOR_X11VNC_ARGS", {"-defer", "1", "-wait", "1", "-nowait_bog",
                                                                 "-noxrecord", "-nocursor"}))
    argv.push_back(a);
  test::ChildProcess server(argv, {});
  ASSERT_TRUE(test::wait_for_port(port, 20)) << "x11vnc does not listen";
  for (const int q : qualities()) {
    Dir dir("x11vnc-q" + std::to_string(q));
    const RunResult r = run_app(x.display(), port, dir, q, run_seconds());
    EXPECT_EQ(r.rfb.server["continuous_updates"]["enabled"], false);
    check_and_report(r, dir, "x11vnc q" + std::to_string(q), 10);
  }
}

// The test plays pictor-launch: it owns _PICTOR_LAUNCH_STARTING and moves the app's window.
class LauncherStandIn {
 public:
  explicit LauncherStandIn(const std::string& display) : x_(XConnection::open(display)) {
    Display* d = x_->display();
    owner_ = XCreateWindow(d, DefaultRootWindow(d), 0, 0, 1, 1, 0, 0, InputOnly, CopyFromParent, 0, nullptr);
    XSetSelectionOwner(d, XInternAtom(d, "_PICTOR_LAUNCH_STARTING", False), owner_, CurrentTime);
    XSync(d, False);
  }
  void move(Window w, int x, int y) {
    XMoveWindow(x_->display(), w, x, y);
    XSync(x_->display(), False);
  }
  void let_go() {
    XSetSelectionOwner(x_->display(), XInternAtom(x_->display(), "_PICTOR_LAUNCH_STARTING", False), None, CurrentTime);
    XSync(x_->display(), False);
  }

 private:
  std::unique_ptr<XConnection> x_;
  Window owner_ = 0;
};

struct OffScreenApp {
  test::ChildProcess app;
  WindowInfo window;
  OffScreenApp(const std::string& display, const Dir& dir)
      : app({PICTOR_APP_BIN, "latency", "--size", "320x240"},
            {"DISPLAY=" + display, "LD_PRELOAD=" + pictor::preload_value(PICTOR_HOOK_PATH), "PICTOR_OUT=" + dir.path.string(),
             "PICTOR_MARKER=1"},
            (dir.path / "app.log").string()) {
    auto x = XConnection::open(display);
    window = wait_for_app_window(*x, 30, [this] { return app.running(); });
  }
  RemoteClientOptions client_options(const std::string& display, int port, const Dir& dir) {
    RemoteClientOptions o;
    o.port = port;
    o.out_dir = dir.path.string();
    o.keycode_display = display;
    o.first_frame_timeout_s = 20;
    o.app_running = [this] { return app.running(); };
    return o;
  }
};

// A window that starts off the framebuffer while a launcher holds the inputs is accepted; the
// client follows it when the launcher moves it on screen and tracks inputs once it lets go.
TEST(RemoteClientSystem, FollowsAWindowTheLauncherMovesIntoTheFramebuffer) {
  test::TestXvnc server("640x360", {"-FrameRate", "120"});
  Dir dir("launcher-move");
  LauncherStandIn launcher(server.display());
  OffScreenApp app(server.display(), dir);
  launcher.move(app.window.id, 500, 300);  // 320x240 at 500,300: mostly outside 640x360
  RemoteClientOptions o = app.client_options(server.display(), server.port(), dir);
  o.window = tag::WindowRect{500, 300, 320, 240};
  o.window_id = app.window.id;
  auto client = RemoteClient::start(o, drivers::make_driver("scripted:rate=10,keys=space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  launcher.move(app.window.id, 0, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  launcher.let_go();
  std::this_thread::sleep_for(std::chrono::seconds(3));
  client->finish_inputs();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const ClientStats stats = client->stop();
  const RemoteClientStats rfb = client->rfb_stats();
  EXPECT_TRUE(stats.failure.empty()) << stats.failure;
  EXPECT_EQ(rfb.window.x, 0);
  EXPECT_EQ(rfb.window.y, 0);
  EXPECT_GT(stats.inputs_sent, 10u);
  EXPECT_GT(stats.markers_read, 10u);
  std::string notes;
  for (const auto& n : stats.notes) notes += "[" + n + "] ";
  EXPECT_NE(notes.find("the app window moved 1 time(s), last to 320x240 at 0,0"), std::string::npos) << notes;
  EXPECT_NE(notes.find("inputs held for"), std::string::npos) << notes;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(app.app.stop(5.0), 0);
  const auto summary = analysis::match_inputs(dir.path.string());
  EXPECT_GE(summary["inputs"]["matched"].get<std::uint64_t>(), stats.inputs_sent * 9 / 10) << summary["inputs"].dump();
}

// Without a launcher a window outside the framebuffer is refused at once; a launcher that lets go
// while it is still outside ends the client with that cause.
TEST(RemoteClientSystem, AWindowOutsideTheFramebufferIsNamedAsTheCause) {
  test::TestXvnc server("640x360", {"-FrameRate", "120"});
  Dir dir("outside");
  OffScreenApp app(server.display(), dir);
  {
    auto x = XConnection::open(server.display());
    XMoveWindow(x->display(), app.window.id, 500, 300);
    XSync(x->display(), False);
  }
  RemoteClientOptions o = app.client_options(server.display(), server.port(), dir);
  o.window = tag::WindowRect{500, 300, 320, 240};
  o.window_id = app.window.id;
  try {
    auto client = RemoteClient::start(o, drivers::make_driver("scripted:rate=10,keys=space"));
    FAIL() << "a window outside the framebuffer was accepted without a launcher";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("the app window 320x240 at 500,300 is not inside the 640x360 framebuffer"),
              std::string::npos)
        << e.what();
  }
  LauncherStandIn launcher(server.display());
  auto client = RemoteClient::start(o, drivers::make_driver("scripted:rate=10,keys=space"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  launcher.let_go();
  for (int i = 0; i < 100 && client->running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(client->running());
  const ClientStats stats = client->stop();
  EXPECT_NE(stats.failure.find("is not inside the 640x360 framebuffer"), std::string::npos) << stats.failure;
  EXPECT_NE(stats.failure.find("when pictor-launch let go of the inputs"), std::string::npos) << stats.failure;
  EXPECT_EQ(stats.inputs_sent, 0u);
}

}  // namespace
}  // namespace pictor::client
