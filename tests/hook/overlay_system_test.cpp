// The in-app overlay as a user runs it: pictor-app under the interposer with PICTOR_OVERLAY=1 on
// a private Xvfb shows the panel above the marker (read back from the screen), Shift+F12 sent
// through XTest hides it and brings it back, and `pictor run --overlay` records a session whose
// markers still decode (tracking unaffected).
#include <gtest/gtest.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <cairo.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <memory>
#include <thread>
#include <vector>

#include "core/preload.h"
#include "helpers.h"
#include "runner/process.h"
#include "runner/xvfb.h"
#include "tag/marker_decode.h"
#include "tag/overlay_panel.h"

using namespace pictor::test;

namespace {

constexpr int kW = 640, kH = 480;
// The panel's place on a 640 x 480 screen with the marker bottom-left (tag::panel_place):
// its top row, in screen rows.
constexpr int kPanelTop = kH - (pictor::tag::kMarkerHeight + pictor::tag::kCellPx) - pictor::tag::kPanelHeight;

struct ScreenGrab {
  std::vector<std::uint8_t> bgrx;  // kW x kH, top-left origin
  const std::uint8_t* at(int x, int y) const { return bgrx.data() + (y * kW + x) * 4; }
  bool rgb_is(int x, int y, int r, int g, int b) const {
    const std::uint8_t* p = at(x, y);
    return p[2] == r && p[1] == g && p[0] == b;
  }
  // The panel's background where nothing else is drawn (a text-free, bar-free spot) and the top
  // bar of the F of "FPS".
  bool panel_shown() const {
    return rgb_is(1, kPanelTop + 1, 0x14, 0x16, 0x1b) && rgb_is(4, kPanelTop + 3, 0xe8, 0xea, 0xee);
  }
  void save_png(const std::string& path) const {
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, kW, kH);
    cairo_surface_flush(s);
    unsigned char* data = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    for (int y = 0; y < kH; ++y) std::memcpy(data + y * stride, bgrx.data() + y * kW * 4, kW * 4);
    cairo_surface_mark_dirty(s);
    cairo_surface_write_to_png(s, path.c_str());
    cairo_surface_destroy(s);
  }
};

ScreenGrab grab(Display* d) {
  ScreenGrab s;
  XImage* img = XGetImage(d, DefaultRootWindow(d), 0, 0, kW, kH, AllPlanes, ZPixmap);
  if (!img) return s;
  if (img->bits_per_pixel == 32) {
    s.bgrx.resize(static_cast<std::size_t>(kW) * kH * 4);
    for (int y = 0; y < kH; ++y) std::memcpy(s.bgrx.data() + y * kW * 4, img->data + y * img->bytes_per_line, kW * 4);
  }
  XDestroyImage(img);
  return s;
}

// Grabs the screen until `ok` holds or timeout_s passes; the last grab.
ScreenGrab grab_until(Display* d, const std::function<bool(const ScreenGrab&)>& ok, double timeout_s) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  ScreenGrab s;
  do {
    s = grab(d);
    if (!s.bgrx.empty() && ok(s)) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (std::chrono::steady_clock::now() < end);
  return s;
}

void shift_f12(Display* d) {
  const KeyCode shift = XKeysymToKeycode(d, XK_Shift_L), f12 = XKeysymToKeycode(d, XK_F12);
  XTestFakeKeyEvent(d, shift, True, CurrentTime);
  XTestFakeKeyEvent(d, f12, True, CurrentTime);
  XTestFakeKeyEvent(d, f12, False, CurrentTime);
  XTestFakeKeyEvent(d, shift, False, CurrentTime);
  XFlush(d);
}

}  // namespace

