// A campaign through a real Slurm cluster that this test starts and stops: munged with a key it
// generates, slurmctld and slurmd (-D, one node "localhost" with 2 CPUs, no accounting) on free
// loopback ports, every file in a temporary directory, every daemon stopped by its PID on every
// path. A 2 × 2 campaign (two benchmarks × local, xvnc) runs to completion through sbatch, its
// sessions are in the results database, and a job cancelled mid-run is reported failed and retried.
// Skipped, saying why, without slurm-wlm and munge (scripts/setup.sh --tests) or without root.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <thread>

#include "core/exec.h"
#include "db/results_store.h"
#include "helpers.h"
#include "runner/adapter.h"
#include "runner/process.h"

namespace {

namespace fs = std::filesystem;
using pictor::runner::Process;
using pictor::runner::SpawnOptions;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The one-node cluster. Its destructor cancels what is left of its jobs and stops slurmd,
// slurmctld and munged, in that order, by PID.
class Cluster {
 public:
  std::string missing;  // why the cluster cannot be started here ("" when it can)
  fs::path dir, conf;

  Cluster() {
    if (::geteuid() != 0) {
      missing = "slurmd runs jobs as their user and needs root";
      return;
    }
    for (const char* p : {"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo"}) {
      const auto path = pictor::find_executable(p, {"/usr/sbin", "/usr/bin"});
      if (!path) {
        missing = std::string(p) + " is not installed (scripts/setup.sh --tests installs slurm-wlm and munge)";
        return;
      }
      bin_[p] = *path;
    }
    char tmpl[] = "/tmp/pictor-slurm-XXXXXX";  // short: munged's socket path must fit in sun_path
    dir = ::mkdtemp(tmpl);
    for (const char* sub : {"munge", "state", "spool", "log"}) fs::create_directories(dir / sub);
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
    fs::permissions(dir / "munge", fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const auto key = pictor::run_and_capture({bin_["mungekey"], "--create", "--keyfile=" + (dir / "munge/munge.key").string()});
    if (key.exit_code != 0) {
      missing = "mungekey failed: " + key.output;
      return;
    }
    conf = dir / "slurm.conf";
    std::ofstream(conf) << fmt::format(
        "ClusterName=pictortest\nSlurmctldHost=localhost\nSlurmctldPort={}\nSlurmdPort={}\nSlurmUser=root\nSlurmdUser=root\n"
        "AuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\nStateSaveLocation={}\nSlurmdSpoolDir={}\n"
        "SlurmctldPidFile={}/slurmctld.pid\nSlurmdPidFile={}/slurmd.pid\nSlurmctldLogFile={}/slurmctld.log\nSlurmdLogFile={}/slurmd.log\n"
        "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
        "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\nMpiDefault=none\nReturnToService=2\n"
        "KillWait=10\nNodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN\n"
        "PartitionName=pictor Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
        pictor::runner::pick_free_port(), pictor::runner::pick_free_port(), (dir / "munge/munge.socket").string(), (dir / "state").string(), (dir / "spool").string(),
        dir.string(), dir.string(), (dir / "log").string(), (dir / "log").string());
    ::setenv("SLURM_CONF", conf.c_str(), 1);
    munged_ = start({bin_["munged"], "-F", "-f", "--key-file=" + (dir / "munge/munge.key").string(),
                     "--socket=" + (dir / "munge/munge.socket").string(), "--pid-file=" + (dir / "munge/munged.pid").string(),
                     "--log-file=" + (dir / "log/munged.log").string(), "--seed-file=" + (dir / "munge/seed").string()},
                    "munged");
    if (!wait_for([&] { return fs::exists(dir / "munge/munge.socket"); }, 10)) {
      missing = "munged did not create its socket: " + read_text(dir / "log/munged.out");
      return;
    }
    slurmctld_ = start({bin_["slurmctld"], "-D", "-f", conf.string()}, "slurmctld");
    slurmd_ = start({bin_["slurmd"], "-D", "-f", conf.string(), "-N", "localhost"}, "slurmd");
    if (!wait_for([&] { return pictor::run_and_capture({bin_["sinfo"], "-h", "-o", "%t"}).output == "idle"; }, 60))
      missing = "the node did not become idle: " + read_text(dir / "log/slurmctld.log").substr(0, 2000);
  }

  ~Cluster() {
    if (slurmctld_) {
      pictor::run_and_capture({bin_["scancel"], "--user=root"});
      wait_for([&] { return pictor::run_and_capture({bin_["squeue"], "-h"}).output.empty(); }, 30);
    }
    for (std::optional<Process>* p : {&slurmd_, &slurmctld_, &munged_})
      if (*p) (*p)->stop(5.0);
    ::unsetenv("SLURM_CONF");
    if (!dir.empty()) {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  }

  std::string bin(const char* name) { return bin_[name]; }

  static bool wait_for(const std::function<bool()>& ready, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return ready();
  }

 private:
  Process start(const std::vector<std::string>& argv, const std::string& name) {
    SpawnOptions o;
    o.argv = argv;
    o.stdout_path = (dir / "log" / (name + ".out")).string();
    o.stderr_path = o.stdout_path;
    o.env["SLURM_CONF"] = conf.string();
    return Process::spawn(o);
  }

  std::map<std::string, std::string> bin_;
  std::optional<Process> munged_, slurmctld_, slurmd_;
};

// `pictor campaign run PLAN --executor slurm --out OUT` against the cluster, its output in DIR.
Process start_campaign(const Cluster& cluster, const std::string& plan, const std::string& out, const std::string& dir) {
  SpawnOptions o;
  o.argv = {PICTOR_BIN, "campaign", "run", plan, "--executor", "slurm", "--out", out};
  o.stdout_path = dir + "/campaign.out";
  o.stderr_path = dir + "/campaign.err";
  o.env["SLURM_CONF"] = cluster.conf.string();
  return Process::spawn(o);
}

TEST(CampaignSlurm, TwoByTwoThroughSbatchWithACancelledJobRetried) {
  Cluster cluster;
  if (!cluster.missing.empty()) GTEST_SKIP() << cluster.missing;
  const std::string dir = pictor::test::fresh_dir("campaign-slurm");
  const std::string plan = dir + "/plan.yaml";
  // cpus_per_task 2: the node's two CPUs per job, so the sessions run one at a time as locally.
  std::ofstream(plan) << "name: slurm-test\nduration: 5s\nsize: 320x240\ndriver: scripted:rate=5,seed=3\nresources: false\n"
                         "retries: 1\nbenchmarks:\n  - builtin:latency\n  - builtin:spin:objects=50\nadapters: [local, xvnc]\n"
                         "slurm:\n  partition: pictor\n  cpus_per_task: 2\n  time: \"00:05:00\"\n  poll: 300ms\n";
  const std::string out = dir + "/c";
  Process campaign = start_campaign(cluster, plan, out, dir);

  // Cancel cell 1's first job once its session is recording frames.
  const fs::path first_session = fs::path(out) / "cells/001-latency-local-none-n1-r1/attempt-1";
  ASSERT_TRUE(Cluster::wait_for([&] { return fs::exists(first_session / "frames.csv") || !campaign.running(); }, 120))
      << read_text(dir + "/campaign.err");
  ASSERT_TRUE(campaign.running()) << read_text(dir + "/campaign.err");
  std::string job;
  ASSERT_TRUE(Cluster::wait_for(
      [&] {
        const auto rows = pictor::test::read_csv_rows(out + "/cells.csv", true);
        if (rows.size() > 1 && !rows[1][9].empty()) job = rows[1][9];
        return !job.empty();
      },
      10));
  const auto cancel = pictor::run_and_capture({cluster.bin("scancel"), job});
  ASSERT_EQ(cancel.exit_code, 0) << cancel.output;

  const auto status = campaign.wait_for(300);
  if (!status) campaign.stop(15);
  ASSERT_TRUE(status) << "the campaign did not end: " << read_text(dir + "/campaign.err");
  EXPECT_EQ(status->code, 0) << read_text(dir + "/campaign.err");

  const auto cells = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(cells.size(), 5u);
  const auto store = pictor::db::open_store(out + "/results.db");
  for (std::size_t i = 1; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i][6], "ok") << cells[i][13];
    EXPECT_FALSE(cells[i][9].empty()) << "every cell ran as a Slurm job";
    const auto id = store->id_of_dir(cells[i][8]);
    ASSERT_TRUE(id) << cells[i][8];
    const auto run = store->get(*id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->run.status, "ok");
    EXPECT_EQ(run->run.adapter, cells[i][2]);
    bool fps = false;
    for (const auto& m : run->run.metrics) fps = fps || (m.name == "fps_avg" && m.value && *m.value > 0);
    EXPECT_TRUE(fps) << "run " << *id << " has its FPS";
  }
  EXPECT_EQ(cells[1][7], "2") << "cell 1 was retried once";
  EXPECT_NE(cells[1][9], job) << "the retry is a job of its own";
  EXPECT_TRUE(cells[1][8].ends_with("/attempt-2"));

