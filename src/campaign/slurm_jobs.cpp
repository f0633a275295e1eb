#include "campaign/slurm_jobs.h"

#include <fmt/format.h>

#include <cstdlib>
#include <set>
#include <sstream>

namespace pictor::campaign {

namespace {

// "1:0" → (1, 0); nullopt pieces when not numbers.
void read_exit_pair(const std::string& text, JobInfo& j) {
  const auto colon = text.find(':');
  const auto number = [](const std::string& t) -> std::optional<int> {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 9) return std::nullopt;
    return std::stoi(t);
  };
  j.exit_code = number(text.substr(0, colon));
  if (colon != std::string::npos) j.signal = number(text.substr(colon + 1));
}

}  // namespace

bool is_final_state(const std::string& state) {
  static const std::set<std::string> kFinal{"COMPLETED", "FAILED",        "CANCELLED", "TIMEOUT", "NODE_FAIL",
                                            "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE"};
  return kFinal.count(state) > 0;
}

std::map<std::string, JobInfo> parse_scontrol_jobs(const std::string& text) {
  std::map<std::string, JobInfo> jobs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word, id;
    JobInfo j;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      if (key == "JobId") id = value;
      else if (key == "JobState") j.state = value;
      else if (key == "ExitCode") read_exit_pair(value, j);
      else if (key == "Reason") j.reason = value;
    }
    if (!id.empty() && !j.state.empty()) jobs[id] = j;
  }
  return jobs;
}

std::optional<JobInfo> parse_sacct_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  const auto a = line.find('|');
  if (a == std::string::npos) return std::nullopt;
  const auto b = line.find('|', a + 1);
  if (b == std::string::npos) return std::nullopt;
  JobInfo j;
  const std::string state = line.substr(a + 1, b - a - 1);
  j.state = state.substr(0, state.find(' '));
  if (j.state.empty()) return std::nullopt;
  read_exit_pair(line.substr(b + 1, line.find('|', b + 1) - b - 1), j);
  return j;
}

std::optional<ExitRecord> parse_exit_record(const std::string& text) {
  std::istringstream in(text);
  long long status = 0;
  double start = 0, end = 0;
  if (!(in >> status >> start >> end) || status < 0 || status > 255 || !(end >= start)) return std::nullopt;
  return ExitRecord{static_cast<int>(status), end - start};
}

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+%@") ==
                           std::string::npos)
    return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

std::string words(const std::vector<std::string>& argv) {
  std::string command;
  for (const std::string& w : argv) command += (command.empty() ? "" : " ") + shell_quote(w);
  return command;
}

// The lines both forms of a two-host job share after their #SBATCH lines: the agent's address, the
// agent started in the background as one job step (`serve_step`: srun's options), pictor run
// waiting for it to listen, then pictor run as the other step (`client_step`), the agent killed
// before the exit file is written. `nodelist`: the variable naming the render host's nodes.
std::string two_host_steps(const AttemptSpec& a, const std::string& nodelist, const std::string& serve_step,
                           const std::string& client_step, const std::string& exit_path) {
  std::string s;
  // The agent's address: the render host's node, as an IPv4 address (pictor serve --listen takes one).
  s += "token=" + shell_quote(a.token_path) + "\n";
  s += "port=$((20000 + SLURM_JOB_ID % 20000))\n";
  s += "server=$(scontrol show hostnames \"$" + nodelist + "\" | head -n 1)\n";
  s += "addr=$(getent ahostsv4 \"$server\" | awk 'NR == 1 { print $1 }')\n";
  s += "start=$(date +%s.%N)\n";
  // The address is the shell's ("$addr:$port"); every other word is quoted.
  const auto with_address = [](const std::vector<std::string>& argv, std::size_t at) {
    std::string out;
    for (std::size_t i = 0; i < argv.size(); ++i) out += (i ? " " : "") + (i == at ? std::string("\"$addr:$port\"") : shell_quote(argv[i]));
    return out;
  };
  s += "srun " + serve_step + " --output=" + shell_quote(a.serve_log_path) + " " + with_address(serve_argv(a, "ADDR"), 3) + " &\n";
  s += "serve=$!\n";
  // pictor run connects once: wait (at most 20 s) until the agent says it listens, or has ended.
  s += "i=0\n";
  s += "until grep -q \"listening on $addr:$port;\" " + shell_quote(a.serve_log_path) +
       " 2>/dev/null || ! kill -0 $serve 2>/dev/null || [ $i -ge 200 ]; do i=$((i + 1)); sleep 0.1; done\n";
  s += "srun " + client_step + " " + with_address(client_argv(a, "ADDR"), 3) + "\n";
  s += "status=$?\n";
  s += "kill $serve 2>/dev/null\n";
  s += "wait $serve\n";
  s += "echo \"$status $start $(date +%s.%N)\" > " + shell_quote(exit_path) + "\n";
  s += "exit $status\n";
  return s;
}

