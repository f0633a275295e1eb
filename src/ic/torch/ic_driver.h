// The `ic:MODEL[,option=value...]` input driver: looks at each new frame, detects objects, steps
// the LSTM policy and presses/releases keys and moves the pointer the way the recording did.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "drivers/driver.h"
#include "ic/act_modes.h"

namespace pictor::ic {

// The options after the model path (hold, fps, motion, act, target, settle, fire, seed) are
// declared in ic/act_modes.h (ic_driver_option_set: `pictor list` prints their help), with
// IcDriverOptions and parse_ic_driver_args.

// Loads the model (UsageError naming the file when it is unusable).
std::unique_ptr<drivers::Driver> make_ic_driver(const IcDriverOptions& options);

}  // namespace pictor::ic