  const auto attempts = pictor::test::read_csv_rows(out + "/attempts.csv", true);
  ASSERT_EQ(attempts.size(), 6u);  // header, 4 cells, 1 retry
  bool cancelled = false, retried = false;
  double sessions_s = 0;
  for (std::size_t i = 1; i < attempts.size(); ++i) {
    const auto& a = attempts[i];
    if (a[0] == "1" && a[1] == "1") {
      cancelled = a[2] == job && a[3] == "failed" && a[4] == "CANCELLED" && a[5].empty();
      EXPECT_TRUE(cancelled) << a[2] << " " << a[3] << " " << a[4] << " " << a[5];
      continue;
    }
    if (a[0] == "1" && a[1] == "2") retried = a[3] == "ok" && a[4] == "COMPLETED" && a[5] == "0" && !a[8].empty();
    sessions_s += std::stod(a[6]);
  }
  EXPECT_TRUE(cancelled);
  EXPECT_TRUE(retried);
  const auto doc = pictor::test::read_json(out + "/campaign.json");
  const double wall = doc["wall_s"].get<double>();
  // The figures docs/scale-out.md quotes: the campaign's wall time against its sessions'.
  std::printf("campaign wall %.2f s, the 4 completed sessions %.2f s, the cancelled attempt's job unknown\n", wall, sessions_s);
  EXPECT_GT(wall, sessions_s);
}

// slurm nodes: 2 with share_node: one job of two tasks on the one node, pictor serve as one job step
// and pictor run --server as the other, talking over the node's address; one session assembled on
// the client side, in the database, the agent gone when the job ends.
TEST(CampaignSlurm, TwoHostCellRunsAsTwoJobSteps) {
  Cluster cluster;
  if (!cluster.missing.empty()) GTEST_SKIP() << cluster.missing;
  const std::string dir = pictor::test::fresh_dir("campaign-slurm-steps");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "name: steps\nduration: 3s\nsize: 320x240\ndriver: scripted:rate=5,seed=3\nresources: false\n"
                         "benchmarks: [builtin:latency]\nadapters: [xvnc]\n"
                         "slurm:\n  nodes: 2\n  share_node: true\n  partition: pictor\n  time: \"00:05:00\"\n  poll: 300ms\n";
  const std::string out = dir + "/c";
  Process campaign = start_campaign(cluster, plan, out, dir);
  const auto status = campaign.wait_for(240);
  if (!status) campaign.stop(15);
  const std::string cell = out + "/cells/001-latency-xvnc-none-n1-r1";
  ASSERT_TRUE(status) << "the campaign did not end: " << read_text(dir + "/campaign.err") << read_text(cell + "/attempt-1.log");
  EXPECT_EQ(status->code, 0) << read_text(dir + "/campaign.err") << read_text(cell + "/attempt-1.log");
  const std::string script = read_text(cell + "/attempt-1.sbatch");
  EXPECT_EQ(script.find("hetjob"), std::string::npos) << script;
  const auto cells = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1][6], "ok") << cells[1][13] << read_text(cell + "/attempt-1.log") << read_text(cell + "/attempt-1.serve.log");
  EXPECT_FALSE(cells[1][9].empty()) << "the cell ran as a Slurm job";
  const auto run = pictor::test::read_json(cell + "/attempt-1/run.json");
  EXPECT_EQ(run["status"], "ok");
  ASSERT_TRUE(run.contains("two_hosts")) << run.dump(2);
  EXPECT_TRUE(run["two_hosts"]["clock"].contains("offset_ns"));
  EXPECT_TRUE(fs::exists(cell + "/attempt-1/frames.csv")) << "the render host's half, received";
  const std::string serve = read_text(cell + "/attempt-1.serve.log");
  EXPECT_NE(serve.find("listening on " + run["two_hosts"]["server"].get<std::string>() + ";"), std::string::npos) << serve;
  const auto store = pictor::db::open_store(out + "/results.db");
  const auto id = store->id_of_dir(cells[1][8]);
  ASSERT_TRUE(id) << cells[1][8];
  EXPECT_EQ(store->get(*id)->run.adapter, "xvnc");
}

}  // namespace
