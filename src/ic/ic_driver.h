// The `ic:MODEL[,option=value...]` input driver: looks at each new frame, detects objects, steps
// the LSTM policy and presses/releases keys and moves the pointer the way the recording did.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "drivers/driver.h"

namespace pictor::ic {

// Options after the model path:
//   hold=P     one held-probability threshold for every key (default: the model's calibrated
//              per-key thresholds, which reproduce the recorded share of held frames)
//   fps=N      at most N frames are looked at per second (default: the recordings' frame
//              rate, the LSTM's time step; 30 when the model does not know it)
//   motion=on|off  send the learnt pointer motion (default on; nothing without motion_scale)
//   act=hybrid|onsets|held  onsets: presses and pointer moves are *sampled* from the
//              policy's calibrated onset probabilities with a seeded generator (a press of a
//              key already down is a release and a press), releases follow the held threshold;
//              held: the key state follows the held threshold alone (a key changes at most once
//              per frame looked at, so short taps and re-presses are never made), motion every frame
//              hybrid (default): the key state follows hold_thresholds (as held), and a key that stays
//              down is re-pressed on onsets sampled at the calibrated re-press rate
//   target=on|off  aim button presses and pointer moves at the box the policy's pointer-target
//              head picks when its posterior reaches the model's target_threshold (default on;
//              otherwise presses go where the pointer is and moves use the learnt dx, dy)
//   seed=N     the sampling generator's seed (default 1): same seed, same frames, same actions
struct IcDriverOptions {
  std::string model;
  double hold = -1;  // < 0: the model's calibrated thresholds
  double fps = 0;    // 0: the recordings' frame rate
  bool motion = true;
  // act=hybrid (default): the state follows hold_thresholds, onsets only re-press. It played
  // racing best of the three in docs/performance.md (table 3) at the teacher's action rate.
  bool onsets = false;
  bool hybrid = true;
  bool target = true;
  std::uint64_t seed = 1;
};

// "PATH[,k=v...]": the path runs to the first ',' (it may hold '/' and ':'). Throws UsageError
// naming `spec` for a missing path or a bad option.
IcDriverOptions parse_ic_driver_args(std::string_view args, std::string_view spec);

// Loads the model (UsageError naming the file when it is unusable).
std::unique_ptr<drivers::Driver> make_ic_driver(const IcDriverOptions& options);

}  // namespace pictor::ic
