// GLX offload (docs/offload.md) on the embedded default: the interposer serves GLX from EGL
// (llvmpipe through Mesa's device or surfaceless platform) and copies every frame into a private
// Xvfb. A probe app checks what the window shows after each swap with each copy strategy;
// glxgears runs offloaded with the marker on; frames.csv carries FC and AS for every offloaded
// frame and none for native ones; `pictor run --render offload` records it in its summary.
#include <gtest/gtest.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core/exec.h"
#include "core/preload.h"
#include "helpers.h"
#include "core/error.h"
#include "runner/process.h"
#include "runner/session_plan.h"
#include "runner/xvfb.h"
#include "tag/marker_decode.h"

using namespace pictor::test;

namespace {

constexpr int kW = 640, kH = 480;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// frames.csv as header name -> column, and its data rows.
struct Frames {
  std::map<std::string, std::size_t> col;
  std::vector<std::vector<std::string>> rows;
  const std::string& at(const std::vector<std::string>& row, const std::string& name) const {
    static const std::string none;
    const auto it = col.find(name);
    return it == col.end() || it->second >= row.size() ? none : row[it->second];
  }
};

Frames read_frames(const std::string& path) {
  Frames f;
  auto all = read_csv_rows(path, true);
  if (all.empty()) return f;
  for (std::size_t i = 0; i < all[0].size(); ++i) f.col[all[0][i]] = i;
  f.rows.assign(all.begin() + 1, all.end());
  return f;
}

std::map<std::string, std::string> offload_env(const std::string& display, const std::string& dir,
                                               const std::string& copy) {
  return {{"DISPLAY", display},
          {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)},
          {"PICTOR_OUT", dir},
          {"PICTOR_RENDER", "offload"},
          {"PICTOR_FRAME_COPY", copy}};
}

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

class OffloadProbe : public ::testing::TestWithParam<std::string> {};

}  // namespace

// The probe on the real GLX (Mesa on Xvfb): the probe itself is right, every frame on screen
// right after its swap.
TEST(Offload, ProbePassesOnTheRealGlx) {
  const std::string dir = fresh_dir("offload-native-probe");
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  pictor::runner::SpawnOptions o;
  o.argv = {OFFLOAD_PROBE_PATH, "40", "0", "native"};
  o.env = {{"DISPLAY", xvfb->display()}};
  o.stdout_path = o.stderr_path = dir + "/probe.log";
  auto p = pictor::runner::Process::spawn(o);
  const auto st = p.wait_for(60);
  ASSERT_TRUE(st && st->exited) << slurp(dir + "/probe.log");
  EXPECT_EQ(st->code, 0) << slurp(dir + "/probe.log");
}

TEST_P(OffloadProbe, EveryFrameReachesTheWindowOnceAndInOrder) {
  const std::string copy = GetParam();
  const std::string dir = fresh_dir("offload-probe-" + copy);
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  constexpr int kFrames = 60;
  // async puts frame i at a later swap: one frame later while fences signal in time, three at most.
  const std::string lag = copy == "async" ? "3" : "0";
  pictor::runner::SpawnOptions o;
  o.argv = {OFFLOAD_PROBE_PATH, std::to_string(kFrames), lag};
  o.env = offload_env(xvfb->display(), dir, copy);
  o.stdout_path = o.stderr_path = dir + "/probe.log";
  auto p = pictor::runner::Process::spawn(o);
  const auto st = p.wait_for(120);
  const std::string log = slurp(dir + "/probe.log");
  ASSERT_TRUE(st && st->exited) << log;
  EXPECT_EQ(st->code, 0) << log;
  EXPECT_NE(log.find("GLX served from EGL"), std::string::npos) << log;
  EXPECT_NE(log.find("absurd context: refused"), std::string::npos) << log;
  EXPECT_NE(log.find("EGL refuses the context"), std::string::npos) << "the refusal is logged:\n" << log;

  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_EQ(f.rows.size(), static_cast<std::size_t>(kFrames)) << "every frame is recorded once, the last ones too";
  long long last_as = -1;
  for (std::size_t i = 0; i < f.rows.size(); ++i) {
    const auto& r = f.rows[i];
    EXPECT_EQ(f.at(r, "frame"), std::to_string(i));
    for (const char* c : {"fc_ms", "as_ms", "fc_start_ns", "fc_end_ns", "as_start_ns", "as_end_ns"})
      ASSERT_FALSE(f.at(r, c).empty()) << "frame " << i << " has no " << c;
    const long long swap = std::stoll(f.at(r, "swap_ns")), fc0 = std::stoll(f.at(r, "fc_start_ns")),
                    fc1 = std::stoll(f.at(r, "fc_end_ns")), as0 = std::stoll(f.at(r, "as_start_ns")),
                    as1 = std::stoll(f.at(r, "as_end_ns"));
    EXPECT_LE(swap, fc0);
    EXPECT_LE(fc0, fc1);
    EXPECT_LE(fc1, as0);
    EXPECT_LE(as0, as1);
    EXPECT_GT(as0, last_as) << "frame " << i << " was put before the frame ahead of it";
    last_as = as0;
    if (copy == "async" && i + 1 < f.rows.size()) {
      EXPECT_GE(fc1, std::stoll(f.at(f.rows[i + 1], "swap_ns"))) << "async ends frame " << i << "'s copy at a later swap";
    }
  }
  const auto hook = read_json(dir + "/hook.json");
  ASSERT_TRUE(hook.is_object() && hook.contains("offload")) << hook.dump();
  EXPECT_EQ(hook.value("render", ""), "offload");
  EXPECT_EQ(hook["offload"].value("frame_copy", ""), copy);
  EXPECT_EQ(hook["offload"].value("frames_put", -1), kFrames) << hook.dump();
}

