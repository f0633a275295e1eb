// The human driver's recorder on a private Xvfb: XTest events (as a person's would be) come back
// as recording inputs, in order, with their keysyms, buttons and positions.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "ic/human_recorder.h"
#include "ic/recording.h"
#include "runner/process.h"
#include "runner/xvfb.h"
#include "temp_dir.h"
// After gtest: Xlib defines macros (None, Bool) that collide with gtest's names.
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

namespace pictor::ic {
namespace {

using drivers::InputKind;

TEST(HumanRecorder, RecordsXTestEvents) {
  auto xvfb = runner::Xvfb::start({320, 240});
  auto recorder = HumanRecorder::start(xvfb->display());
  Display* dpy = XOpenDisplay(xvfb->display().c_str());
  ASSERT_NE(dpy, nullptr);
  const KeyCode a = XKeysymToKeycode(dpy, XK_a);
  XTestFakeMotionEvent(dpy, 0, 100, 50, CurrentTime);
  XTestFakeKeyEvent(dpy, a, True, CurrentTime);
  XTestFakeKeyEvent(dpy, a, False, CurrentTime);
  XTestFakeButtonEvent(dpy, 1, True, CurrentTime);
  XTestFakeButtonEvent(dpy, 1, False, CurrentTime);
  XSync(dpy, False);
  std::vector<RecInput> got;
  for (int i = 0; i < 100 && got.size() < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (auto& r : recorder->take()) got.push_back(r);
  }
  XCloseDisplay(dpy);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].input.kind, InputKind::pointer_motion);
  EXPECT_EQ(got[0].input.x, 100);
  EXPECT_EQ(got[0].input.y, 50);
  EXPECT_EQ(got[1].input.kind, InputKind::key_press);
  EXPECT_EQ(got[1].input.code, static_cast<unsigned>(XK_a));
  EXPECT_EQ(got[2].input.kind, InputKind::key_release);
  EXPECT_EQ(got[3].input.kind, InputKind::button_press);
  EXPECT_EQ(got[3].input.code, 1u);
  EXPECT_EQ(got[3].input.x, 100);
  EXPECT_EQ(got[4].input.kind, InputKind::button_release);
  for (std::size_t i = 1; i < got.size(); ++i) EXPECT_GE(got[i].t_ns, got[i - 1].t_ns);
}

// A person plays inside the session's own display: `pictor record --driver human --adapter xvnc`
// serves it on a VNC port; what arrives at that X server (here XTest, as a viewer's input would)
// is recorded.
TEST(HumanRecorder, RecordsAPersonInTheSessionDisplay) {
  namespace fs = std::filesystem;
  const std::string rec = test::temp_dir("human") + "/rec";
  runner::SpawnOptions o;
  o.argv = {PICTOR_BIN, "-q", "record", "--driver", "human", "--adapter", "xvnc", "builtin:racing", "-d", "5s", "--out", rec};
  o.stderr_path = rec + ".log";
  auto pictor = runner::Process::spawn(o);
  // The display is in run.json once the app and the client run.
  std::string display;
  for (int i = 0; i < 300 && display.empty() && pictor.running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream f(rec + "/session/run.json");
    const auto run = nlohmann::json::parse(f, nullptr, false);
    if (!run.is_discarded() && run.contains("rfb") && run.contains("display")) display = run["display"].get<std::string>();
  }
  ASSERT_FALSE(display.empty()) << "no display in run.json; see " << rec << ".log";
  Display* dpy = XOpenDisplay(display.c_str());
  ASSERT_NE(dpy, nullptr);
  const KeyCode up = XKeysymToKeycode(dpy, XK_Up);
  for (int i = 0; i < 3; ++i) {
    XTestFakeKeyEvent(dpy, up, True, CurrentTime);
    XSync(dpy, False);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    XTestFakeKeyEvent(dpy, up, False, CurrentTime);
    XSync(dpy, False);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  XCloseDisplay(dpy);
  const auto status = pictor.wait_for(30);
  ASSERT_TRUE(status && status->exited);
  EXPECT_EQ(status->code, 0) << "see " << rec << ".log";
  const Recording recording = read_recording(rec);
  EXPECT_FALSE(recording.info.synthetic);
  EXPECT_EQ(recording.info.driver, "human");
  int presses = 0, releases = 0;
  for (const auto& in : recording.inputs) {
    if (in.input.code != static_cast<unsigned>(XK_Up)) continue;
    presses += in.input.kind == InputKind::key_press;
    releases += in.input.kind == InputKind::key_release;
  }
  EXPECT_EQ(presses, 3);
  EXPECT_EQ(releases, 3);
}

// On the local adapter nobody can see the private Xvfb: one clear line, exit 2, nothing left.
TEST(HumanRecorder, LocalAdapterNeedsANamedDisplay) {
  const std::string rec = test::temp_dir("human-local") + "/rec";
  const std::string log = rec + ".log";
  const int rc = std::system((std::string(PICTOR_BIN) + " -q record --driver human builtin:racing -d 2s --out " + rec +
                              " 2>" + log).c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  std::ifstream f(log);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("pictor: driver 'human': the local adapter's display is a private Xvfb"), std::string::npos) << text;
}

}  // namespace
}  // namespace pictor::ic
