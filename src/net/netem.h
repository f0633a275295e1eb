// The alternative network emulation: the kernel's netem qdisc on the loopback device, applied to
// one TCP port's traffic in each direction (needs sch_netem and CAP_NET_ADMIN; the relay does not).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/spec.h"

namespace pictor::net {

// The tc commands that put `spec` on the traffic to and from `port` on `device`: a prio root
// qdisc whose default band is left untouched, and one netem band per direction (client → server
// matched by destination port, server → client by source port), so each direction is delayed,
// jittered, dropped and rate-limited on its own, like the relay. Each command is an argv.
struct NetemPlan {
  std::vector<std::vector<std::string>> setup;
  std::vector<std::string> teardown;
};
NetemPlan netem_plan(const NetSpec& spec, std::uint16_t port, const std::string& device = "lo");

// The netem arguments of one direction ("delay 20000us 5000us loss 0.5% rate 50000000bit").
std::vector<std::string> netem_arguments(const NetSpec& spec);

// Why netem cannot be used here, tried in a throw-away user and network namespace (nothing on
// this machine is touched); nullopt when it can. For tests and for a helpful message.
std::optional<std::string> netem_unavailable();

// netem applied for the lifetime of this object, removed by the destructor. apply() refuses a
// device that already has a root qdisc of its own (Pictor never replaces someone's shaping) and
// throws RunError with tc's own words when the kernel or the permissions say no, leaving nothing
// behind.
class NetemLink {
 public:
  static std::unique_ptr<NetemLink> apply(const NetSpec& spec, std::uint16_t port, const std::string& device = "lo");
  ~NetemLink();
  NetemLink(const NetemLink&) = delete;
  NetemLink& operator=(const NetemLink&) = delete;

  // The commands that were run, as shell text, for run.json.
  const std::vector<std::string>& commands() const { return commands_; }

 private:
  NetemLink() = default;
  std::vector<std::string> teardown_;
  bool added_root_ = false;
  std::vector<std::string> commands_;
};

}  // namespace pictor::net
