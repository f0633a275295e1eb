// `--adapter vncviewer` (docs/remote.md, "Stock viewers"): TigerVNC's Xvnc for the app (as
// `--adapter xvnc`, proxy hook preloaded), a second, client-side Xvfb, and TigerVNC's stock
// vncviewer on it connected over loopback; the session's client is the local client on the
// client display, sending inputs into the viewer's window and reading the marker from it.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "client/local_client.h"
#include "net/relay.h"
#include "runner/adapter.h"

namespace pictor::runner {

// Throws RunError when vncviewer (or Xvnc, Xvfb) is missing or fails to start, naming its log;
// nothing is left running then.
std::unique_ptr<Adapter> start_vncviewer_adapter(const AdapterOptions& options);

// The TigerVNC Tight quality level (0..9) whose JPEG quality is nearest to `jpeg_quality`
// (1..100), and that quality: TigerVNC's levels are 15 29 41 42 62 77 79 86 92 100.
struct TightLevel {
  int level = 0;
  int jpeg_quality = 0;
};
TightLevel nearest_tight_level(int jpeg_quality);

// The session's client of a stock-viewer adapter (vncviewer, xpra): the local client on the client
// display; `description` is run.json `client.adapter`, with `net()` (read after the session) as
// its `net`.
std::unique_ptr<AdapterClient> wrap_viewer_client(std::unique_ptr<client::LocalClient> c, nlohmann::json description,
                                                  std::function<nlohmann::json()> net);

// A stock viewer's --net path: a started relay in front of the server's loopback `port` when the
// session emulates a network with the relay backend; nullptr when it emulates none, or netem
// does (put on the server's own port by the session). `max_queued_bytes`: per direction.
std::unique_ptr<net::TcpRelay> start_viewer_relay(const AdapterOptions& options, int port,
                                                  std::size_t max_queued_bytes = net::RelayOptions{}.max_queued_bytes);

// run.json `client.adapter.net`, read after the session: what `relay` carried (up: viewer →
// server), or {"relay": false} without one.
nlohmann::json viewer_relay_json(const net::TcpRelay* relay);

// The resource sampler's network source of a stock viewer (Adapter::own_client_network): the
// bytes `relay` delivered each way; nullopt without a relay (the viewer connects directly).
std::optional<resources::NetworkSource> viewer_relay_network(const net::TcpRelay* relay, const std::string& viewer);

}  // namespace pictor::runner
