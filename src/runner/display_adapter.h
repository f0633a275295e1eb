// `--adapter display:DISPLAY` (docs/remote.md "An X server Pictor did not start"): the app on an X
// server that already runs — a desktop, an Xorg on a GPU, a gamescope session — read by the local
// client. Pictor starts and stops nothing of it: it opens the display, watches that it stays
// reachable, and puts back the one server setting a session changes (keyboard auto-repeat).
#pragma once
#include <memory>

#include "runner/adapter.h"

namespace pictor::runner {

// Throws RunError (one line naming the display) when options.display cannot be opened.
std::unique_ptr<Adapter> start_display_adapter(const AdapterOptions& options);

}  // namespace pictor::runner
