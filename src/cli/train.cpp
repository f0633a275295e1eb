// `pictor train`: trains the intelligent client's detector and policy (DESIGN §9). Placeholder
// until the libtorch library lands.
#include "cli/commands.h"
#include "core/error.h"

namespace pictor::cli {

void register_drivers() {}

void add_train(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("train", "Train a detector and an LSTM policy from recordings");
  cmd->allow_extras();
  cmd->callback([] { throw UsageError("pictor train is not available in this build yet"); });
}

}  // namespace pictor::cli
