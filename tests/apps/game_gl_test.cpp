// The built-in games on a private Xvfb with Mesa llvmpipe: they render, an input changes the very
// next frame, the GPU puts each ground-truth box where the CPU projection says, and pictor-app
// reacts to XTest input (state log), replays exactly, and writes valid YOLO/COCO ground truth.
#include <gtest/gtest.h>

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <GL/gl.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "apps/game/game_registry.h"
#include "apps/game/renderer.h"
#include "apps/game/state_log.h"
#include "apps/scene.h"
#include "game_scripts.h"
#include "runner/process.h"
#include "runner/xvfb.h"

using namespace pictor;
using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

constexpr int kW = 1280, kH = 720;

std::vector<unsigned char> read_frame() {
  std::vector<unsigned char> rgb(static_cast<std::size_t>(kW) * kH * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, kW, kH, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  return rgb;
}

std::size_t pixels_differing(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < a.size(); i += 3) n += (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ? 1 : 0;
  return n;
}

// One private Xvfb and a 1280×720 GL window on it for the whole suite: llvmpipe start-up is slow.
class GameGl : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    xvfb_ = runner::Xvfb::start({kW, kH}).release();
    window_ = platform::GlWindow::create({{kW, kH}, "pictor game test", xvfb_->display(), false}).release();
  }
  static void TearDownTestSuite() {
    delete window_;
    delete xvfb_;
  }
  static runner::Xvfb* xvfb_;
  static platform::GlWindow* window_;
};
runner::Xvfb* GameGl::xvfb_ = nullptr;
platform::GlWindow* GameGl::window_ = nullptr;

// An input that each game must answer on screen, and where the pointer is before it.
std::vector<platform::InputEvent> answer_inputs(const std::string& game) {
  if (game == "racing") return {key(Kind::key_down, XK_Down), key(Kind::key_down, XK_Left), key(Kind::key_down, XK_Up)};
  if (game == "shooter")
    return {pointer(Kind::button_down, 1, 640, 360), pointer(Kind::motion, 0, 660, 350), key(Kind::key_down, XK_w)};
  return {pointer(Kind::button_down, 1, 400, 300), pointer(Kind::motion, 0, 500, 380), key(Kind::key_down, XK_Left),
          pointer(Kind::button_down, 3, 700, 500)};
}

}  // namespace

TEST_P(GameGl, RendersAndAnswersEveryInputInTheNextFrame) {
  auto scene = apps::find_scene(GetParam())->make();
  apps::SceneContext context;
  context.size = {kW, kH};
  context.options = apps::SceneOptions(scene->options(), {{"seed", "3"}}, GetParam());
  scene->setup(context);
  if (GetParam() == "shooter") scene->input(pointer(Kind::motion, 0, 640, 360));  // where the pointer rests
  scene->update(0, 0);
  scene->draw();
  auto before = read_frame();
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < before.size(); i += 97)
    colours.insert(before[i] << 16 | before[i + 1] << 8 | before[i + 2]);
  EXPECT_GT(colours.size(), 50u) << "a real scene, not a clear colour";
  scene->draw();
  EXPECT_EQ(pixels_differing(before, read_frame()), 0u) << "with no input and no step the frame stays the same";
  for (const auto& e : answer_inputs(GetParam())) {
    scene->input(e);  // no update: the next frame must show it anyway
    scene->draw();
    const auto after = read_frame();
    EXPECT_GT(pixels_differing(before, after), 50u) << game::input_text(e);
    before = after;
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  scene->teardown();
}

TEST_P(GameGl, GpuDrawsEachTruthBoxWhereTheProjectionSays) {
  game::GameSetup setup;
  setup.seed = 4;
  auto sim = game::make_game_sim(GetParam(), setup);
  for (const auto& s : script_for(GetParam()))
    if (s.step < 40) sim->input(s.event);
  for (int i = 0; i < 40; ++i) sim->step();
  game::MeshRenderer renderer;
  renderer.setup();
  renderer.add_model_meshes(1.0f);
  game::Lighting flat;
  flat.fog_start = 1e6f;
  flat.fog_end = 2e6f;
  const game::Mat4 vp = sim->view_projection();
  int checked = 0;
  for (const auto& o : sim->truth_objects()) {
    const auto box = game::project_box(vp, o.box, kW, kH);
    if (!box) continue;
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    renderer.begin(vp, sim->camera().eye, flat);
    game::ModelPart p;
    p.instance.position = o.box.centre;
    p.instance.yaw = o.box.yaw;
    p.instance.scale = o.box.half;
    p.instance.emissive = 1;
    renderer.add(p);
    renderer.draw_models();
    const auto rgb = read_frame();
    int x0 = kW, y0 = kH, x1 = -1, y1 = -1;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x)
        if (rgb[(static_cast<std::size_t>(y) * kW + x) * 3] > 128) {
          const int top_y = kH - 1 - y;  // GL rows run bottom-up
          x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, top_y), y1 = std::max(y1, top_y);
        }
    ASSERT_GE(x1, 0) << "the box drew no pixel";
    // Pixel centres covered by the rasteriser lie within half a pixel of the true edges.
    EXPECT_NEAR(x0, box->x0, 1.5);
    EXPECT_NEAR(x1 + 1, box->x1, 1.5);
    EXPECT_NEAR(y0, box->y0, 1.5);
    EXPECT_NEAR(y1 + 1, box->y1, 1.5);
    if (++checked == 6) break;
  }
  EXPECT_GT(checked, 0);
  renderer.teardown();
}

