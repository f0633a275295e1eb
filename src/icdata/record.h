// `pictor record`: one play session through the recording wrapper, then the recording directory
// (frames, inputs, labels from the game's ground truth) around the session directory.
#pragma once
#include <cstdint>
#include <string>

#include "runner/session.h"

namespace pictor::icdata {

struct RecordOptions {
  // The session to run: builtin or command/profile already filled in (the CLI applies
  // profiles), duration, size, adapter, net, quiet, argv. out_dir and driver are set here.
  runner::RunOptions run;
  std::string target_label;        // "builtin:racing:seed=3" or "profile:NAME", for recording.json
  std::string driver = "reference";  // reference | human | any driver spec
  std::uint64_t seed = 1;          // the reference player's seed
  std::string out;                 // REC directory: created; must not hold earlier results
  bool force = false;              // it does: delete them first (core/out_dir.h)
  Size frame_size{256, 144};
  int jpeg_quality = 90;
};

struct RecordResult {
  std::string dir;
  runner::RunResult session;
  std::size_t frames = 0, inputs = 0, labelled = 0;
};

// Throws UsageError for bad options (reference player on a non-built-in app, an existing
// recording in `out`); a failed session is returned with what was recorded.
RecordResult record_session(const RecordOptions& options);

// Registers the drivers of this area with drivers::register_driver: reference, human, replay,
// gated-replay, slow-motion.
void register_drivers();

}  // namespace pictor::icdata
