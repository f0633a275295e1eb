// Where a campaign's sessions run: one after another on this machine (local), or each as a job of
// a real Slurm cluster (slurm: sbatch, followed with squeue/scontrol/sacct). The campaign loop
// (campaign.h) starts attempts, polls for their ends and decides about retries; an executor only
// runs an attempt and says how it ended.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "campaign/plan.h"

namespace pictor::campaign {

// One attempt of one cell: the `pictor run` command line and where its files go.
struct AttemptSpec {
  int cell = 0;
  int attempt = 1;
  std::string job_name;                // "pictor-demo-003"
  std::vector<std::string> argv;       // the real pictor binary first, absolute paths throughout
  std::string cell_dir;                // DIR/cells/003-…/ (absolute)
  std::string session_dir;             // cell_dir/attempt-K
  std::string log_path;                // cell_dir/attempt-K.log: pictor run's stdout and stderr
  // A two-host cell (slurm nodes: 2): argv is pictor run's without --server, which the executor
  // adds with the agent's address; the agent, `pictor serve`, is given token_path (a fresh random
  // token, mode 0600) and writes serve_log_path, its sessions' files under serve_work_dir.
  bool two_hosts = false;
  std::string token_path;              // cell_dir/attempt-K.token
  std::string serve_log_path;          // cell_dir/attempt-K.serve.log
  std::string serve_work_dir;          // cell_dir/attempt-K.serve
};

// `pictor serve`'s command line for a two-host attempt, listening at `listen` ("127.0.0.1:PORT").
std::vector<std::string> serve_argv(const AttemptSpec& attempt, const std::string& listen);
// The attempt's pictor run with `--server SERVER --token-file TOKEN` after "run".
std::vector<std::string> client_argv(const AttemptSpec& attempt, const std::string& server);

struct AttemptEnd {
  int cell = 0;
  std::string scheduler_state;         // COMPLETED, FAILED, CANCELLED, NODE_FAIL, TIMEOUT, …; "" locally
  std::optional<int> exit_status;      // pictor run's, when known
  std::optional<double> wall_s;        // pictor run's wall time, when known
  std::string note;                    // what is known about an end without an exit status
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Attempts it runs at once (the local executor: 1; Slurm: as many as there are, its scheduler
  // decides when each runs).
  virtual std::size_t slots() const = 0;
  // Starts the attempt; returns its job id ("" locally). Throws RunError when it cannot.
  virtual std::string start(const AttemptSpec& attempt) = 0;
  // The attempts that ended since the last call.
  virtual std::vector<AttemptEnd> poll() = 0;
  // Stops every attempt still running (the campaign was interrupted); they end as interrupted.
  virtual void cancel_all() = 0;
  virtual double poll_interval_s() const = 0;
};

std::unique_ptr<Executor> make_local_executor();
// Throws UsageError naming the missing program when sbatch, squeue or scontrol is not installed.
std::unique_ptr<Executor> make_slurm_executor(const SlurmPlan& plan, const std::string& campaign_name);

}  // namespace pictor::campaign
