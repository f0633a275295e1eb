// `pictor mark` (placeholder until its issue lands; it says so instead of pretending).
#include "cli/commands.h"
#include "core/error.h"

namespace pictor::cli {

void add_mark(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("mark", "(not available yet)");
  cmd->callback([] { throw UsageError("'mark' is not available in this build yet"); });
}

}  // namespace pictor::cli