INSTANTIATE_TEST_SUITE_P(Strategies, OffloadProbe, ::testing::Values("vgl", "memo", "async"));

namespace {

struct Grab {
  std::vector<std::uint8_t> bgrx;
  int w = 0, h = 0;
};

Grab grab(Display* d, int w, int h) {
  Grab g;
  XImage* img = XGetImage(d, DefaultRootWindow(d), 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h), AllPlanes,
                          ZPixmap);
  if (!img) return g;
  if (img->bits_per_pixel == 32) {
    g.w = w;
    g.h = h;
    g.bgrx.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
    for (int y = 0; y < h; ++y)
      std::memcpy(g.bgrx.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w) * 4,
                  img->data + static_cast<std::ptrdiff_t>(y) * img->bytes_per_line, static_cast<std::size_t>(w) * 4);
  }
  XDestroyImage(img);
  return g;
}

}  // namespace

class OffloadGears : public ::testing::TestWithParam<std::string> {};

TEST_P(OffloadGears, GlxgearsIsDrawnWithItsMarkerAndEveryFrameCopied) {
  const std::string copy = GetParam();
  const std::string dir = fresh_dir("offload-gears-" + copy);
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  pictor::runner::SpawnOptions o;
  o.argv = {"glxgears", "-geometry", "300x300+0+0"};
  o.env = offload_env(xvfb->display(), dir, copy);
  o.env["PICTOR_MARKER"] = "1";
  o.stdout_path = o.stderr_path = dir + "/app.log";
  auto app = pictor::runner::Process::spawn(o);
  std::unique_ptr<Display, int (*)(Display*)> d(XOpenDisplay(xvfb->display().c_str()), XCloseDisplay);
  ASSERT_TRUE(d);
  std::this_thread::sleep_for(std::chrono::seconds(4));
  const Grab g = grab(d.get(), 300, 300);
  app.stop();
  ASSERT_FALSE(g.bgrx.empty());
  std::size_t lit = 0;
  for (std::size_t i = 0; i < g.bgrx.size(); i += 4) lit += (g.bgrx[i] | g.bgrx[i + 1] | g.bgrx[i + 2]) > 40 ? 1 : 0;
  EXPECT_GT(lit, 300u * 300u / 20) << "the gears are not on screen: " << slurp(dir + "/app.log");
  EXPECT_TRUE(pictor::tag::decode(g.bgrx.data(), g.w, g.h, g.w * 4, pictor::tag::PixelFormat::bgrx,
                                  pictor::tag::Corner::bottom_left))
      << "the marker drawn into the off-screen frame does not decode from the window";

  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 20u) << slurp(dir + "/app.log");
  std::vector<double> fc, as;
  for (const auto& r : f.rows) {
    ASSERT_FALSE(f.at(r, "fc_ms").empty()) << "frame " << f.at(r, "frame") << " has no FC";
    ASSERT_FALSE(f.at(r, "as_ms").empty()) << "frame " << f.at(r, "frame") << " has no AS";
    fc.push_back(std::stod(f.at(r, "fc_ms")));
    as.push_back(std::stod(f.at(r, "as_ms")));
  }
  const double span_s =
      static_cast<double>(std::stoll(f.at(f.rows.back(), "swap_ns")) - std::stoll(f.at(f.rows.front(), "swap_ns"))) / 1e9;
  std::printf("[ figures  ] glxgears offload %s: %zu frames, %.1f FPS, FC median %.3f ms, AS median %.3f ms\n",
              copy.c_str(), f.rows.size(), static_cast<double>(f.rows.size() - 1) / span_s, median(fc), median(as));
}