INSTANTIATE_TEST_SUITE_P(Games, GameGl, ::testing::Values("racing", "shooter", "strategy"));

// ---- pictor-app as a user runs it, driven through XTest. ----

namespace {

::Window find_window(Display* d, ::Window w, const std::string& title) {
  char* name = nullptr;
  if (XFetchName(d, w, &name) && name) {
    const bool match = title == name;
    XFree(name);
    if (match) return w;
  }
  ::Window root, parent, *children = nullptr;
  unsigned n = 0;
  ::Window found = 0;
  if (XQueryTree(d, w, &root, &parent, &children, &n)) {
    for (unsigned i = 0; i < n && !found; ++i) found = find_window(d, children[i], title);
    if (children) XFree(children);
  }
  return found;
}

void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void press(Display* d, KeySym k, bool down) {
  XTestFakeKeyEvent(d, XKeysymToKeycode(d, k), down ? True : False, CurrentTime);
  XFlush(d);
}
void click(Display* d, unsigned button, bool down) {
  XTestFakeButtonEvent(d, button, down ? True : False, CurrentTime);
  XFlush(d);
}
void move(Display* d, int x, int y) {
  XTestFakeMotionEvent(d, -1, x, y, CurrentTime);
  XFlush(d);
}

// Plays each game a little through real X input.
void play_through_xtest(Display* d, const std::string& game) {
  move(d, 640, 360);
  pause_ms(100);
  if (game == "racing") {
    press(d, XK_Up, true);
    pause_ms(1500);
    press(d, XK_Left, true);
    pause_ms(300);
    press(d, XK_Left, false);
    press(d, XK_Up, false);
  } else if (game == "shooter") {
    for (int i = 0; i < 10; ++i) {
      move(d, 640 + 15 * i, 360);
      click(d, 1, true);
      pause_ms(40);
      click(d, 1, false);
      pause_ms(60);
    }
    press(d, XK_w, true);
    pause_ms(500);
    press(d, XK_w, false);
  } else {
    move(d, 10, 10);
    click(d, 1, true);
    move(d, 600, 400);
    move(d, 1270, 710);
    click(d, 1, false);
    pause_ms(100);
    move(d, 700, 200);
    click(d, 3, true);
    click(d, 3, false);
    press(d, XK_Right, true);
    pause_ms(400);
    press(d, XK_Right, false);
  }
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

class GameApp : public ::testing::TestWithParam<std::string> {};

TEST_P(GameApp, ReactsToXInputReplaysExactlyAndWritesValidTruth) {
  const std::string game = GetParam();
  const fs::path dir = fs::temp_directory_path() / ("pictor-gameapp-" + std::to_string(getpid()) + "-" + game);
  fs::remove_all(dir);
  auto xvfb = runner::Xvfb::start({kW, kH});
  runner::SpawnOptions o;
  o.argv = {PICTOR_APP_BIN_PATH,
            game + ":seed=9:state=" + (dir / "state.csv").string() + ":truth=" + (dir / "truth").string() + ":truth_every=10",
            "--duration", "7"};
  o.env["DISPLAY"] = xvfb->display();
  o.stdout_path = o.stderr_path = (dir.string() + ".log");
  auto app = runner::Process::spawn(o);

  Display* d = XOpenDisplay(xvfb->display().c_str());
  ASSERT_NE(d, nullptr);
  ::Window w = 0;
  for (int i = 0; i < 200 && !w; ++i, pause_ms(50)) w = find_window(d, DefaultRootWindow(d), "pictor: " + game);
  ASSERT_NE(w, 0u) << "pictor-app never opened its window";
  pause_ms(500);
  play_through_xtest(d, game);
  XCloseDisplay(d);
  const auto status = app.wait_for(30);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->exited && status->code == 0) << status->describe() << "\n" << slurp(dir.string() + ".log");

  // The state log shows the injected inputs and what they did.
  const std::string log = slurp(dir / "state.csv");
  std::istringstream in(log);
  const game::StateLog parsed = game::parse_state_log(in, "state.csv");
  EXPECT_GT(parsed.inputs.size(), 3u);
  EXPECT_GT(parsed.end_step, 60) << "the game ran for seconds";
  const auto last = last_row(log);
  if (game == "racing") {
    EXPECT_NE(log.find("input,key_down Up"), std::string::npos);
    EXPECT_GT(std::stod(last[static_cast<std::size_t>(column(log, "score"))]), 5.0) << "the car drove forward";
  } else if (game == "shooter") {
    EXPECT_NE(log.find("input,button_down 1 "), std::string::npos);
    EXPECT_EQ(last[static_cast<std::size_t>(column(log, "shots"))], "10");
  } else {
    EXPECT_NE(log.find("input,button_up 1 1270 710"), std::string::npos);
    EXPECT_EQ(last[static_cast<std::size_t>(column(log, "commands"))], "1");
  }
  // Same seed + same inputs at the same steps → the same log, byte for byte.
  EXPECT_EQ(game::replay_state_log(parsed), log);

  // Ground truth: classes, one YOLO file per 10th frame, boxes in the window; COCO agrees.
  const fs::path truth = dir / "truth";
  const std::string classes = slurp(truth / "classes.txt");
  const auto names = game::make_game_sim(game, {})->classes();
  std::size_t files = 0, boxes = 0;
  for (const auto& entry : fs::directory_iterator(truth / "labels")) {
    ++files;
    std::istringstream lines(slurp(entry.path()));
    int cls;
    double cx, cy, bw, bh;
    while (lines >> cls >> cx >> cy >> bw >> bh) {
      ++boxes;
      EXPECT_GE(cls, 0);
      EXPECT_LT(static_cast<std::size_t>(cls), names.size());
      EXPECT_GE(cx - bw / 2, -1e-6);
      EXPECT_LE(cx + bw / 2, 1 + 1e-6);
      EXPECT_GE(cy - bh / 2, -1e-6);
      EXPECT_LE(cy + bh / 2, 1 + 1e-6);
      EXPECT_GT(bw, 0);
      EXPECT_GT(bh, 0);
    }
    EXPECT_TRUE(lines.eof()) << entry.path() << " has a malformed line";
  }
  EXPECT_GT(files, 3u);
  EXPECT_GT(boxes, 0u);
  const auto coco = nlohmann::json::parse(slurp(truth / "coco.json"));
  EXPECT_EQ(coco["images"].size(), files);
  EXPECT_EQ(coco["annotations"].size(), boxes);
  EXPECT_EQ(coco["categories"].size(), names.size());
  for (const auto& a : coco["annotations"]) {
    const auto& b = a["bbox"];
    EXPECT_GE(b[0].get<double>(), 0.0);
    EXPECT_GE(b[1].get<double>(), 0.0);
    EXPECT_LE(b[0].get<double>() + b[2].get<double>(), kW + 0.02);
    EXPECT_LE(b[1].get<double>() + b[3].get<double>(), kH + 0.02);
    EXPECT_EQ(a["image_id"].get<long long>() % 10, 0);
  }
  std::string expected_classes;
  for (const auto& n : names) expected_classes += n + "\n";
  EXPECT_EQ(classes, expected_classes);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Games, GameApp, ::testing::Values("racing", "shooter", "strategy"));

namespace {

// max_fps=N, which every scene takes, limits the frame rate: llvmpipe draws racing at 50–130
// frames a second here, and with max_fps=15 the app's own count stays at or below 15 a second.
TEST(FrameLimiter, MaxFpsCapsTheAppsOwnFrameRate) {
  auto xvfb = runner::Xvfb::start({kW, kH});
  const fs::path out = fs::temp_directory_path() / ("pictor-limiter-" + std::to_string(getpid()));
  runner::SpawnOptions o;
  o.argv = {PICTOR_APP_BIN_PATH, "racing:seed=2,max_fps=15", "--duration", "3", "--report"};
  o.env["DISPLAY"] = xvfb->display();
  o.stdout_path = out.string() + ".out";
  o.stderr_path = out.string() + ".log";
  auto app = runner::Process::spawn(o);
  const auto status = app.wait_for(30);
  ASSERT_TRUE(status.has_value());
  ASSERT_TRUE(status->exited && status->code == 0) << status->describe() << "\n" << slurp(out.string() + ".log");
  const std::string report = slurp(out.string() + ".out");
  const auto at = report.find("fps=");
  ASSERT_NE(at, std::string::npos) << report;
  const double fps = std::stod(report.substr(at + 4));
  const auto frames_at = report.find("frames=");
  ASSERT_NE(frames_at, std::string::npos) << report;
  const double frames = std::stod(report.substr(frames_at + 7));
  // Frames *start* at least 1/15 s apart; the report counts from the first swap, and the first
  // frame (shader compiles) finishes late, so the first swap interval may be short: one frame's
  // allowance.
  ASSERT_GT(frames, 3.0) << report;
  EXPECT_LE(fps, 15.0 * (frames - 1) / (frames - 2) + 1e-3) << report;
  EXPECT_GT(fps, 3.0) << report;  // it still runs
  fs::remove(out.string() + ".out");
  fs::remove(out.string() + ".log");
}

}  // namespace
