// Frame pacing for mark (MARK.md §1): frames start on a display clock at the target rate, like
// requestAnimationFrame. Xvfb has no vsync, so the default emulates the tick; a frame that overruns
// misses ticks. The previous frame's rendering is waited for (GL fence) before the next tick.
#pragma once
#include <cstdint>

namespace pictor::mark {

class FramePacer {
 public:
  virtual ~FramePacer();
  // Blocks until the next frame may start and returns its timestamp (CLOCK_MONOTONIC ns).
  virtual int64_t wait_for_frame() = 0;
  // Called right after the frame's swap was issued (needs the GL context current).
  virtual void frame_submitted();

 protected:
  // Waits until the GPU/rasteriser has finished the last submitted frame.
  void wait_for_rendering();

 private:
  void* fence_ = nullptr;  // GLsync of the last submitted frame
};

// Emulated display: ticks at start + k·period. After the previous frame's rendering is complete,
// sleeps to the first tick after now.
class TickPacer final : public FramePacer {
 public:
  explicit TickPacer(double fps);
  int64_t wait_for_frame() override;

 private:
  int64_t start_ns_;
  double period_ns_;
};

// A display with vsync (swap interval 1): the swap itself waits for the vertical blank, so a
// frame starts as soon as the previous one is rendered.
class SwapPacer final : public FramePacer {
 public:
  int64_t wait_for_frame() override;
};

// MARK.md §1 frame-rate detection: of [15, 30, 45, 60, 90, 120, 144], the rate nearest (by
// |round(rate − measured)|, first wins) to 1000/((t_last − t_first)/callbacks); 60 if the
// measurement is not a positive finite number.
double pick_frame_rate(double first_ms, double last_ms, int callbacks);

}  // namespace pictor::mark
