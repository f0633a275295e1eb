// The resource sampler of one session (docs/resources.md): given the adapter's servers, the app
// (with its descendants), Pictor's own process and the relay's thread with their roles, started
// with the app and stopped when the measurement ends; its figures go into summary.json.
#pragma once
#include <nlohmann/json.hpp>
#include <sys/types.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "resources/resource_summary.h"
#include "resources/sampler.h"

namespace pictor::client {
class RemoteClient;
}
namespace pictor::net {
class TcpRelay;
}

namespace pictor::runner {

class Adapter;
class SessionWrites;

// Throws UsageError unless kMinSampleIntervalS <= interval_s <= kMaxSampleIntervalS.
void check_sample_interval(double interval_s);

class SessionResources {
 public:
  // Starts sampling the adapter's servers, the app and Pictor's own process. Never throws: what
  // cannot be measured is a reason in the files; a resources.csv that cannot be created is a
  // note in `notes()` and no sampler.
  static std::unique_ptr<SessionResources> start(const std::string& dir, double interval_s, const Adapter& adapter,
                                                 pid_t app_pid, const std::string& app_name,
                                                 const std::vector<nlohmann::json>& helpers = {});
  // The render host's half of a two-host session (pictor serve): the same, but this process is the
  // agent's session (role "agent": the control connection and the relays in front of the proxy),
  // not a client; watch_agent_relays() gives those relays.
  static std::unique_ptr<SessionResources> start_agent(const std::string& dir, double interval_s, const Adapter& adapter,
                                                       pid_t app_pid, const std::string& app_name);
  // One sampler for several stacks (`--instances`, `pictor colocate`): Pictor's own process now,
  // each stack's processes with watch_stack() as it starts (the first one starts sampling).
  // `remote`: the stacks serve RFB.
  static std::unique_ptr<SessionResources> start_shared(const std::string& dir, double interval_s, bool remote,
                                                        const char* own_role = resources::role::kClient);
  ~SessionResources();

  // A stack's servers and app (with its descendants), in the stack column `stack`.
  // `helpers`: {name, pid} of a container's engine processes (Container::helpers), role "container".
  void watch_stack(const Adapter& adapter, pid_t app_pid, const std::string& app_name, const std::string& stack,
                   const std::vector<nlohmann::json>& helpers = {});
  // The client↔proxy bytes: the relay's counters when there is one (and its thread's CPU), else
  // the client socket's TCP_INFO, else those of the --net relay in front of the adapter's own
  // client (Adapter::own_client_network); none for the local adapter, or an own client that
  // connects directly (the reason is written).
  void watch_network(const net::TcpRelay* relay, const client::RemoteClient* client);
  // Several stacks' network: the sum of their relays' (or client sockets', or own clients'
  // relays') bytes; each relay's thread in its stack.
  struct StackNetwork {
    std::string stack;
    const net::TcpRelay* relay = nullptr;
    const client::RemoteClient* client = nullptr;
  };
  void watch_networks(const std::vector<StackNetwork>& stacks);
  // A two-host session's render host: the bytes of the relays that expose the proxy to the client
  // host (RFB: one; stream: video and input), summed, and their threads.
  void watch_agent_relays(const std::vector<const net::TcpRelay*>& relays);
  // Ends sampling (a last sample first). Idempotent.
  void stop();
  // summary["resources"] from the recorded files (run["resources"] when there is no summary);
  // summary.json rewritten through `writes`.
  void add_to(nlohmann::json& summary, nlohmann::json& run, SessionWrites& writes);
  // The same for one stack of a shared sampler: its own rows only (resources::stack_series).
  void add_stack_to(const std::string& stack, nlohmann::json& summary, nlohmann::json& run, SessionWrites& writes);
  // The block of every stack together (the run's own summary.json).
  nlohmann::json block();

 private:
  SessionResources() = default;
  nlohmann::json block_for(const std::string* stack);
  std::string dir_;
  std::unique_ptr<resources::ResourceSampler> sampler_;
  resources::SamplerStats stats_;
  std::string failure_;
  int error_ = 0;
  bool stopped_ = false;
  bool started_ = false;
  bool remote_ = false;  // the adapter serves RFB or has its own client: there is a network to measure
  // The adapter's own client (vncviewer, xpra, stream) and where its bytes are counted, if anywhere.
  struct OwnClient {
    std::string adapter;
    std::optional<resources::NetworkSource> network;
  };
  std::map<std::string, OwnClient> own_clients_;  // by stack ("" for a single session)
  std::optional<resources::NetworkSource> network_of(const net::TcpRelay* relay, const client::RemoteClient* client,
                                                     const std::string& stack) const;
  std::string no_network_reason(const std::vector<std::string>& stacks) const;
  std::optional<resources::ResourceSeries> series_;  // read once after the stop
};

}  // namespace pictor::runner
