// `pictor serve`: the render host's agent for two-host sessions (docs/two-hosts.md). The work is in
// runner::serve_sessions; this file maps options.
#include <arpa/inet.h>
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "runner/remote_agent.h"
#include "runner/remote_protocol.h"

namespace pictor::cli {

namespace {
struct ServeArgs {
  std::string listen;
  std::string token_file;
  std::string work_dir;
  int max_sessions = 0;
};
}  // namespace

void add_serve(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand("serve", "Serve the render host's half of sessions run from another host with pictor run --server");
  cmd->add_option("--listen", args->listen,
                  "ADDR:PORT to listen on (an IPv4 address of this host; 0.0.0.0 only when named here)")
      ->required();
  cmd->add_option("--token-file", args->token_file, "the file holding the shared token clients must present")->required();
  cmd->add_option("--work-dir", args->work_dir,
                  "where each session's server half writes before its files are sent (default /tmp/pictor-serve-PID)");
  cmd->add_option("--max-sessions", args->max_sessions, "exit once this many sessions have ended (0: serve until stopped)")
      ->capture_default_str();
  cmd->footer("Example (render host 10.0.0.1):\n  pictor serve --listen 10.0.0.1:7300 --token-file ~/.pictor-token\n"
              "and on the client host:\n  pictor run --server 10.0.0.1:7300 --token-file ~/.pictor-token --adapter xvnc "
              "--driver scripted builtin:racing");
  cmd->callback([args, &ctx] {
    runner::AgentOptions o;
    o.token = runner::read_token_file(args->token_file, "--token-file");
    // ":PORT" and "localhost:PORT" are loopback; every other address is named.
    auto [host, port] = runner::parse_host_port(args->listen.rfind(':', 0) == 0 ? "127.0.0.1" + args->listen : args->listen,
                                                "--listen");
    if (host == "localhost") host = "127.0.0.1";
    in_addr probe{};
    if (::inet_pton(AF_INET, host.c_str(), &probe) != 1)
      throw UsageError(fmt::format("--listen '{}': '{}' is not an IPv4 address of this host (e.g. 10.0.0.1:7300)", args->listen, host));
    o.listen = {host, port};
    o.wildcard_named = host == "0.0.0.0";
    o.work_dir = args->work_dir.empty() ? fmt::format("/tmp/pictor-serve-{}", ::getpid()) : args->work_dir;
    o.quiet = ctx.quiet;
    if (args->max_sessions < 0) throw UsageError("--max-sessions must be 0 or more");
    o.max_sessions = args->max_sessions;
    ctx.exit_code = runner::serve_sessions(o);
  });
}

}  // namespace pictor::cli