INSTANTIATE_TEST_SUITE_P(Strategies, OffloadGears, ::testing::Values("vgl", "memo", "async"));

TEST(Offload, NativeFramesHaveNoCopy) {
  const std::string dir = fresh_dir("offload-native-gears");
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  pictor::runner::SpawnOptions o;
  o.argv = {"glxgears"};
  o.env = {{"DISPLAY", xvfb->display()}, {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)}, {"PICTOR_OUT", dir}};
  o.stdout_path = o.stderr_path = dir + "/app.log";
  auto app = pictor::runner::Process::spawn(o);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  app.stop();
  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 10u);
  for (const auto& r : f.rows)
    for (const char* c : {"fc_ms", "as_ms", "fc_start_ns", "fc_end_ns", "as_start_ns", "as_end_ns"})
      EXPECT_TRUE(f.at(r, c).empty()) << "a native frame has " << c << " " << f.at(r, c);
  const auto hook = read_json(dir + "/hook.json");
  ASSERT_TRUE(hook.is_object());
  EXPECT_FALSE(hook.contains("render")) << "hook.json is as it was when offload is off";
}

TEST(Offload, RunRecordsTheRenderModeAndRefusesWhatCannotApply) {
  const std::string dir = fresh_dir("offload-run");
  const auto r = run_command({PICTOR_BIN, "run", "--render", "offload", "--frame-copy", "memo", "--driver",
                              "scripted:rate=5", "builtin:spin", "--size", "640x360", "-d", "3s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("render") && summary.contains("inputs")) << summary.dump();
  EXPECT_EQ(summary["render"]["mode"], "offload") << summary.dump();
  EXPECT_EQ(summary["render"]["frame_copy"], "memo");
  const auto run = read_json(dir + "/run.json");
  ASSERT_TRUE(run.is_object() && run.contains("render"));
  EXPECT_EQ(run["render"]["mode"], "offload");
  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 10u);
  for (const auto& row : f.rows) ASSERT_FALSE(f.at(row, "fc_ms").empty());
  // FC and AS as distributions over every frame (docs/metrics.md), and a verdict from them.
  for (const char* key : {"fc_ms", "as_ms"}) {
    ASSERT_TRUE(summary.contains(key) && summary[key].is_object()) << key << ": " << summary.dump();
    EXPECT_EQ(summary[key]["n"], f.rows.size()) << key;
    EXPECT_LE(summary[key]["p50"].get<double>(), summary[key]["p90"].get<double>()) << key;
    EXPECT_LE(summary[key]["p99"].get<double>(), summary[key]["max"].get<double>()) << key;
  }
  ASSERT_TRUE(summary.contains("frame_copy_note") && summary.contains("bottleneck")) << summary.dump();
  EXPECT_TRUE(summary["frame_copy_note"].is_null()) << summary["frame_copy_note"];
  const std::string frames_text = summary["bottleneck"]["frames"]["text"];
  EXPECT_EQ(frames_text.find("swap call"), std::string::npos) << "the offloaded swap call is the copy: " << frames_text;
  // Reasoned from FC and AS: the verdict names the copy or FC. Which verdict follows the load (on a
  // loaded machine the logic outside the copy grew until the frame was "mixed", "FC+AS 47 % of each
  // frame, 53 % outside"), so the test holds the reasoning, not one verdict.
  EXPECT_TRUE(frames_text.find("copy") != std::string::npos || frames_text.find("FC") != std::string::npos)
      << "reasoned from FC and AS: " << frames_text;
  const int matched = summary["inputs"]["matched"].get<int>();
  EXPECT_GT(matched, 5);
  EXPECT_GE(matched * 10, summary["inputs"]["sent"].get<int>() * 9) << summary["inputs"].dump();

  const auto lone = run_command({PICTOR_BIN, "run", "--frame-copy", "async", "builtin:spin", "-d", "1s"});
  EXPECT_EQ(lone.exit_code, 2);
  EXPECT_NE(lone.last_err_line().find("pictor: --frame-copy"), std::string::npos) << lone.err;
  const auto nohook = run_command({PICTOR_BIN, "run", "--render", "offload", "--no-hook", "builtin:spin", "-d", "1s"});
  EXPECT_EQ(nohook.exit_code, 2);
  EXPECT_NE(nohook.last_err_line().find("--render offload"), std::string::npos) << nohook.err;
  const auto bad = run_command({PICTOR_BIN, "run", "--render", "offload:gpu=1", "builtin:spin", "-d", "1s"});
  EXPECT_EQ(bad.exit_code, 2);
}

// The paper's stack: the app offloaded into Xvnc, Pictor's RFB client reading the marker from the
// frames each strategy puts into Xvnc (async's one swap late): racing, and glxgears (which reads
// key presses only: its releases are `not_read`).
class OffloadOverXvnc : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(OffloadOverXvnc, EveryFrameIsCopiedAndItsInputsMatched) {
  const auto& [app, copy] = GetParam();
  const std::string dir = fresh_dir("offload-xvnc-" + app + "-" + copy);
  std::vector<std::string> argv = {PICTOR_BIN, "run", "--render", "offload", "--frame-copy", copy, "--adapter", "xvnc",
                                   "--size", "640x360", "-d", "5s", "--no-resources", "-o", dir};
  if (app == "racing") {
    argv.insert(argv.end(), {"--driver", "scripted:rate=5", "builtin:racing"});
  } else {
    argv.insert(argv.end(), {"--driver", "scripted:rate=5,keys=Left|Right", "--", "glxgears"});
  }
  const auto r = run_command(argv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("inputs")) << summary.dump();
  EXPECT_EQ(summary["render"]["frame_copy"], copy);
  const int sent = summary["inputs"]["sent"].get<int>(), matched = summary["inputs"]["matched"].get<int>();
  const int read = sent - summary["inputs"]["not_read"].get<int>();
  EXPECT_GT(read, 8) << summary["inputs"].dump();
  EXPECT_GE(matched * 10, read * 9) << summary["inputs"].dump();
  const auto run = read_json(dir + "/run.json");
  EXPECT_GT(run["client"].value("markers_read", 0), 10) << run["client"].dump();
  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 50u);
  for (const auto& row : f.rows) {
    ASSERT_FALSE(f.at(row, "fc_ms").empty()) << "frame " << f.at(row, "frame") << " has no FC";
    ASSERT_FALSE(f.at(row, "as_ms").empty()) << "frame " << f.at(row, "frame") << " has no AS";
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, OffloadOverXvnc,
                         ::testing::Combine(::testing::Values("racing", "glxgears"),
                                            ::testing::Values("vgl", "memo", "async")),
                         [](const auto& p) { return std::get<0>(p.param) + "_" + std::get<1>(p.param); });

// glmark2 (Debian's glmark2-x11: dlopens libGL, one context per scene) offloaded into Xvnc through
// `pictor run`: every frame of both scenes copied, and Pictor's RFB client reading the marker the
// interposer drew before the copy, so every input glmark2 reads is matched to its frame.
// glmark2 ends the session itself, after its two scenes: -d is only a cap. With -d shorter than
// the scenes, the session could end inside glmark2's switch from one scene to the next (a new
// context, shaders and textures; more than 2.7 s on a loaded machine, 2 of 3 rounds under
// scripts/test-under-load.sh 2), and a session that ends in a stall is the app's failure.
TEST(Offload, Glmark2OverXvncCopiesEveryFrameAndItsMarkerIsRead) {
  if (!pictor::find_executable("glmark2"))
    GTEST_SKIP() << "glmark2 is not installed (Debian package glmark2-x11, which scripts/setup.sh installs)";
  const std::string dir = fresh_dir("offload-glmark2");
  const auto r = run_command({PICTOR_BIN, "run", "--render", "offload", "--frame-copy", "memo", "--adapter", "xvnc",
                              "--driver", "scripted:rate=4,keys=Left|Right", "-d", "20s", "--no-resources", "-o", dir,
                              "--", "glmark2", "-b", "build:duration=3", "-b", "texture:duration=4", "--size",
                              "640x360"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(dir + "/hook.log").find("GLX served from EGL"), std::string::npos) << slurp(dir + "/hook.log");
  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 20u) << slurp(dir + "/app.log");
  std::map<std::string, std::size_t> per_context;
  for (const auto& row : f.rows) {
    ASSERT_FALSE(f.at(row, "fc_ms").empty()) << "glmark2 frame " << f.at(row, "frame") << " has no FC";
    ASSERT_FALSE(f.at(row, "as_ms").empty()) << "glmark2 frame " << f.at(row, "frame") << " has no AS";
    ++per_context[f.at(row, "ctx")];
  }
  EXPECT_GE(per_context.size(), 2u) << "glmark2 makes a context per scene: both scenes were to run";
  const auto run = read_json(dir + "/run.json");
  ASSERT_TRUE(run.contains("client")) << run.dump();
  EXPECT_GT(run["client"].value("markers_read", 0), 10) << run["client"].dump();
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("inputs")) << summary.dump();
  const int sent = summary["inputs"]["sent"].get<int>(), matched = summary["inputs"]["matched"].get<int>();
  // glmark2 selects key presses only: the releases never reach it ("not_read"), which says
  // nothing of the copy. Every input it read is answered in a frame whose marker was read.
  const int read = sent - summary["inputs"]["not_read"].get<int>();
  EXPECT_GT(read, 8) << summary["inputs"].dump();
  EXPECT_GE(matched * 10, read * 9) << "inputs answered in frames whose marker was read: " << summary["inputs"].dump();
  std::printf("[ figures  ] glmark2 offload memo over xvnc: %zu frames, FC p50 %s ms, %d of %d inputs read matched (%d sent)\n",
              f.rows.size(), summary["fc_ms"]["p50"].dump().c_str(), matched, read, sent);
}

