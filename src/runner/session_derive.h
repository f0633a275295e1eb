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
  // A two-host session: the render host's block, summarized by its sampler there (remote_run.cpp);
  // used when `resources` is null. Null: none ran.
  const nlohmann::json* remote_resources = nullptr;
};

// What conclude reads of a stack once it is torn down: a Stack's own (record_of), or a two-host
// session's, whose server half ran on the render host (remote_run.cpp, docs/two-hosts.md).
struct StackRecord {
  const SessionPlan& plan;
  const std::filesystem::path& dir;
  nlohmann::json& run;
  const StackEnd& end;
  const client::ClientStats& client_stats;
  const Client* client;  // null: none started
  const std::optional<ExitStatus>& app_status;
  const std::vector<nlohmann::json>& processes;  // the servers', then the app's entry
  std::int64_t start_ns;                         // the app's start, on the clock of frames.csv
  const std::string& name;
};
StackRecord record_of(Stack& stack);

// Derives, decides and writes the stack's final files; returns its RunResult.
RunResult conclude(Stack& stack, const ConcludeOptions& options, SessionWrites& writes, Progress& progress);
RunResult conclude(const StackRecord& stack, const ConcludeOptions& options, SessionWrites& writes, Progress& progress);

// Writes run.json whole or not at all (kRunJsonWrite); throws files::WriteError.
void write_run_json(const std::filesystem::path& dir, const nlohmann::json& run);

}  // namespace pictor::runner