// The job's own options, the same in every form.
void job_options(std::string& s, const AttemptSpec& a, const SlurmPlan& plan) {
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  option("--job-name=" + a.job_name);
  option("--output=" + a.log_path);
  if (!plan.time_limit.empty()) option("--time=" + plan.time_limit);
  if (!plan.account.empty()) option("--account=" + plan.account);
  for (const std::string& extra : plan.extra) option(extra);
  option("--no-requeue");
}

// Where the job's tasks run and what each is given: the plan's partition, constraint, CPUs per
// task and memory; a heterogeneous job's component (`half`) overrides the partition and constraint.
void placement(std::string& s, const SlurmPlan& plan, const SlurmComponent& half = {}) {
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  if (const std::string& p = half.partition.empty() ? plan.partition : half.partition; !p.empty()) option("--partition=" + p);
  if (const std::string& f = half.constraint.empty() ? plan.constraint : half.constraint; !f.empty()) option("--constraint=" + f);
  if (plan.cpus_per_task > 0) option(fmt::format("--cpus-per-task={}", plan.cpus_per_task));
  if (!plan.mem.empty()) option("--mem=" + plan.mem);
}

// A two-host cell whose halves are placed alike: one job of two tasks, one node each (or one node
// for both with share_node), and each half a job step of one task. scancel, the time limit and a
// node failure end both at once.
std::string two_step_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, a two-host cell written by pictor campaign run: one job,\n"
                   "# two steps (pictor serve on the render host, then pictor run --server on the client host).\n",
                   a.cell, a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  job_options(s, a, plan);
  option(plan.share_node ? "--nodes=1" : "--nodes=2");
  option("--ntasks=2");
  if (!plan.share_node) option("--ntasks-per-node=1");
  placement(s, plan);
  // On one node the two steps share the job's CPUs and memory (--overlap), as the two halves of a
  // one-host session do; on two, the step of relative node 0 is the render host, 1 the client's.
  const std::string serve_step = plan.share_node ? "--nodes=1 --ntasks=1 --overlap" : "--nodes=1 --ntasks=1 --relative=0";
  const std::string client_step = plan.share_node ? "--nodes=1 --ntasks=1 --overlap" : "--nodes=1 --ntasks=1 --relative=1";
  return s + two_host_steps(a, "SLURM_JOB_NODELIST", serve_step, client_step, exit_path);
}

// A two-host cell whose halves are placed apart (slurm server: / client:): one heterogeneous job,
// component 0 the render host (pictor serve), component 1 the client host (pictor run --server).
std::string heterogeneous_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, a two-host cell: a heterogeneous job written by pictor\n"
                   "# campaign run (component 0: pictor serve on the render host; 1: pictor run --server on the client host).\n",
                   a.cell, a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  const auto component = [&](const SlurmComponent& c) {
    option("--nodes=1");
    option("--ntasks=1");
    placement(s, plan, c);
  };
  // The job's own options go with its first component.
  job_options(s, a, plan);
  component(plan.server);
  option("hetjob");
  component(plan.client);
  return s + two_host_steps(a, "SLURM_JOB_NODELIST_HET_GROUP_0", "--het-group=0", "--het-group=1", exit_path);
}

}  // namespace

std::string batch_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  if (a.two_hosts) return plan.has_components() ? heterogeneous_script(a, plan, exit_path) : two_step_script(a, plan, exit_path);
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, written by pictor campaign run; sbatch runs it.\n", a.cell,
                   a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  job_options(s, a, plan);
  option("--nodes=1");
  option("--ntasks=1");
  placement(s, plan);
  // The session runs in the foreground of the script: scancel's SIGTERM reaches pictor run, which
  // tears its session down and keeps what it recorded. The exit file is written only when pictor
  // run returned, so an attempt without one was ended from outside.
  s += "start=$(date +%s.%N)\n";
  s += words(a.argv) + "\n";
  s += "status=$?\n";
  s += "echo \"$status $start $(date +%s.%N)\" > " + shell_quote(exit_path) + "\n";
  s += "exit $status\n";
  return s;
}

}  // namespace pictor::campaign
