// The human driver's recorder on a private Xvfb: XTest events (as a person's would be) come back
// as recording inputs, in order, with their keysyms, buttons and positions.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "icdata/human_recorder.h"
#include "runner/xvfb.h"
// After gtest: Xlib defines macros (None, Bool) that collide with gtest's names.
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

namespace pictor::icdata {
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

}  // namespace
}  // namespace pictor::icdata
