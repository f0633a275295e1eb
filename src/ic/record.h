// `pictor record`: one play session through the recording wrapper, then the recording directory
// (frames, inputs, labels from the game's ground truth) around the session directory.
#pragma once
#include <cstdint>
#include <string>

#include "runner/session.h"

namespace pictor::ic {

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

// Phase "plan": the options checked and resolved without touching anything — REC's absolute
// path, the session to run (a built-in game gets truth=REC/truth and state=REC/session/state.csv;
// out_dir REC/session) and the driver spec (`reference` gets the game, the seed and the truth
// directory). Throws UsageError for a missing --out, truth= or state= in a game target, or the
// reference player on anything but a built-in game.
struct RecordingPlan {
  std::string dir;        // REC, absolute
  std::string truth_dir;  // REC/truth
  runner::RunOptions run;  // with out_dir and driver set
};
RecordingPlan plan_recording(const RecordOptions& options);

// Phase "claim": REC created (core/out_dir.h claim_out_dir), once the plan passed. Throws
// UsageError when it holds earlier results (a recording, a session) and `force` is false; with
// `force` they are deleted first.
void claim_recording_dir(const RecordingPlan& plan, bool force);

// plan_recording, claim_recording_dir, then the session through the recording wrapper, then
// REC's files. Throws
// UsageError for bad options; a failed session is returned with what was recorded.
RecordResult record_session(const RecordOptions& options);

}  // namespace pictor::ic
