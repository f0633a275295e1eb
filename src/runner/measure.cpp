#include "runner/measure.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <thread>

#include "core/clock.h"
#include "runner/process.h"

namespace pictor::runner {

namespace {

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_interrupt{0};
void on_interrupt(int sig) { g_interrupt.store(sig); }

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupt.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old_[i]);
}

InterruptGuard::~InterruptGuard() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old_[i], nullptr);
}

int interrupt_signal() { return g_interrupt.load(); }

int measure(const std::vector<Stack*>& stacks, double duration_s, Progress& progress, const std::string& label) {
  std::int64_t last_start = 0;
  for (const Stack* s : stacks) last_start = std::max(last_start, s->start_ns());
  const std::int64_t deadline_ns = last_start + static_cast<std::int64_t>(duration_s * 1e9);
  for (;;) {
    const std::int64_t now = monotonic_ns();
    for (Stack* s : stacks) s->poll_app(now);
    if (const int sig = g_interrupt.load()) {
      for (Stack* s : stacks) s->end(now, "when interrupted (" + signal_name(sig) + ")", sig);
      return sig;
    }
    if (now >= deadline_ns)
      for (Stack* s : stacks) s->end(now, "after the duration");
    bool running = false;
    for (Stack* s : stacks) running = s->poll_servers(now) || running;
    if (!running) return 0;
    for (Stack* s : stacks) s->drive(now, s->seconds_at(deadline_ns), progress);
    const double elapsed = static_cast<double>(now - last_start) * 1e-9;
    progress.update(fmt::format("pictor: {} {:.0f}/{:g} s", label, std::max(0.0, elapsed), duration_s));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace pictor::runner
