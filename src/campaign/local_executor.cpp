// The local executor: each attempt a child `pictor run` of this machine, one at a time. A two-host
// attempt is its two halves on this machine: `pictor serve` on a free loopback port, then `pictor
// run --server` against it; the agent is stopped by PID when the run ends or is stopped.
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <optional>
#include <thread>

#include "campaign/executor.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "runner/adapter.h"
#include "runner/process.h"

namespace pictor::campaign {

namespace {

// How long the agent may take to listen before the attempt fails.
constexpr double kServeStartS = 20.0;

// The last non-empty line of a log, for a one-line cause.
std::string last_line(const std::string& path) {
  std::string text;
  try {
    text = files::read_file(path);
  } catch (const std::exception&) {
    return "";
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
}

// `pictor serve` for one attempt, listening on 127.0.0.1 once this returns. Throws RunError (the
// agent stopped) when it exits or does not listen in time.
runner::Process start_agent(const AttemptSpec& a, std::string& listen) {
  listen = fmt::format("127.0.0.1:{}", runner::pick_free_port());
  runner::SpawnOptions o;
  o.argv = serve_argv(a, listen);
  o.stdout_path = a.serve_log_path;
  o.stderr_path = a.serve_log_path;
  o.name = "pictor serve";
  runner::Process agent = runner::Process::spawn(o);
  const std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(kServeStartS * 1e9);
  for (;;) {
    std::string log;
    try {
      log = files::read_file(a.serve_log_path);
    } catch (const std::exception&) {
    }
    if (log.find("listening on " + listen + ";") != std::string::npos) return agent;
    if (const std::optional<runner::ExitStatus> s = agent.wait_for(0)) {
      const std::string cause = last_line(a.serve_log_path);
      throw RunError(fmt::format("pictor serve {} before it listened{}", s->describe(), cause.empty() ? "" : ": " + cause));
    }
    if (monotonic_ns() > deadline) {
      agent.stop(5.0);
      throw RunError(fmt::format("pictor serve did not listen on {} in {:g} s (see {})", listen, kServeStartS, a.serve_log_path));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

class LocalExecutor final : public Executor {
 public:
  std::size_t slots() const override { return 1; }
  double poll_interval_s() const override { return 0.1; }

  std::string start(const AttemptSpec& a) override {
    const std::int64_t start_ns = monotonic_ns();
    std::optional<runner::Process> agent;
    std::vector<std::string> argv = a.argv;
    if (a.two_hosts) {
      std::string listen;
      agent.emplace(start_agent(a, listen));
      argv = client_argv(a, listen);
    }
    runner::SpawnOptions o;
    o.argv = argv;
    o.stdout_path = a.log_path;
    o.stderr_path = a.log_path;
    o.name = "pictor run";
    // A run that cannot start: the agent's Process stops it as it goes out of scope.
    running_.emplace(a.cell, Running{runner::Process::spawn(o), std::move(agent), start_ns});
    return "";
  }

  std::vector<AttemptEnd> poll() override {
    std::vector<AttemptEnd> ended;
    for (auto it = running_.begin(); it != running_.end();) {
      const std::optional<runner::ExitStatus> s = it->second.process.wait_for(0);
      if (!s) {
        ++it;
        continue;
      }
      AttemptEnd e;
      e.cell = it->first;
      // The agent has nothing left to serve once its one client ended (--max-sessions 1 ends it
      // by itself; a run that never reached it leaves it listening): stopped by its PID.
      if (it->second.agent) it->second.agent->stop(10.0);
      e.wall_s = static_cast<double>(monotonic_ns() - it->second.start_ns) * 1e-9;
      if (s->exited) e.exit_status = s->code;
      else e.note = "pictor run " + s->describe();
      ended.push_back(e);
      it = running_.erase(it);
    }
    return ended;
  }

  void cancel_all() override {
    // SIGTERM: pictor run tears its session down and keeps what it recorded (docs/faults.md); the
    // agent after it, so that the run's last files still arrive.
    for (auto& [cell, r] : running_) {
      r.process.stop(10.0);
      if (r.agent) r.agent->stop(10.0);
    }
    running_.clear();
  }

 private:
  struct Running {
    runner::Process process;
    std::optional<runner::Process> agent;  // a two-host attempt's pictor serve
    std::int64_t start_ns = 0;
  };
  std::map<int, Running> running_;
};

}  // namespace

std::unique_ptr<Executor> make_local_executor() { return std::make_unique<LocalExecutor>(); }

}  // namespace pictor::campaign