namespace {

// A real game offloaded over Xvnc through its shipped profile and `pictor run`: GLX served from EGL,
// every frame copied, and at least 80 % of the driver's inputs matched through the RFB client.
struct OffloadedGame {
  std::string dir;
  Frames frames;
  nlohmann::json summary;
};

void run_offloaded_game(const std::string& profile, const std::string& copy, const std::string& size,
                        const std::string& duration, OffloadedGame* out) {
  out->dir = fresh_dir("offload-" + profile);
  const auto r = run_command({PICTOR_BIN, "run", "--render", "offload", "--frame-copy", copy, "--adapter", "xvnc",
                              "--driver", "scripted:rate=4,keys=Left|Right|Up|Down,seed=1", "profile:" + profile,
                              "--size", size, "-d", duration, "--no-resources", "-o", out->dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(out->dir + "/hook.log").find("GLX served from EGL"), std::string::npos) << slurp(out->dir + "/hook.log");
  out->frames = read_frames(out->dir + "/frames.csv");
  ASSERT_GT(out->frames.rows.size(), 50u) << slurp(out->dir + "/app.log");
  for (const auto& row : out->frames.rows)
    ASSERT_FALSE(out->frames.at(row, "fc_ms").empty()) << profile << " frame " << out->frames.at(row, "frame");
  out->summary = read_json(out->dir + "/summary.json");
  ASSERT_TRUE(out->summary.is_object() && out->summary.contains("inputs")) << out->summary.dump();
  const auto& inputs = out->summary["inputs"];
  const int sent = inputs["sent"].get<int>(), matched = inputs["matched"].get<int>();
  EXPECT_GT(sent, 10);
  EXPECT_GE(matched * 10, sent * 8) << inputs.dump();
  std::printf("[ figures  ] %s offload %s over xvnc: %zu frames, %s FPS, FC p50 %s ms, %d of %d inputs matched\n",
              profile.c_str(), copy.c_str(), out->frames.rows.size(), out->summary["fps_avg"].dump().c_str(),
              out->summary["fc_ms"]["p50"].dump().c_str(), matched, sent);
}

}  // namespace

// A real SDL2 game offloaded: Debian's Neverball through its profile (SDL2 creates its GLX context
// through glXGetProcAddress'd entry points and picks its visual with glXChooseFBConfig), async
// copies into Xvnc, the RFB client reading the marker.
TEST(Offload, NeverballAnSdl2GameOffloadedOverXvnc) {
  // Where the profile finds it too: $PATH, or /usr/games, where Debian installs games.
  if (!pictor::find_executable("neverball", {"/usr/games"}))
    GTEST_SKIP() << "neverball is not installed (Debian package neverball, which scripts/setup.sh --tests installs)";
  OffloadedGame g;
  ASSERT_NO_FATAL_FAILURE(run_offloaded_game("neverball", "async", "640x360", "20s", &g));
}

// A real SFML game offloaded: Debian's Extreme Tux Racer through its profile (SFML 2.5 picks its
// visual with XGetVisualInfo and glXGetConfig, then makes its context with
// glXCreateContextAttribsARB), its menus clicked through into a race, memo copies into Xvnc. Its
// window is 800x600 whatever the screen, so the screen is larger; the menus take about 30 s of
// the 42.
TEST(Offload, ExtremeTuxRacerAnSfmlGameOffloadedOverXvnc) {
  if (!pictor::find_executable("etr", {"/usr/games"}))
    GTEST_SKIP() << "etr is not installed (Debian package extremetuxracer, which scripts/setup.sh --tests installs)";
  OffloadedGame g;
  ASSERT_NO_FATAL_FAILURE(run_offloaded_game("extremetuxracer", "memo", "1280x720", "42s", &g));
  // The race itself was measured: the menus were clicked through before play began, and the
  // figures are the race's frames and copies, not the menus' before it.
  const auto launch = read_json(g.dir + "/launch.json");
  EXPECT_TRUE(launch.is_object() && launch["play_start_ns"].is_number_integer()) << launch.dump(2);
  EXPECT_EQ(g.summary["figures_from"], "play");
  EXPECT_EQ(g.summary["fc_ms"]["n"], g.summary["frames"]) << g.summary["frame_copy_note"];
  EXPECT_GT(g.summary["whole_session"]["fc_ms"]["n"].get<int>(), g.summary["fc_ms"]["n"].get<int>());
}

namespace {

// The app's top-level window on `d` (the largest viewable child of the root), or 0.
Window app_window(Display* d) {
  Window root = 0, parent = 0, best = 0, *children = nullptr;
  unsigned count = 0, best_area = 0;
  if (!XQueryTree(d, DefaultRootWindow(d), &root, &parent, &children, &count)) return 0;
  for (unsigned i = 0; i < count; ++i) {
    XWindowAttributes a{};
    if (!XGetWindowAttributes(d, children[i], &a) || a.map_state != IsViewable) continue;
    const unsigned area = static_cast<unsigned>(a.width) * static_cast<unsigned>(a.height);
    if (area > best_area) best = children[i], best_area = area;
  }
  if (children) XFree(children);
  return best;
}

// The window's pixels as BGRX, or empty.
Grab grab_window(Display* d, Window w) {
  Grab g;
  XWindowAttributes a{};
  if (!XGetWindowAttributes(d, w, &a)) return g;
  XImage* img = XGetImage(d, w, 0, 0, static_cast<unsigned>(a.width), static_cast<unsigned>(a.height), AllPlanes, ZPixmap);
  if (!img) return g;
  if (img->bits_per_pixel == 32) {
    g.w = a.width;
    g.h = a.height;
    g.bgrx.resize(static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h) * 4);
    for (int y = 0; y < g.h; ++y)
      std::memcpy(g.bgrx.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(g.w) * 4,
                  img->data + static_cast<std::ptrdiff_t>(y) * img->bytes_per_line, static_cast<std::size_t>(g.w) * 4);
  }
  XDestroyImage(img);
  return g;
}

bool marker_at_bottom_left(const Grab& g) {
  return !g.bgrx.empty() && pictor::tag::decode(g.bgrx.data(), g.w, g.h, g.w * 4, pictor::tag::PixelFormat::bgrx,
                                                pictor::tag::Corner::bottom_left);
}

class OffloadResize : public ::testing::TestWithParam<std::string> {};

}  // namespace

