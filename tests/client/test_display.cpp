#include "test_display.h"

#include <X11/Xlib.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "tag/marker_code.h"
#include "tag/marker_layout.h"

extern char** environ;

namespace pictor::client::test {

std::string read_displayfd(int read_fd, double timeout_s) {
  std::string number;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while ((number.empty() || number.back() != '\n') && std::chrono::steady_clock::now() < deadline) {
    pollfd p{read_fd, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buf[16];
      const auto n = ::read(read_fd, buf, sizeof buf);
      if (n <= 0) break;
      number.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(read_fd);
  if (number.empty() || number.back() != '\n') return {};
  number.pop_back();
  return ":" + number;
}

TestXvfb::TestXvfb() {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const std::string fd = std::to_string(fds[1]);
  std::vector<std::string> args = {"Xvfb", "-displayfd", fd, "-screen", "0", "640x480x24",
                                   "-nolisten", "tcp", "-noreset"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const int rc = posix_spawnp(&pid_, "Xvfb", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::runtime_error("cannot start Xvfb (install the xvfb package)");
  }
  display_ = read_displayfd(fds[0], 20);
  if (display_.empty()) throw std::runtime_error("Xvfb did not start");
}

void TestXvfb::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

TestXvfb::~TestXvfb() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  ::waitpid(pid_, nullptr, 0);
}

namespace {

struct Read {
  unsigned long tag;
  const char* kind;
  unsigned detail;
  std::int64_t ns;
};
struct Frame {
  unsigned long frame;
  std::int64_t swap_ns;
  std::int64_t return_ns;  // the "swap" (copy to the window and flush) returned
  unsigned long tag;
};

[[noreturn]] void run_app(const FakeAppOptions& o, int stop_fd) {
  Display* d = XOpenDisplay(o.display.c_str());
  if (!d) _exit(3);
  const int screen = DefaultScreen(d);
  const Window root = RootWindow(d, screen);
  const Window w = XCreateSimpleWindow(d, root, 0, 0, static_cast<unsigned>(o.width),
                                       static_cast<unsigned>(o.height), 0, BlackPixel(d, screen),
                                       BlackPixel(d, screen));
  long mask = KeyPressMask | ButtonPressMask | ExposureMask;
  if (o.select_releases) mask |= KeyReleaseMask | ButtonReleaseMask;
  XSelectInput(d, w, mask);
  XMapWindow(d, w);
  const Pixmap back = XCreatePixmap(d, w, static_cast<unsigned>(o.width),
                                    static_cast<unsigned>(o.height),
                                    static_cast<unsigned>(DefaultDepth(d, screen)));
  const GC gc = XCreateGC(d, back, 0, nullptr);
  std::vector<Read> reads;
  std::vector<Frame> frames;
  unsigned long tag = 0;
  for (unsigned long frame = 0; frame < 20000; ++frame) {
    while (XPending(d) > 0) {
      XEvent ev;
      XNextEvent(d, &ev);
      const char* kind = nullptr;
      unsigned detail = 0;
      switch (ev.type) {
        case KeyPress: kind = "key_press"; detail = ev.xkey.keycode; break;
        case KeyRelease: kind = "key_release"; detail = ev.xkey.keycode; break;
        case ButtonPress: kind = "button_press"; detail = ev.xbutton.button; break;
        case ButtonRelease: kind = "button_release"; detail = ev.xbutton.button; break;
        default: break;
      }
      if (kind) reads.push_back({++tag, kind, detail, monotonic_ns()});
    }
    // A frame: a changing background, then the marker, then one copy to the window (the swap).
    XSetForeground(d, gc, 0x203040 + (frame % 64) * 0x010203);
    XFillRectangle(d, back, gc, 0, 0, static_cast<unsigned>(o.width), static_cast<unsigned>(o.height));
    if (o.marker) {
      const auto m = tag::layout(tag::make_payload(tag, frame), o.width, o.height);
      for (int i = 0; i < m.count; ++i) {
        const auto& r = m.rects[static_cast<std::size_t>(i)];
        XSetForeground(d, gc, r.white ? 0xffffff : 0x000000);
        // GL window coordinates (origin bottom-left) to X (origin top-left).
        XFillRectangle(d, back, gc, r.x, o.height - r.y - r.h, static_cast<unsigned>(r.w),
                       static_cast<unsigned>(r.h));
      }
    }
    const std::int64_t swap_ns = monotonic_ns();
    XCopyArea(d, back, w, gc, 0, 0, static_cast<unsigned>(o.width), static_cast<unsigned>(o.height), 0, 0);
    XFlush(d);
    frames.push_back({frame, swap_ns, monotonic_ns(), tag});
    pollfd p{stop_fd, POLLIN, 0};
    if (::poll(&p, 1, o.frame_period_ms) != 0) break;  // readable or closed: stop
  }
  const std::string dir = o.out_dir;
  if (FILE* f = std::fopen((dir + "/inputs_read.csv").c_str(), "w")) {
    std::fprintf(f, "tag,kind,detail,read_ns\n");
    for (const Read& r : reads) std::fprintf(f, "%lu,%s,%u,%lld\n", r.tag, r.kind, r.detail, static_cast<long long>(r.ns));
    std::fclose(f);
  } else {
    _exit(4);
  }
  if (FILE* f = std::fopen((dir + "/frames.csv").c_str(), "w")) {
    std::fprintf(f, "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n");
    for (const Frame& fr : frames) {
      std::fprintf(f, "%lu,1,%lld,,,%.4f,,,", fr.frame, static_cast<long long>(fr.swap_ns),
                   static_cast<double>(fr.return_ns - fr.swap_ns) / 1e6);
      if (fr.tag > 0) std::fprintf(f, "%lu", fr.tag);
      std::fprintf(f, "\n");
    }
    std::fclose(f);
  } else {
    _exit(4);
  }
  XCloseDisplay(d);
  _exit(0);
}

}  // namespace

FakeApp::FakeApp(const FakeAppOptions& options) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::close(fds[1]);
    run_app(options, fds[0]);
  }
  ::close(fds[0]);
  stop_fd_ = fds[1];
}

int FakeApp::stop() {
  if (pid_ <= 0) return -1;
  ::close(stop_fd_);
  stop_fd_ = -1;
  int status = 0;
  for (int i = 0; i < 500; ++i) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return 137;
}

FakeApp::~FakeApp() {
  if (pid_ > 0) stop();
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

}  // namespace pictor::client::test
