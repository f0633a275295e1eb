#include "runner/session_resources.h"

#include <unistd.h>

#include <chrono>
#include <fmt/format.h>
#include <thread>

#include "client/remote_client.h"
#include "core/error.h"
#include "core/files.h"
#include "core/units.h"
#include "net/relay.h"
#include "resources/resource_summary.h"
#include "runner/adapter.h"
#include "runner/session_writes.h"

namespace pictor::runner {

namespace {

// The role of an adapter's server, by the name Adapter::running_processes gives it.
const char* server_role(const std::string& name) {
  if (name == "Xvnc") return resources::role::kXServerProxy;
  if (name == "x11vnc" || name == "pictor-stream-server" || name == "xpra server") return resources::role::kProxy;
  // A stock viewer and the display it draws on are the client side (adapters vncviewer, xpra).
  if (name == "vncviewer" || name == "xpra client" || name == "client Xvfb") return resources::role::kClient;
  return resources::role::kXServer;  // Xvfb
}

}  // namespace

void check_sample_interval(double interval_s) {
  if (!(interval_s >= resources::kMinSampleIntervalS && interval_s <= resources::kMaxSampleIntervalS))
    throw UsageError(fmt::format("--sample-interval must be between {} and {} (got {:g} s)",
                                 format_duration(resources::kMinSampleIntervalS),
                                 format_duration(resources::kMaxSampleIntervalS), interval_s));
}

std::unique_ptr<SessionResources> SessionResources::start_shared(const std::string& dir, double interval_s, bool remote,
                                                                 const char* own_role) {
  std::unique_ptr<SessionResources> r(new SessionResources());
  r->dir_ = dir;
  r->remote_ = remote;
  try {
    resources::SamplerOptions o;
    o.out_dir = dir;
    o.interval_s = interval_s;
    r->sampler_ = std::make_unique<resources::ResourceSampler>(o);
  } catch (const files::WriteError& e) {
    r->failure_ = e.what();
    r->error_ = e.error();
    return r;
  }
  r->sampler_->watch_process(::getpid(), own_role, own_role == std::string(resources::role::kAgent) ? "pictor serve" : "pictor");
  if (!remote)
    r->sampler_->set_network_unavailable("unavailable: the local adapter has no network (the client reads the X display)");
  return r;
}

std::unique_ptr<SessionResources> SessionResources::start(const std::string& dir, double interval_s,
                                                          const Adapter& adapter, pid_t app_pid,
                                                          const std::string& app_name,
                                                          const std::vector<nlohmann::json>& helpers) {
  std::unique_ptr<SessionResources> r = start_shared(dir, interval_s, adapter.rfb().has_value() || adapter.has_own_client());
  r->watch_stack(adapter, app_pid, app_name, "", helpers);
  return r;
}

void SessionResources::watch_stack(const Adapter& adapter, pid_t app_pid, const std::string& app_name,
                                   const std::string& stack, const std::vector<nlohmann::json>& helpers) {
  if (!sampler_) return;
  if (adapter.has_own_client()) own_clients_[stack] = OwnClient{adapter.name(), adapter.own_client_network()};
  sampler_->watch_process(app_pid, resources::role::kApp, app_name, /*descendants=*/true, stack);
  for (const nlohmann::json& h : helpers)
    sampler_->watch_process(h.value("pid", 0), resources::role::kContainer, h.value("name", ""), false, stack);
  for (const nlohmann::json& p : adapter.running_processes()) {
    const std::string name = p.value("name", "");
    sampler_->watch_process(p.value("pid", 0), server_role(name), name, false, stack);
  }
  // Sampling starts with the first stack's app, so its first sample has the app's rows.
  if (!started_) {
    started_ = true;
    sampler_->start();
  }
}

std::unique_ptr<SessionResources> SessionResources::start_agent(const std::string& dir, double interval_s,
                                                                const Adapter& adapter, pid_t app_pid,
                                                                const std::string& app_name) {
  std::unique_ptr<SessionResources> r = start_shared(dir, interval_s, true, resources::role::kAgent);
  r->watch_stack(adapter, app_pid, app_name, "");
  return r;
}

SessionResources::~SessionResources() { stop(); }

// Where one stack's client↔server bytes are counted: the relay's counters, the RFB client
// socket's tcp_info, or the relay in front of the adapter's own client (a stock viewer, the stream
// client); nullopt when nothing counts them.
std::optional<resources::NetworkSource> SessionResources::network_of(const net::TcpRelay* relay,
                                                                     const client::RemoteClient* client,
                                                                     const std::string& stack) const {
  if (relay)
    return resources::NetworkSource{"relay (bytes the relay delivered each way)",
                                    [relay]() -> std::optional<resources::NetworkCounts> {
                                      return resources::NetworkCounts{relay->bytes_up(), relay->bytes_down()};
                                    }};
  if (client)
    return resources::NetworkSource{"tcp_info (the client socket: bytes acknowledged up, received down)",
                                    [client]() -> std::optional<resources::NetworkCounts> {
                                      const auto b = client->socket_bytes();
                                      if (!b) return std::nullopt;
                                      return resources::NetworkCounts{b->first, b->second};
                                    }};
  if (const auto it = own_clients_.find(stack); it != own_clients_.end()) return it->second.network;
  return std::nullopt;
}

// Why a session has no network figures: the adapter's own client on a direct connection, or no
// RFB client at all.
std::string SessionResources::no_network_reason(const std::vector<std::string>& stacks) const {
  for (const std::string& stack : stacks)
    if (const auto it = own_clients_.find(stack); it != own_clients_.end())
      return fmt::format("unavailable: the {} adapter's client connects to the server directly: no byte counter on "
                         "that path; add --net (relay backend) to route it through Pictor's relay",
                         it->second.adapter);
  return "unavailable: no RFB client ran in this session (no --driver, or it failed to connect)";
}

void SessionResources::watch_network(const net::TcpRelay* relay, const client::RemoteClient* client) {
  if (!sampler_ || !remote_) return;
  if (relay && relay->thread_id() > 0) sampler_->watch_thread(::getpid(), relay->thread_id(), resources::role::kRelay, "relay");
  if (auto source = network_of(relay, client, "")) sampler_->set_network(std::move(*source));
  else sampler_->set_network_unavailable(no_network_reason({""}));
}

void SessionResources::watch_agent_relays(const std::vector<const net::TcpRelay*>& relays) {
  if (!sampler_) return;
  for (const net::TcpRelay* r : relays) {
    // A started relay's thread id is known (TcpRelay::start waits for it).
    if (r->thread_id() > 0) sampler_->watch_thread(::getpid(), r->thread_id(), resources::role::kRelay, "relay");
  }
  if (relays.empty()) {
    sampler_->set_network_unavailable("unavailable: the agent exposed no port to the client host");
    return;
  }
  sampler_->set_network({fmt::format("relay{} in front of the proxy on the render host (bytes delivered each way, the "
                                     "client host's traffic)",
                                     relays.size() > 1 ? "s" : ""),
                         [relays]() -> std::optional<resources::NetworkCounts> {
                           resources::NetworkCounts sum;
                           for (const net::TcpRelay* r : relays) {
                             sum.up += r->bytes_up();
                             sum.down += r->bytes_down();
                           }
                           return sum;
                         }});
}

void SessionResources::watch_networks(const std::vector<StackNetwork>& stacks) {
  if (!sampler_ || !remote_) return;
  std::vector<std::pair<std::string, resources::NetworkSource>> counted;
  std::vector<std::string> names;
  std::string kinds;
  for (const StackNetwork& n : stacks) {
    names.push_back(n.stack);
    if (n.relay && n.relay->thread_id() > 0)
      sampler_->watch_thread(::getpid(), n.relay->thread_id(), resources::role::kRelay, "relay", n.stack);
    auto source = network_of(n.relay, n.client, n.stack);
    if (!source) continue;
    // "relay", "tcp_info" or "relays": each kind named once.
    const std::string kind = source->what.substr(0, source->what.find(' '));
    if (kinds.find(kind) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + kind;
    counted.emplace_back(n.stack, std::move(*source));
  }
  if (counted.empty()) {
    sampler_->set_network_unavailable(no_network_reason(names));
    return;
  }
  std::vector<resources::NetworkSource> sources;
  for (const auto& c : counted) sources.push_back(c.second);
  sampler_->set_network({fmt::format("{} of {} stacks together ({})", counted.size(), stacks.size(), kinds),
                         [sources]() -> std::optional<resources::NetworkCounts> {
                           resources::NetworkCounts sum;
                           for (const resources::NetworkSource& src : sources)
                             if (const auto b = src.read()) {
                               sum.up += b->up;
                               sum.down += b->down;
                             }
                           return sum;
                         }});
  // And each stack's own bytes, so each member's summary has its own network figure.
  for (auto& [stack, source] : counted) sampler_->add_stack_network(stack, std::move(source));
}

void SessionResources::stop() {
  if (stopped_ || !sampler_) return;
  stopped_ = true;
  stats_ = sampler_->stop();
}

nlohmann::json SessionResources::block_for(const std::string* stack) {
  stop();
  if (!failure_.empty()) return {{"unavailable", "unavailable: " + failure_}};
  nlohmann::json block;
  try {
    if (!series_) series_ = resources::load_resources(dir_);
    if (!series_) return {{"unavailable", "no resources.csv"}};
    block = stack ? resources::summarize_resources(resources::stack_series(
                        *series_, *stack, "unavailable: the stacks' network is counted together in the run's summary.json "
                                          "(each stack's relay bytes are in its run.json net)"))
                  : resources::summarize_resources(*series_);
  } catch (const std::exception& e) {
    return {{"unavailable", std::string("unavailable: cannot read resources.csv: ") + e.what()}};
  }
  if (!stats_.notes.empty()) block["write_notes"] = stats_.notes;
  return block;
}

nlohmann::json SessionResources::block() { return block_for(nullptr); }

void SessionResources::add_to(nlohmann::json& summary, nlohmann::json& run, SessionWrites& writes) {
  if (!failure_.empty()) writes.failed("resources.csv", error_);
  const nlohmann::json b = block_for(nullptr);
  if (summary.is_object()) {
    summary["resources"] = b;
    writes.json("summary.json", summary);
  } else {
    run["resources"] = b;
  }
}

void SessionResources::add_stack_to(const std::string& stack, nlohmann::json& summary, nlohmann::json& run,
                                    SessionWrites& writes) {
  const nlohmann::json b = block_for(&stack);
  if (summary.is_object()) {
    summary["resources"] = b;
    writes.json("summary.json", summary);
  } else {
    run["resources"] = b;
  }
}

}  // namespace pictor::runner