TEST(Overlay, PanelShowsAboveTheMarkerAndShiftF12TogglesIt) {
  const std::string dir = fresh_dir("overlay");
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  pictor::runner::SpawnOptions o;
  o.argv = {PICTOR_APP_BIN_PATH, "null", "--size", "640x480", "--duration", "30"};
  o.env = {{"DISPLAY", xvfb->display()},
           {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)},
           {"PICTOR_OUT", dir},
           {"PICTOR_MARKER", "1"},
           {"PICTOR_OVERLAY", "1"}};
  o.stdout_path = dir + "/app.log";
  o.stderr_path = dir + "/app.log";
  auto app = pictor::runner::Process::spawn(o);
  std::unique_ptr<Display, int (*)(Display*)> d(XOpenDisplay(xvfb->display().c_str()), XCloseDisplay);
  ASSERT_TRUE(d) << "cannot open " << xvfb->display();

  // The graph: the newest frames' bars stand on the graph's bottom row at its right end. The
  // first frame has no frame time yet, so its panel has no bar; a loaded machine can show that
  // frame long enough to be grabbed, so wait for a later one.
  const pictor::tag::GraphBox g = pictor::tag::graph_box(pictor::tag::kPanelWidth, pictor::tag::kPanelHeight);
  const auto newest_bar = [&g](const ScreenGrab& s) {
    return !s.rgb_is(g.x + g.width - 1, kPanelTop + g.y + g.height - 1, 0x14, 0x16, 0x1b);
  };
  const ScreenGrab shown =
      grab_until(d.get(), [&](const ScreenGrab& s) { return s.panel_shown() && newest_bar(s); }, 20);
  shown.save_png(dir + "/shown.png");
  ASSERT_TRUE(shown.panel_shown()) << "no panel on screen: see " << dir << "/shown.png and app.log";
  EXPECT_TRUE(newest_bar(shown)) << "no bar at the graph's right end: see " << dir << "/shown.png";
  // The marker below it still decodes: the panel never covers its corner.
  const auto marker = pictor::tag::decode(shown.bgrx.data(), kW, kH, kW * 4, pictor::tag::PixelFormat::bgrx,
                                          pictor::tag::Corner::bottom_left);
  EXPECT_TRUE(marker) << "the marker does not decode under the overlay";
  // Right of the panel the app's own clear colour (0.1, 0.1, 0.12) is untouched.
  EXPECT_TRUE(shown.rgb_is(400, kPanelTop + 10, 26, 26, 31));

  // The key reaches the app's window (focus follows the pointer on a bare Xvfb).
  XTestFakeMotionEvent(d.get(), -1, kW / 2, kH / 2, CurrentTime);
  shift_f12(d.get());
  const ScreenGrab hidden = grab_until(d.get(), [](const ScreenGrab& s) { return !s.panel_shown(); }, 10);
  hidden.save_png(dir + "/hidden.png");
  EXPECT_FALSE(hidden.panel_shown()) << "Shift+F12 did not hide the panel: see " << dir << "/hidden.png";
  EXPECT_TRUE(hidden.rgb_is(1, kPanelTop + 1, 26, 26, 31)) << "the app's frame shows where the panel was";
  EXPECT_TRUE(pictor::tag::decode(hidden.bgrx.data(), kW, kH, kW * 4, pictor::tag::PixelFormat::bgrx,
                                  pictor::tag::Corner::bottom_left))
      << "the marker is drawn whether the panel is shown or not";

  shift_f12(d.get());
  const ScreenGrab again = grab_until(d.get(), [](const ScreenGrab& s) { return s.panel_shown(); }, 10);
  again.save_png(dir + "/again.png");
  EXPECT_TRUE(again.panel_shown()) << "a second Shift+F12 did not bring the panel back";

  app.stop();
  const auto rows = read_csv_rows(dir + "/frames.csv");
  EXPECT_GT(rows.size(), 10u);
}

TEST(Overlay, RunWithOverlayKeepsTrackingIntact) {
  const std::string dir = fresh_dir("overlay-run");
  const auto r = run_command({PICTOR_BIN, "run", "--overlay", "--driver", "scripted:rate=8", "builtin:spin", "--size",
                              "640x360", "-d", "3s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(read_csv_rows(dir + "/frames.csv").size(), 20u);
  std::ifstream log(dir + "/hook.log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("overlay on"), std::string::npos) << "the app did not draw the overlay: hook.log says\n" << text;
  // Every input the driver sent was matched to a frame through its marker.
  const auto summary = read_json(dir + "/summary.json");
  const int matched = summary["inputs"]["matched"].get<int>();
  EXPECT_GT(matched, 5);
  EXPECT_EQ(matched, summary["inputs"]["sent"].get<int>()) << summary["inputs"].dump();
}

namespace {

// An app under the interposer with PICTOR_OVERLAY=1 for ~2 s (then stopped); its hook.log.
std::string hook_log_of(const std::vector<std::string>& argv, const std::map<std::string, std::string>& extra_env,
                        const std::string& dir) {
  auto xvfb = pictor::runner::Xvfb::start({kW, kH});
  pictor::runner::SpawnOptions o;
  o.argv = argv;
  o.env = {{"DISPLAY", xvfb->display()},
           {"LD_PRELOAD", pictor::preload_value(PICTOR_HOOK_PATH)},
           {"PICTOR_OUT", dir},
           {"PICTOR_OVERLAY", "1"}};
  o.env.insert(extra_env.begin(), extra_env.end());
  o.stdout_path = dir + "/app.log";
  o.stderr_path = dir + "/app.log";
  auto app = pictor::runner::Process::spawn(o);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  app.stop();
  std::ifstream log(dir + "/hook.log");
  return std::string((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(Overlay, OffWithOneLogLineWhereTheContextCannotBlit) {
  // A GL 2.1 context has no framebuffer objects to blit from: the app keeps running and
  // recording, the overlay says once that it is off.
  const std::string dir = fresh_dir("overlay-gl2");
  const std::string log = hook_log_of({"glxgears"}, {{"MESA_GL_VERSION_OVERRIDE", "2.1"}}, dir);
  const auto first = log.find("overlay off");
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find("overlay off", first + 1), std::string::npos) << "said more than once:\n" << log;
  EXPECT_EQ(log.find("overlay on"), std::string::npos) << log;
  EXPECT_GT(read_csv_rows(dir + "/frames.csv").size(), 5u) << "the app's frames are recorded as ever";
}

TEST(Overlay, OnForAnEglContext) {
  const std::string dir = fresh_dir("overlay-egl");
  const std::string log = hook_log_of({"es2gears_x11"}, {}, dir);
  EXPECT_NE(log.find("overlay on"), std::string::npos) << log;
  EXPECT_GT(read_csv_rows(dir + "/frames.csv").size(), 5u);
}

TEST(Overlay, RunRefusesOverlayWithoutTheInterposer) {
  const auto r = run_command({PICTOR_BIN, "run", "--overlay", "--no-hook", "builtin:null", "-d", "1s", "-o",
                              fresh_dir("overlay-nohook")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.last_err_line(), "pictor: --overlay is drawn by the interposer: it cannot be combined with --no-hook");
}
