// The intelligent client's drivers that need no libtorch, registered by name with
// drivers::register_driver: reference, human, replay, gated-replay, slow-motion.
#pragma once

namespace pictor::ic {

// Called once at start (cli::register_drivers), before any subcommand runs.
void register_drivers();

}  // namespace pictor::ic
