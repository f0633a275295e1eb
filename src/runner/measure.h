// The measurement loop (docs/architecture.md "The runner in phases"): one deadline, one Ctrl-C
// path over every stack of a run — a single session's one, N instances', a colocated pair's.
#pragma once
#include <signal.h>

#include <string>
#include <vector>

#include "core/progress.h"
#include "runner/stack.h"

namespace pictor::runner {

// Ctrl-C / SIGTERM / SIGHUP end the measurement early but still tear down and keep results:
// installed before the first stack starts, so a signal during start-up ends the loop at once.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_[3] {};
};

// The signal an InterruptGuard caught since it was installed, 0 when none: for loops that wait
// on something other than stacks (a campaign's jobs, the two-host client's session).
int interrupt_signal();

// Polls every 20 ms until each stack has ended: its app exited, one of its servers died, the
// deadline passed (`duration_s` after the last stack started: every stack is measured at least
// that long, all of them together), or a signal came (every stack still running then ends "when
// interrupted"). Returns that signal, 0 when none came. `label` names the run in the progress line.
int measure(const std::vector<Stack*>& stacks, double duration_s, Progress& progress, const std::string& label);

}  // namespace pictor::runner
