// `--adapter xpra` (docs/remote.md, "Stock viewers"): a private Xvfb for the app, the stock xpra
// server on it (`xpra start --use-display`, H.264 through x264) listening on loopback TCP, a
// client-side Xvfb and `xpra attach` on it; the session's client is the local client on the client
// display, sending inputs into xpra's window of the app and reading the marker from it.
#pragma once
#include <memory>

#include "runner/adapter.h"

namespace pictor::runner {

// Throws RunError when xpra (or Xvfb) is missing or fails to start, naming its log; nothing is
// left running then.
std::unique_ptr<Adapter> start_xpra_adapter(const AdapterOptions& options);

}  // namespace pictor::runner
