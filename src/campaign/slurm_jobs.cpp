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

std::string batch_script(const AttemptSpec& a, const SlurmPlan& plan, const std::string& exit_path) {
  std::string s = "#!/bin/sh\n";
  s += fmt::format("# Cell {} attempt {} of a Pictor campaign, written by pictor campaign run; sbatch runs it.\n", a.cell,
                   a.attempt);
  const auto option = [&](const std::string& text) { s += "#SBATCH " + text + "\n"; };
  option("--job-name=" + a.job_name);
  option("--output=" + a.log_path);
  option(fmt::format("--nodes={}", plan.nodes));
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
  std::string command;
  for (const std::string& w : a.argv) command += (command.empty() ? "" : " ") + shell_quote(w);
  s += command + "\n";
  s += "status=$?\n";
  s += "echo \"$status $start $(date +%s.%N)\" > " + shell_quote(exit_path) + "\n";
  s += "exit $status\n";
  return s;
}

}  // namespace pictor::campaign
