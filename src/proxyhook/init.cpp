// Library load and unload: read the configuration once, start and stop the writer.
#include "proxyhook/proxy_state.h"

namespace {

__attribute__((constructor)) void pictor_proxyhook_load() { pictor::proxyhook::start_recording(); }

__attribute__((destructor)) void pictor_proxyhook_unload() { pictor::proxyhook::stop_recording(); }

}  // namespace