// A resize mid-run through `pictor run`: the test owns the X server (--adapter display:), so it
// can resize the app's window while Pictor measures. The frames after it are copied at the new
// size — the marker, drawn at the frame's bottom-left corner, is read at the resized window's —
// and the client keeps matching inputs through it.
TEST_P(OffloadResize, TheCopyFollowsAWindowResizedMidRun) {
  const std::string copy = GetParam();
  const std::string dir = fresh_dir("offload-resize-" + copy);
  auto xvfb = pictor::runner::Xvfb::start({1024, 768});
  std::unique_ptr<Display, int (*)(Display*)> d(XOpenDisplay(xvfb->display().c_str()), XCloseDisplay);
  ASSERT_TRUE(d);
  pictor::runner::SpawnOptions o;
  o.argv = {PICTOR_BIN, "run", "--adapter", "display:" + xvfb->display(), "--render", "offload", "--frame-copy", copy,
            "--driver", "scripted:rate=6", "builtin:racing", "--size", "640x360", "-d", "8s", "--no-resources", "-o", dir};
  o.stdout_path = dir + ".out";
  o.stderr_path = dir + ".err";
  auto pictor_run = pictor::runner::Process::spawn(o);
  Window w = 0;
  for (int i = 0; i < 400 && !(w = app_window(d.get())); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_NE(w, 0u) << slurp(dir + ".err");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const Grab before = grab_window(d.get(), w);
  EXPECT_EQ(before.w, 640);
  EXPECT_TRUE(marker_at_bottom_left(before)) << "no marker at the window's corner before the resize";
  XResizeWindow(d.get(), w, 800, 500);
  XSync(d.get(), False);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const Grab after = grab_window(d.get(), w);
  EXPECT_EQ(after.w, 800);
  EXPECT_EQ(after.h, 500);
  EXPECT_TRUE(marker_at_bottom_left(after))
      << "the frames after the resize do not fill the 800x500 window: copied at the old size?";
  const auto st = pictor_run.wait_for(60);
  ASSERT_TRUE(st && st->exited) << slurp(dir + ".err");
  ASSERT_EQ(st->code, 0) << slurp(dir + ".err");
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("inputs")) << summary.dump();
  const int sent = summary["inputs"]["sent"].get<int>(), matched = summary["inputs"]["matched"].get<int>();
  EXPECT_GT(sent, 15);
  EXPECT_GE(matched * 10, sent * 9) << "inputs lost across the resize: " << summary["inputs"].dump();
  const Frames f = read_frames(dir + "/frames.csv");
  for (const auto& row : f.rows) ASSERT_FALSE(f.at(row, "fc_ms").empty()) << "frame " << f.at(row, "frame");
  EXPECT_TRUE(xvfb->process().running()) << "the test's X server did not survive the session";
}

