// `pictor run --adapter display:DISPLAY` as a user runs it on an X server Pictor did not start: the
// test starts its own Xvfb with a "desktop" window already on it, Pictor runs the app and the local
// client there, and the X server is left as it was found — running, same pid, its windows and its
// keyboard auto-repeat untouched. Native and offloaded rendering; an unreachable display refused.
#include <gtest/gtest.h>

#include <X11/Xlib.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "helpers.h"
#include "runner/process.h"
#include "runner/xvfb.h"

using namespace pictor::test;

namespace {

using DisplayPtr = std::unique_ptr<Display, int (*)(Display*)>;

// A display someone else runs: the test's Xvfb with a mapped window covering the screen, bigger
// than the app's, as a desktop's background or another app would be.
struct ForeignDisplay {
  std::unique_ptr<pictor::runner::Xvfb> xvfb = pictor::runner::Xvfb::start({1024, 768});
  DisplayPtr dpy{XOpenDisplay(xvfb->display().c_str()), XCloseDisplay};
  Window desktop = 0;
  int pid = xvfb->process().pid();

  ForeignDisplay() {
    if (!dpy) return;
    desktop = XCreateSimpleWindow(dpy.get(), DefaultRootWindow(dpy.get()), 0, 0, 1024, 768, 0, 0, 0x336699);
    XMapWindow(dpy.get(), desktop);
    XAutoRepeatOn(dpy.get());
    XSync(dpy.get(), False);
  }
  bool auto_repeat_on() {
    XKeyboardState k{};
    XGetKeyboardControl(dpy.get(), &k);
    return k.global_auto_repeat == AutoRepeatModeOn;
  }
  bool desktop_still_mapped() {
    XWindowAttributes a{};
    return XGetWindowAttributes(dpy.get(), desktop, &a) && a.map_state == IsViewable;
  }
};

// frames.csv's column `name`, one cell per data row.
std::vector<std::string> column(const std::string& path, const std::string& name) {
  const auto rows = read_csv_rows(path, true);
  std::vector<std::string> out;
  if (rows.empty()) return out;
  std::size_t c = rows[0].size();
  for (std::size_t i = 0; i < rows[0].size(); ++i)
    if (rows[0][i] == name) c = i;
  for (std::size_t r = 1; r < rows.size(); ++r) out.push_back(c < rows[r].size() ? rows[r][c] : std::string());
  return out;
}

// What every session on the foreign display must show: frames, ≥ 90 % of the inputs matched, the
// server still Pictor's to leave alone, recorded as not started by Pictor.
void expect_measured_and_left_alone(ForeignDisplay& d, const std::string& dir, const CommandResult& r) {
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.is_object() && summary.contains("inputs")) << summary.dump();
  EXPECT_GT(summary.value("frames", 0), 50) << summary.dump();
  const int sent = summary["inputs"]["sent"].get<int>(), matched = summary["inputs"]["matched"].get<int>();
  EXPECT_GT(sent, 10) << summary["inputs"].dump();
  EXPECT_GE(matched * 10, sent * 9) << summary["inputs"].dump();

  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run.value("adapter", ""), "display");
  EXPECT_EQ(run.value("display", ""), d.xvfb->display());
  ASSERT_TRUE(run.contains("display_server") && run.contains("processes")) << run.dump();
  const auto& server = run["display_server"];
  EXPECT_EQ(server["display"], d.xvfb->display());
  EXPECT_EQ(server["started_by_pictor"], false);
  EXPECT_EQ(server["keyboard_auto_repeat_at_start"], true);
  EXPECT_EQ(server["keyboard_auto_repeat_restored"], true) << server.dump();
  // The client drove the app's window, not the bigger one that was there first.
  ASSERT_TRUE(run.contains("client") && run["client"].contains("window_id")) << run.dump();
  ASSERT_TRUE(run["client"]["window_id"].is_number()) << run["client"].dump();
  EXPECT_NE(run["client"]["window_id"].get<unsigned long>(), d.desktop);
  for (const auto& p : run["processes"]) {
    EXPECT_NE(p.value("pid", -1), d.pid) << "the X server is listed as Pictor's process: " << p.dump();
    EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
  }

  // Left as found: the same server process runs, answers a new client, keeps its windows and
  // its auto-repeat.
  EXPECT_TRUE(d.xvfb->process().running());
  EXPECT_EQ(d.xvfb->process().pid(), d.pid);
  EXPECT_TRUE(process_alive(d.pid));
  DisplayPtr again(XOpenDisplay(d.xvfb->display().c_str()), XCloseDisplay);
  EXPECT_TRUE(again) << "the display no longer accepts clients";
  EXPECT_TRUE(d.desktop_still_mapped());
  EXPECT_TRUE(d.auto_repeat_on()) << "the session turned auto-repeat off and did not put it back";
}

