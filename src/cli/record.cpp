// `pictor record`: records a play session for the intelligent client (DESIGN §9). Placeholder
// until the recording library lands.
#include "cli/commands.h"
#include "core/error.h"

namespace pictor::cli {

void add_record(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("record", "Record a play session (frames, inputs, labels) for training");
  cmd->allow_extras();
  cmd->callback([] { throw UsageError("pictor record is not available in this build yet"); });
}

}  // namespace pictor::cli
