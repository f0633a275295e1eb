#include "mark/test_loop.h"

namespace pictor::mark {

TestLoop::TestLoop(Stage& stage, Controller& controller, const WarmupOptions& warmup)
    : stage_(stage), controller_(controller), warmup_(warmup) {
  stage_.tune(to_tune_delta(controller_.initial_complexity() - static_cast<double>(stage_.complexity())));
}

bool TestLoop::frame(double timestamp) {
  if (controller_.should_stop(timestamp)) return false;
  ++frames_;
  if (!warmed_up_) {
    // The stage animates with delta 0 while the warm-up runs at the initial complexity.
    if (!previous_) {
      previous_ = timestamp;
    } else if (timestamp - *previous_ >= warmup_.length_ms && warmup_frames_ >= warmup_.frames) {
      warmed_up_ = true;
      controller_.start(timestamp, stage_);
      previous_ = timestamp;
    }
    stage_.animate(0);
    ++warmup_frames_;
    return true;
  }
  controller_.update(timestamp, stage_);
  stage_.animate(timestamp - *previous_);
  previous_ = timestamp;
  return true;
}

}  // namespace pictor::mark
