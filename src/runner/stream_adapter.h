// `--adapter stream` (docs/streaming.md): Xvfb for the app, pictor-stream-server beside it
// (ximagesrc → x264enc → rtph264pay → UDP or TCP, and the XTest input agent), the emulated
// network's relays when --net asks, and Pictor's GStreamer client as the session's client.
#pragma once
#include <memory>

#include "runner/adapter.h"

namespace pictor::runner {

// Throws UsageError for bad --stream options or --net-backend netem (the stream's relays are
// user-space), RunError when a server or relay cannot start; nothing is left running then.
std::unique_ptr<Adapter> start_stream_adapter(const AdapterOptions& options);

}  // namespace pictor::runner