TEST(DisplayAdapter, RacingOnADisplayPictorDidNotStart) {
  ForeignDisplay d;
  ASSERT_TRUE(d.dpy);
  const std::string dir = fresh_dir("display-adapter-racing");
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "display:" + d.xvfb->display(), "--driver",
                              "scripted:rate=8", "builtin:racing", "--size", "640x360", "-d", "5s", "-o", dir});
  expect_measured_and_left_alone(d, dir, r);
  for (const auto& fc : column(dir + "/frames.csv", "fc_ms")) EXPECT_TRUE(fc.empty()) << "a native frame has FC " << fc;
  // Native frames are not copied: no FC or AS figures, and the summary says why.
  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.contains("fc_ms") && summary.contains("as_ms") && summary.contains("frame_copy_note"))
      << summary.dump();
  EXPECT_TRUE(summary["fc_ms"].is_null()) << summary["fc_ms"];
  EXPECT_TRUE(summary["as_ms"].is_null()) << summary["as_ms"];
  ASSERT_TRUE(summary["frame_copy_note"].is_string()) << summary.dump();
  EXPECT_NE(summary["frame_copy_note"].get<std::string>().find("rendered natively"), std::string::npos);
}

TEST(DisplayAdapter, OffloadedRacingOnADisplayPictorDidNotStart) {
  ForeignDisplay d;
  ASSERT_TRUE(d.dpy);
  const std::string dir = fresh_dir("display-adapter-offload");
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "display:" + d.xvfb->display(), "--render", "offload",
                              "--frame-copy", "memo", "--driver", "scripted:rate=8", "builtin:racing", "--size", "640x360",
                              "-d", "5s", "--no-resources", "-o", dir});
  expect_measured_and_left_alone(d, dir, r);
  const auto fc = column(dir + "/frames.csv", "fc_ms");
  ASSERT_GT(fc.size(), 50u);
  for (const auto& v : fc) ASSERT_FALSE(v.empty()) << "an offloaded frame without FC";
  EXPECT_EQ(read_json(dir + "/run.json")["render"]["mode"], "offload");
}

// The X server going away mid-run is the session's end, as a dead Xvfb of Pictor's is: exit 1,
// one line naming it, the app stopped, what was recorded kept.
TEST(DisplayAdapter, AServerThatGoesAwayEndsTheSessionWithOneLine) {
  auto xvfb = pictor::runner::Xvfb::start({800, 600});
  const std::string dir = fresh_dir("display-adapter-server-gone");
  pictor::runner::SpawnOptions o;
  o.argv = {PICTOR_BIN, "run", "--adapter", "display:" + xvfb->display(), "--driver", "scripted:rate=8",
            "builtin:racing", "--size", "640x360", "-d", "10s", "--no-resources", "-o", dir};
  o.stdout_path = dir + ".out";
  o.stderr_path = dir + ".err";
  auto pictor_run = pictor::runner::Process::spawn(o);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  xvfb->stop();
  const auto st = pictor_run.wait_for(30);
  ASSERT_TRUE(st && st->exited) << "pictor did not end after its X server went away";
  EXPECT_EQ(st->code, 1);
  std::ifstream in(dir + ".err");
  std::string line, err;
  while (std::getline(in, line))
    if (!line.empty()) err = line;
  EXPECT_EQ(err.rfind("pictor: X server " + xvfb->display() + " died", 0), 0u) << err;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run.value("status", ""), "failed");
  for (const auto& p : run["processes"]) EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
  EXPECT_FALSE(read_csv_rows(dir + "/frames.csv").empty()) << "the frames before the end were not kept";
}

TEST(DisplayAdapter, AnUnreachableDisplayIsOneLineAndStartsNothing) {
  const std::string dir = fresh_dir("display-adapter-unreachable");
  // Display 4093: no server there (Xvfb picks its own numbers from the bottom).
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "display::4093", "--driver", "scripted:rate=8",
                              "builtin:racing", "-d", "2s", "-o", dir});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.last_err_line().rfind("pictor: ", 0), 0u) << r.err;
  EXPECT_NE(r.last_err_line().find("':4093'"), std::string::npos) << r.err;
  const auto run = read_json(dir + "/run.json");
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run.value("status", ""), "failed to start");
  EXPECT_FALSE(run.contains("app") && run["app"].contains("pid")) << "the app was started: " << run["app"].dump();

  const auto bare = run_command({PICTOR_BIN, "run", "--adapter", "display", "builtin:racing", "-d", "2s"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.last_err_line().find("DISPLAY comes first"), std::string::npos) << bare.err;
  const auto two = run_command({PICTOR_BIN, "run", "--instances", "2", "--adapter", "display::4093", "builtin:racing",
                                "-d", "2s"});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.last_err_line().find("--adapter display runs one app"), std::string::npos) << two.err;
}

}  // namespace
