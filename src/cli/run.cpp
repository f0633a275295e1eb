// `pictor run` (placeholder until its issue lands; it says so instead of pretending).
#include "cli/commands.h"
#include "core/error.h"

namespace pictor::cli {

void add_run(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("run", "(not available yet)");
  cmd->callback([] { throw UsageError("'run' is not available in this build yet"); });
}

}  // namespace pictor::cli
