// The `ic:MODEL[,option=value...]` input driver: looks at each new frame, detects objects, steps
// the LSTM policy and presses/releases keys and moves the pointer the way the recording did.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "drivers/driver.h"

namespace pictor::ic {

// Options after the model path:
//   hold=P     a key/button is held while the policy's probability is >= P (default 0.5)
//   fps=N      at most N frames are looked at per second (default 30): the rate limit
//   motion=on|off  send the learnt pointer motion (default on; nothing without motion_scale)
struct IcDriverOptions {
  std::string model;
  double hold = 0.5;
  double fps = 30;
  bool motion = true;
};

// "PATH[,k=v...]": the path runs to the first ',' (it may hold '/' and ':'). Throws UsageError
// naming `spec` for a missing path or a bad option.
IcDriverOptions parse_ic_driver_args(std::string_view args, std::string_view spec);

// Loads the model (UsageError naming the file when it is unusable).
std::unique_ptr<drivers::Driver> make_ic_driver(const IcDriverOptions& options);

}  // namespace pictor::ic
