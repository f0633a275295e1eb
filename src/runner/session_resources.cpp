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
  if (name == "x11vnc" || name == "pictor-stream-server") return resources::role::kProxy;
  return resources::role::kXServer;  // Xvfb
}

}  // namespace

void check_sample_interval(double interval_s) {
  if (!(interval_s >= resources::kMinSampleIntervalS && interval_s <= resources::kMaxSampleIntervalS))
    throw UsageError(fmt::format("--sample-interval must be between {} and {} (got {:g} s)",
                                 format_duration(resources::kMinSampleIntervalS),
                                 format_duration(resources::kMaxSampleIntervalS), interval_s));
}

std::unique_ptr<SessionResources> SessionResources::start(const std::string& dir, double interval_s,
                                                          const Adapter& adapter, pid_t app_pid,
                                                          const std::string& app_name) {
  std::unique_ptr<SessionResources> r(new SessionResources());
  r->dir_ = dir;
  r->remote_ = adapter.rfb().has_value();
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
  resources::ResourceSampler& s = *r->sampler_;
  s.watch_process(app_pid, resources::role::kApp, app_name, /*descendants=*/true);
  for (const nlohmann::json& p : adapter.running_processes()) {
    const std::string name = p.value("name", "");
    s.watch_process(p.value("pid", 0), server_role(name), name);
  }
  s.watch_process(::getpid(), resources::role::kClient, "pictor");
  if (!r->remote_)
    s.set_network_unavailable("unavailable: the local adapter has no network (the client reads the X display)");
  s.start();
  return r;
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

void SessionResources::add_to(nlohmann::json& summary, nlohmann::json& run, SessionWrites& writes) {
  stop();
  nlohmann::json block;
  if (!failure_.empty()) {
    writes.failed("resources.csv", error_);
    block = {{"unavailable", "unavailable: " + failure_}};
  } else {
    try {
      const auto series = resources::load_resources(dir_);
      block = series ? resources::summarize_resources(*series) : nlohmann::json{{"unavailable", "no resources.csv"}};
    } catch (const std::exception& e) {
      block = {{"unavailable", std::string("unavailable: cannot read resources.csv: ") + e.what()}};
    }
    if (!stats_.notes.empty()) block["write_notes"] = stats_.notes;
  }
  if (summary.is_object()) {
    summary["resources"] = block;
    writes.json("summary.json", summary);
  } else {
    run["resources"] = block;
  }
}

}  // namespace pictor::runner
