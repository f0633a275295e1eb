// `pictor run --server HOST:PORT --token-file F`: a session across two hosts (docs/two-hosts.md).
// The client, its driver and the --net relay run here; the server half (adapter servers, proxy
// hook, app) runs on the render host under `pictor serve`. The session directory is assembled
// here with both halves' files under the one-machine names, so analysis and reports read it
// unchanged; run.json `two_hosts` holds the agent, and the clock offset the cross-host stages
// are corrected by.
#pragma once
#include "runner/session.h"

namespace pictor::runner {

// As run_session (its errors and results), with the server half on options.server.
RunResult run_two_host_session(const RunOptions& options);

// summary.json `resources` `host` of a two-host session: whose processes the block is, the render
// host's (docs/two-hosts.md "Resources"). `server`: run.json `two_hosts.server`.
std::string render_host_resources_label(const std::string& server);

}  // namespace pictor::runner
