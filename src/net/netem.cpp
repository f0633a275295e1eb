#include "net/netem.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "core/error.h"
#include "core/exec.h"

namespace pictor::net {
namespace {

// tc lives in /usr/sbin, which is not on every user's PATH.
std::optional<std::string> find_tool(const std::string& name) {
  return find_executable(name, {"/usr/sbin", "/sbin", "/usr/bin"});
}

CommandOutput run_tool(const std::vector<std::string>& argv) {
  CommandOutput r = run_and_capture(argv);
  // tc's messages can span lines; one line is what a user sees.
  for (auto& ch : r.output)
    if (ch == '\n') ch = ' ';
  return r;
}

std::string shell_text(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::string require_tc() {
  const auto tc = find_tool("tc");
  if (!tc) throw RunError("--net-backend netem: 'tc' (Debian package iproute2) is not installed");
  return *tc;
}

}  // namespace

std::vector<std::string> netem_arguments(const NetSpec& spec) {
  std::vector<std::string> a;
  const auto us = [](double s) { return fmt::format("{}us", std::llround(s * 1e6)); };
  if (spec.delay_s > 0 || spec.jitter_s > 0) {
    a.insert(a.end(), {"delay", us(spec.delay_s)});
    if (spec.jitter_s > 0) a.push_back(us(spec.jitter_s));
  }
  if (spec.loss > 0) a.insert(a.end(), {"loss", fmt::format("{:g}%", spec.loss * 100.0)});
  if (spec.rate_bits_s > 0) a.insert(a.end(), {"rate", fmt::format("{}bit", std::llround(spec.rate_bits_s))});
  return a;
}

NetemPlan netem_plan(const NetSpec& spec, std::uint16_t port, const std::string& device) {
  const std::string tc = "tc";
  NetemPlan plan;
  // Bands 1:1..1:3 keep ordinary traffic (priomap sends everything to 1:1 unless filtered); 1:4
  // carries client → server, 1:5 server → client.
  plan.setup.push_back({tc, "qdisc", "add", "dev", device, "root", "handle", "1:", "prio", "bands", "5", "priomap",
                        "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"});
  const auto args = netem_arguments(spec);
  for (const auto& [band, handle] : {std::pair{"1:4", "40:"}, std::pair{"1:5", "50:"}}) {
    std::vector<std::string> c{tc, "qdisc", "add", "dev", device, "parent", band, "handle", handle, "netem"};
    c.insert(c.end(), args.begin(), args.end());
    plan.setup.push_back(c);
  }
  const std::string p = std::to_string(port);
  plan.setup.push_back({tc, "filter", "add", "dev", device, "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                        "match", "ip", "dport", p, "0xffff", "flowid", "1:4"});
  plan.setup.push_back({tc, "filter", "add", "dev", device, "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                        "match", "ip", "sport", p, "0xffff", "flowid", "1:5"});
  plan.teardown = {tc, "qdisc", "del", "dev", device, "root"};
  return plan;
}

std::optional<std::string> netem_unavailable() {
  const auto unshare = find_tool("unshare");
  const auto tc = find_tool("tc");
  if (!tc) return "'tc' (iproute2) is not installed";
  if (!unshare) return "'unshare' is not installed, so netem cannot be probed";
  const auto r = run_tool({*unshare, "-rn", *tc, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"});
  if (r.exit_code == 0) return std::nullopt;
  return "tc could not add a netem qdisc (" + r.output + ")";
}

std::unique_ptr<NetemLink> NetemLink::apply(const NetSpec& spec, std::uint16_t port, const std::string& device) {
  const std::string tc = require_tc();
  const auto shown = run_tool({tc, "qdisc", "show", "dev", device});
  if (shown.exit_code != 0) throw RunError("--net-backend netem: " + shown.output);
  // A fresh device has noqueue (loopback) or the kernel's default; anything else is someone's.
  const auto root = shown.output.find(" root ");
  if (root != std::string::npos && shown.output.rfind("qdisc noqueue", 0) != 0 &&
      shown.output.rfind("qdisc pfifo_fast", 0) != 0 && shown.output.rfind("qdisc fq_codel", 0) != 0)
    throw RunError("--net-backend netem: " + device + " already has a root qdisc (" + shown.output +
                   "); remove it with 'tc qdisc del dev " + device + " root' if it is a leftover");

  auto link = std::unique_ptr<NetemLink>(new NetemLink());
  NetemPlan plan = netem_plan(spec, port, device);
  for (auto& c : plan.setup) c.front() = tc;
  plan.teardown.front() = tc;
  link->teardown_ = plan.teardown;
  for (const auto& c : plan.setup) {
    const auto r = run_tool(c);
    link->commands_.push_back(shell_text(c));
    // Only a root qdisc Pictor added is Pictor's to remove.
    if (&c == &plan.setup.front()) link->added_root_ = r.exit_code == 0;
    if (r.exit_code != 0) {
      const std::string why = r.output.empty() ? fmt::format("exit {}", r.exit_code) : r.output;
      // The destructor removes whatever part was added.
      link.reset();
      throw RunError("--net-backend netem: '" + shell_text(c) + "' failed: " + why +
                     " (netem needs the sch_netem kernel module and CAP_NET_ADMIN; the default relay backend needs neither)");
    }
  }
  return link;
}

NetemLink::~NetemLink() {
  // Removing the root qdisc removes the bands and filters with it.
  if (!added_root_) return;
  try {
    run_tool(teardown_);
  } catch (...) {
    // A destructor must not throw; a leftover is reported by the next apply().
  }
}

}  // namespace pictor::net
