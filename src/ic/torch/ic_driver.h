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
//   settle=MS  crosshair models only: how turns are timed. 0: sampled from the policy's move
//              onsets, as in other games. MS > 0: a turn toward the chosen target is made on the
//              first frame looked at that is MS after the previous input, unless the target is
//              already under the crosshair; presses too wait for such a frame (default: the
//              model's aim.interval_ms, learnt from the teacher's turns; 0 for a model without it)
//   fire=drawn|box  crosshair models whose teacher fired only with a box under the crosshair
//              (aim.press_on_box >= 0.5): drawn — button presses are drawn from the policy and
//              wait up to 500 ms for a box under the crosshair; box — a button is clicked on every
//              frame looked at that is settle after the last input and has a detected box under
//              the crosshair (released on the next frame). Default: box when settle > 0, else drawn
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
  double settle_ms = -1;  // < 0: the model's aim.interval_ms
  int fire = -1;          // fire=drawn 0, fire=box 1; < 0: box for a model that settles and fired only at boxes
  std::uint64_t seed = 1;
};

// "PATH[,k=v...]": the path runs to the first ',' (it may hold '/' and ':'). Throws UsageError
// naming `spec` for a missing path or a bad option.
IcDriverOptions parse_ic_driver_args(std::string_view args, std::string_view spec);

// Loads the model (UsageError naming the file when it is unusable).
std::unique_ptr<drivers::Driver> make_ic_driver(const IcDriverOptions& options);

}  // namespace pictor::ic
