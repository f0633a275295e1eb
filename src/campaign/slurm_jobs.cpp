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

// A two-host cell: one heterogeneous job, component 0 the render host (pictor serve), component 1
// the client host (pictor run --server), so scancel, the time limit and a node failure end both.
std::string two_host_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, a two-host cell: a heterogeneous job written by pictor\n"
                   "# campaign run (component 0: pictor serve on the render host; 1: pictor run --server on the client host).\n",
                   a.cell, a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  const auto component = [&](const SlurmComponent& c) {
    option("--nodes=1");
    option("--ntasks=1");
    if (const std::string& p = c.partition.empty() ? plan.partition : c.partition; !p.empty()) option("--partition=" + p);
    if (const std::string& f = c.constraint.empty() ? plan.constraint : c.constraint; !f.empty()) option("--constraint=" + f);
    if (plan.cpus_per_task > 0) option(fmt::format("--cpus-per-task={}", plan.cpus_per_task));
    if (!plan.mem.empty()) option("--mem=" + plan.mem);
  };
  // The job's own options go with its first component.
  option("--job-name=" + a.job_name);
  option("--output=" + a.log_path);
  if (!plan.time_limit.empty()) option("--time=" + plan.time_limit);
  if (!plan.account.empty()) option("--account=" + plan.account);
  for (const std::string& extra : plan.extra) option(extra);
  option("--no-requeue");
  component(plan.server);
  option("hetjob");
  component(plan.client);
  // The agent's address: component 0's node, as an IPv4 address (pictor serve --listen takes one).
  s += "token=" + shell_quote(a.token_path) + "\n";
  s += "port=$((20000 + SLURM_JOB_ID % 20000))\n";
  s += "server=$(scontrol show hostnames \"$SLURM_JOB_NODELIST_HET_GROUP_0\" | head -n 1)\n";
  s += "addr=$(getent ahostsv4 \"$server\" | awk 'NR == 1 { print $1 }')\n";
  s += "start=$(date +%s.%N)\n";
  // The address is the shell's ("$addr:$port"); every other word is quoted.
  const auto with_address = [](const std::vector<std::string>& argv, std::size_t at) {
    std::string out;
    for (std::size_t i = 0; i < argv.size(); ++i) out += (i ? " " : "") + (i == at ? std::string("\"$addr:$port\"") : shell_quote(argv[i]));
    return out;
  };
  const std::string serve_words = with_address(serve_argv(a, "ADDR"), 3);
  s += "srun --het-group=0 --output=" + shell_quote(a.serve_log_path) + " " + serve_words + " &\n";
  s += "serve=$!\n";
  // pictor run connects once: wait (at most 20 s) until the agent says it listens, or has ended.
  s += "i=0\n";
  s += "until grep -q \"listening on $addr:$port;\" " + shell_quote(a.serve_log_path) +
       " 2>/dev/null || ! kill -0 $serve 2>/dev/null || [ $i -ge 200 ]; do i=$((i + 1)); sleep 0.1; done\n";
  const std::string client_words = with_address(client_argv(a, "ADDR"), 3);
  s += "srun --het-group=1 " + client_words + "\n";
  s += "status=$?\n";
  s += "kill $serve 2>/dev/null\n";
  s += "wait $serve\n";
  s += "echo \"$status $start $(date +%s.%N)\" > " + shell_quote(exit_path) + "\n";
  s += "exit $status\n";
  return s;
}

}  // namespace

std::string batch_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  if (a.two_hosts) return two_host_script(a, plan, exit_path);
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, written by pictor campaign run; sbatch runs it.\n", a.cell,
                   a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  option("--job-name=" + a.job_name);
  option("--output=" + a.log_path);
  option("--nodes=1");
  option("--ntasks=1");
  if (!plan.partition.empty()) option("--partition=" + plan.partition);
  if (!plan.constraint.empty()) option("--constraint=" + plan.constraint);
  if (!plan.time_limit.empty()) option("--time=" + plan.time_limit);
  if (plan.cpus_per_task > 0) option(fmt::format("--cpus-per-task={}", plan.cpus_per_task));
  if (!plan.mem.empty()) option("--mem=" + plan.mem);
  if (!plan.account.empty()) option("--account=" + plan.account);
  for (const std::string& extra : plan.extra) option(extra);
  option("--no-requeue");
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
