// A stack (docs/architecture.md "The runner in phases"): one session's display server and proxy
// (the adapter), its network emulation (relay or netem), the app under the interposer and the
// client with its driver — started in that order as one unit, watched by the measurement loop,
// torn down in reverse order, each process's end recorded (who ended it, why). One session is
// one stack; `--instances N` and `pictor colocate` run several side by side.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/local_client.h"
#include "core/progress.h"
#include "runner/adapter.h"
#include "runner/process.h"
#include "runner/session_client.h"
#include "runner/session_plan.h"

namespace pictor::net {
class TcpRelay;
class NetemLink;
}  // namespace pictor::net

namespace pictor::runner {

// How the measurement of a stack ended: why Pictor stopped the app, or that it exited first (by
// itself, or after its display server died), and the server that died first.
struct StackEnd {
  bool ended = false;
  std::string stop_reason = "at the end of the session";
  bool app_exited_first = false;
  std::optional<ServerEnd> dead_server;
  std::vector<std::string> suspended_servers;
  bool app_suspended = false;
  std::int64_t end_ns = 0;
  double measured_s = 0;
  int interrupted_by = 0;  // the signal that ended it (SIGINT…), 0 when something else did
};

class Stack {
 public:
  // `name` is the stack's name in resources.csv's stack column ("" for a single session).
  Stack(SessionPlan plan, std::filesystem::path dir, std::string name);
  ~Stack();
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  // Starts the adapter, the network emulation, the app and then the client; `on_app` runs right
  // after the app is spawned (the resource sampler is given its processes there). Fills run()
  // with what is known while it runs. Throws what a failed start throws (UsageError, RunError):
  // call abort() then. A client that cannot start is no failed start: its failure is kept in
  // client_stats() and the app stays measured.
  void start(Progress& progress, const std::function<void(Stack&)>& on_app);

  // The measurement loop's checks, in its order (runner/measure.h): the app has exited (then the
  // server that died first, if one did, is its cause), a server died; each ends the stack and
  // returns false, as they do once it has ended.
  bool poll_app(std::int64_t now);
  bool poll_servers(std::int64_t now);
  // Near `deadline_s` (seconds from the stack's start) asks the client to finish its inputs;
  // notes once a client that stopped by itself.
  void drive(std::int64_t now, double deadline_s, Progress& progress);
  // Ends a stack that still runs, `reason` saying why ("after the duration"); `signal` when an
  // interruption ends it.
  void end(std::int64_t now, const std::string& reason, int signal = 0);
  // Seconds since the app started, at `now`.
  double seconds_at(std::int64_t now) const;

  // Teardown, reverse order of start: the client (it releases held keys while the app can still
  // read them), the app, the relay, netem, the adapter's servers. Fills run()'s processes.
  void stop();
  // After a failed start: stops what started and records run.json as "failed to start".
  void abort();

  const SessionPlan& plan() const { return plan_; }
  const std::filesystem::path& dir() const { return dir_; }
  const std::string& name() const { return name_; }
  nlohmann::json& run() { return run_; }
  const StackEnd& end_state() const { return end_; }
  const client::ClientStats& client_stats() const { return client_stats_; }
  const Adapter& adapter() const { return *adapter_; }
  pid_t app_pid() const;
  const Process& app() const { return *app_; }
  std::int64_t start_ns() const { return start_; }
  const net::TcpRelay* relay() const { return relay_.get(); }
  // The container engine's helper processes ({name, pid}); empty without --container.
  std::vector<nlohmann::json> container_processes() const;
  const Client* client() const { return client_.get(); }
  // run.json's `processes` after stop(): the servers', then the app's entry.
  const std::vector<nlohmann::json>& processes() const { return processes_; }

 private:
  SpawnOptions app_spawn() const;
  void start_client(const std::optional<RfbEndpoint>& served);
  void stop_client();
  void remove_container();  // after its processes are stopped: `podman rm -f`, in run.json

  SessionPlan plan_;
  std::filesystem::path dir_;
  std::string name_;
  nlohmann::json run_;
  std::unique_ptr<Container> container_;  // --container: holds the adapter's servers and the app
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<net::TcpRelay> relay_;
  std::unique_ptr<net::NetemLink> netem_;
  std::optional<Process> app_;
  std::unique_ptr<Client> client_;
  bool client_stopped_ = false;
  bool stopped_ = false;
  client::ClientStats client_stats_;
  StackEnd end_;
  std::int64_t start_ = 0;
  // --adapter display: the top-level windows the display had before the app started (a desktop's,
  // other apps'): none of them is the app's, whatever their size.
  std::vector<unsigned long> windows_before_app_;
  bool inputs_finished_ = false, client_ended_noted_ = false;
  std::vector<nlohmann::json> processes_;
};

}  // namespace pictor::runner
