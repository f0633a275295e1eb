#include "mark/pacer.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <time.h>

#include <cmath>

#include "core/clock.h"
#include "mark/stats.h"

namespace pictor::mark {

FramePacer::~FramePacer() {
  if (fence_) glDeleteSync(static_cast<GLsync>(fence_));
}

void FramePacer::frame_submitted() {
  if (fence_) glDeleteSync(static_cast<GLsync>(fence_));
  fence_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  // Submit now so the wait at the next tick does not have to start the work.
  glFlush();
}

void FramePacer::wait_for_rendering() {
  if (!fence_) return;
  // Waiting here, at the start of the next frame, bounds the frame by its rendering without a
  // glFinish inside it; a frame whose rendering overruns simply misses the next tick.
  while (glClientWaitSync(static_cast<GLsync>(fence_), GL_SYNC_FLUSH_COMMANDS_BIT, 100'000'000) ==
         GL_TIMEOUT_EXPIRED) {
  }
  glDeleteSync(static_cast<GLsync>(fence_));
  fence_ = nullptr;
}

TickPacer::TickPacer(double fps) : start_ns_(monotonic_ns()), period_ns_(1e9 / fps) {}

int64_t TickPacer::wait_for_frame() {
  wait_for_rendering();
  const int64_t now = monotonic_ns();
  const double ticks = std::floor(static_cast<double>(now - start_ns_) / period_ns_) + 1;
  const int64_t next = start_ns_ + static_cast<int64_t>(ticks * period_ns_);
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(next / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(next % 1'000'000'000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
  return monotonic_ns();
}

int64_t SwapPacer::wait_for_frame() {
  wait_for_rendering();
  return monotonic_ns();
}

double pick_frame_rate(double first_ms, double last_ms, int callbacks) {
  const double average = 1000 / ((last_ms - first_ms) / callbacks);
  if (!std::isfinite(average) || average <= 0) return 60;
  const double rates[] = {15, 30, 45, 60, 90, 120, 144};
  double best = 60, best_distance = INFINITY;
  for (double rate : rates) {
    const double distance = std::fabs(js_round(rate - average));
    if (distance < best_distance) best = rate, best_distance = distance;
  }
  return best;
}

}  // namespace pictor::mark
