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
#include <vector>

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

// The paper's stack: the app offloaded into Xvnc, Pictor's RFB client reading the marker from
// the frames async put into Xvnc one swap late.
TEST(Offload, RacingOverXvncWithAsyncCopiesMatchesItsInputs) {
  const std::string dir = fresh_dir("offload-xvnc");
  const auto r = run_command({PICTOR_BIN, "run", "--render", "offload", "--frame-copy", "async", "--adapter", "xvnc",
                              "--driver", "scripted:rate=5", "builtin:racing", "--size", "640x360", "-d", "5s",
                              "--no-resources", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("inputs")) << summary.dump();
  const int sent = summary["inputs"]["sent"].get<int>(), matched = summary["inputs"]["matched"].get<int>();
  EXPECT_GT(sent, 10);
  EXPECT_GE(matched * 10, sent * 9) << summary["inputs"].dump();
  const Frames f = read_frames(dir + "/frames.csv");
  ASSERT_GT(f.rows.size(), 50u);
  for (const auto& row : f.rows) ASSERT_FALSE(f.at(row, "fc_ms").empty()) << "frame " << f.at(row, "frame");
}

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
