// Library load and unload: read the configuration once, start and stop the writer.
#include "hook/config.h"
#include "hook/writer.h"

namespace {

__attribute__((constructor)) void pictor_hook_load() {
  pictor::hook::load_config();
  pictor::hook::start_writer();
}

__attribute__((destructor)) void pictor_hook_unload() { pictor::hook::stop_writer(); }

}  // namespace
