// The Slurm executor: each attempt one batch job (sbatch --parsable), followed with
// `scontrol show job -o` while Slurm remembers the job, then `sacct` where accounting exists, then
// the script's exit file; cancelled with scancel.
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "campaign/executor.h"
#include "campaign/slurm_jobs.h"
#include "core/error.h"
#include "core/exec.h"
#include "core/files.h"

namespace pictor::campaign {

namespace {

namespace fs = std::filesystem;

std::string program(const char* name) {
  const std::optional<std::string> path = find_executable(name, {"/usr/bin", "/usr/local/bin"});
  if (!path)
    throw UsageError(fmt::format("--executor slurm: '{}' is not installed (Debian: slurm-client; a cluster's login node has it)", name));
  return *path;
}

struct Job {
  int cell = 0;
  std::string id;
  std::string exit_path;
  std::string last_state;
  int unknown_polls = 0;   // polls in which no source knew the job
};

// Polls in which no source knows a job before it counts as lost: Slurm forgets a job MinJobAge
// (300 s by default) after it ended, so a job unknown to scontrol and to sacct for this long
// without an exit file was never going to give one.
constexpr int kLostAfterPolls = 5;

class SlurmExecutor final : public Executor {
 public:
  SlurmExecutor(SlurmPlan plan, std::string campaign) : plan_(std::move(plan)), campaign_(std::move(campaign)) {
    sbatch_ = program("sbatch");
    scontrol_ = program("scontrol");
    scancel_ = program("scancel");
    if (auto p = find_executable("sacct", {"/usr/bin"})) sacct_ = *p;
  }

  std::size_t slots() const override { return static_cast<std::size_t>(-1); }
  double poll_interval_s() const override { return plan_.poll_s; }

  std::string start(const AttemptSpec& a) override {
    const std::string script_path = (fs::path(a.cell_dir) / fmt::format("attempt-{}.sbatch", a.attempt)).string();
    const std::string exit_path = (fs::path(a.cell_dir) / fmt::format("attempt-{}.exit", a.attempt)).string();
    files::write_file(script_path, batch_script(a, plan_, exit_path));
    const CommandOutput out = run_and_capture({sbatch_, "--parsable", script_path});
    // --parsable prints "ID" or "ID;CLUSTER".
    const std::string id = out.output.substr(0, out.output.find_first_of(";\n"));
    if (out.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789_") != std::string::npos)
      throw RunError(fmt::format("sbatch refused cell {}: {}", a.cell, out.output.empty() ? "no job id" : out.output));
    jobs_[id] = Job{a.cell, id, exit_path, "PENDING", 0};
    return id;
  }

  std::vector<AttemptEnd> poll() override {
    std::vector<AttemptEnd> ended;
    if (jobs_.empty()) return ended;
    const CommandOutput out = run_and_capture({scontrol_, "show", "job", "-o"});
    // A controller that does not answer is not a job's end: the next poll asks again.
    if (out.exit_code != 0 && out.output.find("No jobs") == std::string::npos) return ended;
    const std::map<std::string, JobInfo> known = parse_scontrol_jobs(out.output);
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      Job& job = it->second;
      std::optional<JobInfo> info;
      if (const auto k = known.find(job.id); k != known.end()) info = k->second;
      else info = from_sacct(job.id);
      if (info) {
        job.unknown_polls = 0;
        job.last_state = info->state;
      }
      const bool final = info && is_final_state(info->state);
      if (!final && (info || ++job.unknown_polls < kLostAfterPolls)) {
        ++it;
        continue;
      }
      ended.push_back(end_of(job, info));
      it = jobs_.erase(it);
    }
    return ended;
  }

  void cancel_all() override {
    if (jobs_.empty()) return;
    std::vector<std::string> argv{scancel_};
    for (const auto& [id, job] : jobs_) argv.push_back(id);
    run_and_capture(argv);
    jobs_.clear();
  }

 private:
  std::optional<JobInfo> from_sacct(const std::string& id) const {
    if (sacct_.empty()) return std::nullopt;
    // Without slurmdbd sacct says "accounting storage is disabled" and exits non-zero.
    const CommandOutput out = run_and_capture({sacct_, "-n", "-X", "-P", "-o", "JobID,State,ExitCode", "-j", id});
    if (out.exit_code != 0) return std::nullopt;
    return parse_sacct_line(out.output);
  }

  AttemptEnd end_of(const Job& job, const std::optional<JobInfo>& info) const {
    AttemptEnd e;
    e.cell = job.cell;
    e.scheduler_state = info ? info->state : "";
    std::optional<ExitRecord> record;
    try {
      if (fs::exists(job.exit_path)) record = parse_exit_record(files::read_file(job.exit_path));
    } catch (const std::exception&) {
      // Unreadable: as if absent.
    }
    if (record) {
      e.exit_status = record->exit_status;
      e.wall_s = record->wall_s;
    } else if (info && info->state == "COMPLETED" && info->exit_code) {
      // No shared file system back to this host: Slurm's exit code is the script's, pictor run's.
      e.exit_status = info->exit_code;
    }
    if (!info) e.note = fmt::format("job {} left Slurm's memory without an exit file (last seen {})", job.id, job.last_state);
    else if (!record && info->state != "COMPLETED")
      e.note = fmt::format("job {} {}{}", job.id, info->state, info->reason.empty() || info->reason == "None" ? "" : " (" + info->reason + ")");
    return e;
  }

  SlurmPlan plan_;
  std::string campaign_;
  std::string sbatch_, scontrol_, scancel_, sacct_;
  std::map<std::string, Job> jobs_;
};

}  // namespace

std::unique_ptr<Executor> make_slurm_executor(const SlurmPlan& plan, const std::string& campaign_name) {
  return std::make_unique<SlurmExecutor>(plan, campaign_name);
}

}  // namespace pictor::campaign
