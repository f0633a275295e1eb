// The text Pictor exchanges with Slurm, pure: the batch script of one attempt, and what
// `scontrol show job -o`, `sacct -P` and the script's exit file say about a job.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "campaign/executor.h"
#include "campaign/plan.h"

namespace pictor::campaign {

// A job as Slurm reports it: its state word and, once ended, the exit code and signal of the
// batch script ("ExitCode=1:0", sacct's "1:0").
struct JobInfo {
  std::string state;                  // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, NODE_FAIL, …
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string reason;                 // scontrol's Reason= (NonZeroExitCode, NodeDown, …)
};

// True for the states a job does not leave (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL,
// PREEMPTED, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE); every other state may still change.
bool is_final_state(const std::string& state);

// `scontrol show job -o` (all jobs, one line each): job id → info. "No jobs in the system" → {}.
std::map<std::string, JobInfo> parse_scontrol_jobs(const std::string& text);
// `sacct -n -X -P -o JobID,State,ExitCode -j ID`: the first line's job, or nullopt. sacct writes
// "CANCELLED by 0": the state is the first word.
std::optional<JobInfo> parse_sacct_line(const std::string& text);

// The exit file the batch script writes when pictor run returns: "STATUS START END" (exit status,
// wall-clock seconds since the epoch with fractions). nullopt when it is not that.
struct ExitRecord {
  int exit_status = 0;
  double wall_s = 0;
};
std::optional<ExitRecord> parse_exit_record(const std::string& text);

// The batch script of one attempt: #SBATCH lines from the plan (job name, output, nodes, ntasks,
// partition, constraint, time, cpus-per-task, mem, account, the extra options, --no-requeue so that
// every retry is Pictor's and recorded), then pictor run's command line, then the exit file. A
// two-host attempt: one job of two tasks (on two nodes, or one with share_node) whose first step
// runs pictor serve in the background and second pictor run --server against it; or, when the plan
// places the halves apart (server: / client:), a heterogeneous job, component 0 the agent and 1
// the client. Either way the agent is killed before the exit file is written.
std::string batch_script(const AttemptSpec& attempt, const SlurmPlan& plan, const std::string& exit_path);

// A word as /bin/sh reads it back: itself when plain, else in single quotes.
std::string shell_quote(const std::string& word);

}  // namespace pictor::campaign
