// `pictor serve`: the render host's agent (docs/two-hosts.md). It listens where it is told, and
// for each control connection that presents the shared token runs one session's server half —
// the adapter's servers with the proxy hook, the app under the interposer — in a process of its
// own, exposes the proxy to that client only, stops it when asked and sends back the files it
// wrote. Several sessions run at once, each in its own process.
#pragma once
#include <string>

#include "runner/metrics_server.h"  // ListenAddress
#include "runner/session.h"

namespace pictor::runner {

struct AgentOptions {
  ListenAddress listen;        // where the agent and the sessions' proxies are reached
  bool wildcard_named = false; // --listen named 0.0.0.0 itself (never the default)
  std::string token;           // the shared token (--token-file), never empty
  std::string work_dir;        // where the sessions' server halves write before their files are sent
  bool quiet = false;
  int max_sessions = 0;        // > 0: exit after this many sessions (tests); 0: until SIGINT/SIGTERM
};

// Binds, then serves until SIGINT or SIGTERM (each running session is stopped first). Throws
// UsageError when the address cannot be bound. Returns the exit status.
int serve_sessions(const AgentOptions& options);

// The adapters a two-host session runs (xvnc, x11vnc, stream over TCP); UsageError otherwise.
// Checked on both hosts.
void check_two_host_adapter(const RunOptions& options);

// The agent's version, as `welcome` tells it.
inline constexpr const char* kAgentVersion = "0.1.0";

}  // namespace pictor::runner
