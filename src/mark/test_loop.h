// The per-test animation loop of MARK.md §1 (MotionMark's Benchmark): warm-up, then controller
// update + stage animate at every display-clock callback. Fed timestamps; no clock, no GL.
#pragma once
#include <optional>

#include "mark/controller.h"
#include "mark/stage.h"

namespace pictor::mark {

struct WarmupOptions {
  double length_ms = 2000;  // warm-up lasts at least this long …
  int frames = 30;          // … and at least this many frames
};

class TestLoop {
 public:
  // Sets the stage to the controller's initial complexity.
  TestLoop(Stage& stage, Controller& controller, const WarmupOptions& warmup = {});

  // One display-clock callback at `timestamp` (ms, monotonic). Animates and draws the stage and
  // returns true, or returns false without drawing once the test is over.
  bool frame(double timestamp);
  bool warmed_up() const { return warmed_up_; }
  long frames() const { return frames_; }

 private:
  Stage& stage_;
  Controller& controller_;
  WarmupOptions warmup_;
  std::optional<double> previous_;
  bool warmed_up_ = false;
  long warmup_frames_ = 0;
  long frames_ = 0;
};

}  // namespace pictor::mark
