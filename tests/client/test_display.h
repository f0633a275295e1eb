// Support for the client's system tests: a private Xvfb, and a fake app in a child process that
// reads tracked X events, draws the tag marker into its window and records what the hook would.
#pragma once
#include <sys/types.h>

#include <string>

namespace pictor::client::test {

// Reads what an X server started with -displayfd writes to that pipe ("7\n"), closing read_fd;
// returns ":7", or an empty string when nothing complete came within timeout_s.
std::string read_displayfd(int read_fd, double timeout_s);

// Xvfb on a free display (-displayfd), stopped by the destructor or kill().
class TestXvfb {
 public:
  TestXvfb();  // throws std::runtime_error when Xvfb cannot start
  ~TestXvfb();
  const std::string& display() const { return display_; }
  void kill();  // SIGKILL now, to test a display that dies under the client

 private:
  pid_t pid_ = -1;
  std::string display_;
};

struct FakeAppOptions {
  std::string display;
  std::string out_dir;           // frames.csv and inputs_read.csv are written here at exit
  int width = 320, height = 240;
  int frame_period_ms = 8;
  bool select_releases = true;   // false: like glxgears, KeyPress/ButtonPress only
  bool marker = true;            // false: an app without the interposer
};

// A window that behaves like a hooked app: counts the tracked events it reads (tag n = n-th
// read), draws frames off screen and copies each to the window in one request (a "swap") with
// the marker of (latest tag, frame), and writes the interposer's two files when stopped.
class FakeApp {
 public:
  explicit FakeApp(const FakeAppOptions& options);  // forks the app; returns at once
  ~FakeApp();
  // Asks the app to finish, waits up to 5 s; returns its exit code (0 = files written).
  int stop();

 private:
  pid_t pid_ = -1;
  int stop_fd_ = -1;
};

}  // namespace pictor::client::test
