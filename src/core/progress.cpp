#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

#include "core/clock.h"

namespace pictor {

Progress::Progress(bool quiet) : quiet_(quiet), tty_(isatty(2) != 0) {}

Progress::~Progress() {
  if (pending_) std::fputs("\n", stderr);
}

void Progress::update(const std::string& line) {
  if (quiet_) return;
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    pending_ = true;
    return;
  }
  const long long now = monotonic_ns();
  if (now - last_plain_ns_ < 5'000'000'000LL) return;
  last_plain_ns_ = now;
  std::fprintf(stderr, "%s\n", line.c_str());
}

void Progress::note(const std::string& line) {
  if (quiet_) return;
  if (tty_ && pending_) std::fputs("\r\033[K", stderr);
  pending_ = false;
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace pictor
