#include "runner/session_resources.h"

#include <unistd.h>

#include <fmt/format.h>

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

std::unique_ptr<SessionResources> SessionResources::start_shared(const std::string& dir, double interval_s, bool remote) {
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
  r->sampler_->watch_process(::getpid(), resources::role::kClient, "pictor");
  if (!remote)
    r->sampler_->set_network_unavailable("unavailable: the local adapter has no network (the client reads the X display)");
  return r;
}

std::unique_ptr<SessionResources> SessionResources::start(const std::string& dir, double interval_s,
                                                          const Adapter& adapter, pid_t app_pid,
                                                          const std::string& app_name,
                                                          const std::vector<nlohmann::json>& helpers) {
  std::unique_ptr<SessionResources> r = start_shared(dir, interval_s, adapter.rfb().has_value());
  r->watch_stack(adapter, app_pid, app_name, "", helpers);
  return r;
}

void SessionResources::watch_stack(const Adapter& adapter, pid_t app_pid, const std::string& app_name,
                                   const std::string& stack, const std::vector<nlohmann::json>& helpers) {
  if (!sampler_) return;
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

void SessionResources::watch_networks(const std::vector<StackNetwork>& stacks) {
  if (!sampler_ || !remote_) return;
  std::vector<StackNetwork> counted;
  bool relays = false;
  for (const StackNetwork& n : stacks) {
    if (n.relay && n.relay->thread_id() > 0)
      sampler_->watch_thread(::getpid(), n.relay->thread_id(), resources::role::kRelay, "relay", n.stack);
    if (n.relay || n.client) counted.push_back(n);
    relays = relays || n.relay;
  }
  if (counted.empty()) {
    sampler_->set_network_unavailable("unavailable: no RFB client ran in this session (no --driver, or it failed to connect)");
    return;
  }
  sampler_->set_network({fmt::format("{} of {} stacks together ({})", counted.size(), stacks.size(),
                                     relays ? "relay counters, else client socket tcp_info" : "client sockets' tcp_info"),
                         [counted]() -> std::optional<resources::NetworkCounts> {
                           resources::NetworkCounts sum;
                           for (const StackNetwork& n : counted) {
                             if (n.relay) {
                               sum.up += n.relay->bytes_up();
                               sum.down += n.relay->bytes_down();
                             } else if (const auto b = n.client->socket_bytes()) {
                               sum.up += b->first;
                               sum.down += b->second;
                             }
                           }
                           return sum;
                         }});
  // And each stack's own bytes, so each member's summary has its own network figure.
  for (const StackNetwork& n : counted) {
    if (n.relay) {
      const net::TcpRelay* relay = n.relay;
      sampler_->add_stack_network(n.stack, {"relay (bytes the relay delivered each way)", [relay]() -> std::optional<resources::NetworkCounts> {
                                              return resources::NetworkCounts{relay->bytes_up(), relay->bytes_down()};
                                            }});
    } else {
      const client::RemoteClient* client = n.client;
      sampler_->add_stack_network(n.stack, {"tcp_info (the client socket: bytes acknowledged up, received down)",
                                            [client]() -> std::optional<resources::NetworkCounts> {
                                              const auto b = client->socket_bytes();
                                              if (!b) return std::nullopt;
                                              return resources::NetworkCounts{b->first, b->second};
                                            }});
    }
  }
}

SessionResources::~SessionResources() { stop(); }

void SessionResources::watch_network(const net::TcpRelay* relay, const client::RemoteClient* client) {
  if (!sampler_ || !remote_) return;
  if (relay) {
    if (relay->thread_id() > 0) sampler_->watch_thread(::getpid(), relay->thread_id(), resources::role::kRelay, "relay");
    sampler_->set_network({"relay (bytes the relay delivered each way)", [relay]() -> std::optional<resources::NetworkCounts> {
                             return resources::NetworkCounts{relay->bytes_up(), relay->bytes_down()};
                           }});
  } else if (client) {
    sampler_->set_network({"tcp_info (the client socket: bytes acknowledged up, received down)",
                           [client]() -> std::optional<resources::NetworkCounts> {
                             const auto b = client->socket_bytes();
                             if (!b) return std::nullopt;
                             return resources::NetworkCounts{b->first, b->second};
                           }});
  } else {
    sampler_->set_network_unavailable("unavailable: no RFB client ran in this session (no --driver, or it failed to connect)");
  }
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
