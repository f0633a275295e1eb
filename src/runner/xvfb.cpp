#include "runner/xvfb.h"

#include <X11/Xlib.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/error.h"

namespace pictor::runner {

std::unique_ptr<Xvfb> Xvfb::start(Size screen, const std::string& log_path, const std::string& name) {
  if (!find_executable("Xvfb"))
    throw RunError("Xvfb not found (install the 'xvfb' package: make setup)");
  int fds[2];
  if (::pipe(fds) != 0) throw RunError("pipe failed while starting Xvfb");
  SpawnOptions opts;
  opts.argv = {"Xvfb", "-displayfd", std::to_string(fds[1]), "-screen", "0",
               std::to_string(screen.width) + "x" + std::to_string(screen.height) + "x24",
               "-nolisten", "tcp", "-noreset", "+extension", "GLX"};
  opts.keep_fd = fds[1];
  opts.name = name;
  opts.stdout_path = log_path;
  opts.stderr_path = log_path;
  std::unique_ptr<Xvfb> x(new Xvfb());
  x->process_ = Process::spawn(opts);
  ::close(fds[1]);

  // Xvfb writes the display number followed by a newline once it is ready for clients.
  std::string number;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (number.empty() || number.back() != '\n') {
    pollfd p{fds[0], POLLIN, 0};
    const int r = ::poll(&p, 1, 100);
    if (r > 0) {
      char buf[16];
      const auto n = ::read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      number.append(buf, static_cast<std::size_t>(n));
    }
    if (!x->process_.running() || std::chrono::steady_clock::now() > deadline) break;
  }
  ::close(fds[0]);
  if (number.empty() || number.back() != '\n') {
    const auto st = x->process_.stop(0.5);
    throw RunError((name.empty() ? "Xvfb" : name) + " failed to start (" + st.describe() + ")" +
                   (log_path.empty() ? "" : ", see " + log_path));
  }
  number.pop_back();
  x->display_ = ":" + number;
  return x;
}

ExitStatus Xvfb::stop() { return process_.stop(2.0); }

Xvfb::~Xvfb() { process_.stop(2.0); }

}  // namespace pictor::runner