INSTANTIATE_TEST_SUITE_P(Strategies, OffloadResize, ::testing::Values("memo", "async"));

TEST(OffloadOptions, RenderAndFrameCopyAreCheckedAndBecomeTheAppsEnvironment) {
  using pictor::runner::parse_render;
  EXPECT_FALSE(parse_render("native", "").offload);
  EXPECT_TRUE(pictor::runner::render_environment(parse_render("native", "")).empty());
  const auto plain = parse_render("offload", "");
  EXPECT_TRUE(plain.offload);
  EXPECT_EQ(plain.frame_copy, "vgl");
  const auto env = pictor::runner::render_environment(parse_render("offload:device=/dev/dri/renderD128", "async"));
  EXPECT_EQ(env.at("PICTOR_RENDER"), "offload");
  EXPECT_EQ(env.at("PICTOR_FRAME_COPY"), "async");
  EXPECT_EQ(env.at("PICTOR_OFFLOAD_DEVICE"), "/dev/dri/renderD128");
  EXPECT_EQ(pictor::runner::render_json(parse_render("offload", "memo")),
            nlohmann::json::parse(R"({"mode": "offload", "frame_copy": "memo"})"));
  EXPECT_THROW(parse_render("gpu", ""), pictor::UsageError);
  EXPECT_THROW(parse_render("offload:device=", ""), pictor::UsageError);
  EXPECT_THROW(parse_render("offload", "fast"), pictor::UsageError);
  EXPECT_THROW(parse_render("native", "memo"), pictor::UsageError);
}
