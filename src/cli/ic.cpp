// `pictor ic eval`: compares input drivers against a reference (paper table 3). Placeholder until
// the evaluation library lands.
#include "cli/commands.h"
#include "core/error.h"

namespace pictor::cli {

void add_ic(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("ic", "Intelligent client tools (eval)");
  cmd->allow_extras();
  cmd->callback([] { throw UsageError("pictor ic is not available in this build yet"); });
}

}  // namespace pictor::cli
