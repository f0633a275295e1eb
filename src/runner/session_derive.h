// The last phases of a stack's session (docs/architecture.md "The runner in phases"), once it is
// torn down: derive (the recorded files → summary.json, frametime.png, RTT, trace.json, the
// resources block, the bottleneck), then the verdict (one line naming the first cause), then
// run.json's final version and report.html.
#pragma once
#include <string>

#include "core/progress.h"
#include "runner/session.h"
#include "runner/session_resources.h"
#include "runner/session_writes.h"
#include "runner/stack.h"

namespace pictor::runner {

struct ConcludeOptions {
  // The sampler that watched the stack (null: none ran); `shared`: it watched several stacks, so
  // the stack's summary gets its own rows only (SessionResources::add_stack_to).
  SessionResources* resources = nullptr;
  bool shared = false;
};

// Derives, decides and writes the stack's final files; returns its RunResult.
RunResult conclude(Stack& stack, const ConcludeOptions& options, SessionWrites& writes, Progress& progress);

// Writes run.json whole or not at all (kRunJsonWrite); throws files::WriteError.
void write_run_json(const std::filesystem::path& dir, const nlohmann::json& run);

}  // namespace pictor::runner
