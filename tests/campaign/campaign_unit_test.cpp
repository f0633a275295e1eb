// The campaign's pure parts: plan errors with their line, expansion, cells.csv read back, what
// Slurm's commands print parsed, the batch script, Kubernetes manifests; and the real `pictor
// campaign` refusing bad plans (exit 2, "pictor: PLAN:LINE: cause" last on stderr).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "campaign/cells.h"
#include "campaign/manifests.h"
#include "campaign/plan.h"
#include "campaign/slurm_jobs.h"
#include "core/error.h"
#include "helpers.h"

namespace {

namespace fs = std::filesystem;
using namespace pictor::campaign;

std::string plan_error(const std::string& text) {
  try {
    parse_plan(text, "p.yaml");
  } catch (const pictor::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CampaignPlan, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\ncolour: red\n"),
            "p.yaml:2: the plan has no key 'colour' (keys: adapters, benchmarks, driver, duration, instances, kubernetes, name, "
            "net, repeats, resources, retries, size, slurm)");
  EXPECT_EQ(plan_error("adapters: [local]\n"), "p.yaml:1: the plan has no 'benchmarks'");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nrepeats: 0\n"), "p.yaml:2: repeats: '0' is not a whole number from 1 to 1000");
  EXPECT_EQ(plan_error("benchmarks:\n  - builtin:spin\n  - glxgears\n"),
            "p.yaml:3: benchmark 'glxgears': the app must be builtin:SCENE[:options] or profile:NAME (a program: command: [...])");
  EXPECT_EQ(plan_error("benchmarks:\n  - builtin:spin\n  - builtin:spin:objects=5\n"),
            "p.yaml:3: two benchmarks named 'spin' (give one a name:)");
  EXPECT_EQ(plan_error("benchmarks:\n  - app: builtin:spin\n    drvier: scripted\n"),
            "p.yaml:3: a benchmark has no key 'drvier' (keys: app, command, driver, duration, name, size)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nnet:\n  - delay=20ms\n  - delay=fast\n"),
            "p.yaml:4: --net: delay=fast is not a duration (e.g. 20ms, 1.5s) (one-way latency added to every chunk, each direction)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nslurm:\n  partition: a\n  nodez: 2\n"),
            "p.yaml:4: slurm has no key 'nodez' (keys: account, client, constraint, cpus_per_task, mem, nodes, partition, poll, "
            "sbatch_args, server, share_node, time)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nslurm: {nodes: 3}\n"),
            "p.yaml:2: slurm nodes: '3': a cell runs on 1 host or on 2 (pictor serve and pictor run --server)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nduration: 0.1s\n"), "p.yaml:2: duration must be between 1 s and 24 h (got 0.1s)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin\n"), "p.yaml:2: not YAML: end of sequence flow not found");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\ninstances: [1, 99]\n"), "p.yaml:2: instances: '99' is not a whole number from 1 to 32");
}

// Found by fuzz_campaign_plan (fuzz/corpus/campaign_plan/empty_plan, key_with_line_end): the empty
// plan's line was 0, and a quoted key's line end split the error over two lines.
TEST(CampaignPlan, ErrorsAreOneLineFromLineOne) {
  EXPECT_EQ(plan_error(""), "p.yaml:1: a plan is a map (benchmarks, adapters, net, instances, repeats, …)");
  EXPECT_EQ(plan_error("\"co\\nlour\": 1\nbenchmarks: [builtin:spin]\n"),
            "p.yaml:1: the plan has no key 'co\\x0alour' (keys: adapters, benchmarks, driver, duration, instances, "
            "kubernetes, name, net, repeats, resources, retries, size, slurm)");
  EXPECT_EQ(plan_error("benchmarks: [\"builtin:spin\\tx\"]\n"),
            "p.yaml:1: benchmark 'spin\\x09x': unknown built-in scene 'spin\\x09x' (built-in scenes: null, spin, racing, "
            "shooter, strategy, latency)");
}

// Found by fuzz_campaign_plan (fuzz/corpus/campaign_plan/long_profile_name): a profile name longer
// than a file name may be made the file system's "File name too long" escape as a
// std::filesystem::filesystem_error, not the plan's one-line error.
TEST(CampaignPlan, AProfileNameTooLongForAFileIsNotFound) {
  const std::string name(300, 'g');
  const std::string e = plan_error("benchmarks:\n  - profile:" + name + "\n");
  EXPECT_EQ(e.rfind("p.yaml:2: benchmark '" + name + "': no profile '" + name + "' (known: ", 0), 0u) << e;
  EXPECT_EQ(plan_error("benchmarks:\n  - profile:" + name + ".profile\n"),
            "p.yaml:2: benchmark '" + name + "': profile file '" + name + ".profile' not found");
}

// slurm nodes: 2 is pictor run --server per cell: what that refuses, the plan refuses on its line.
TEST(CampaignPlan, TwoHostCells) {
  const Plan p = parse_plan("benchmarks: [builtin:spin]\nadapters: [xvnc, x11vnc]\nslurm:\n  nodes: 2\n"
                            "  server: {constraint: render}\n  client: {partition: thin}\n",
                            "p.yaml");
  EXPECT_TRUE(p.two_hosts());
  EXPECT_EQ(p.slurm.server.constraint, "render");
  EXPECT_EQ(p.slurm.client.partition, "thin");
  EXPECT_FALSE(parse_plan("benchmarks: [builtin:spin]\n", "p.yaml").two_hosts());
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters:\n  - xvnc\n  - vncviewer\nslurm: {nodes: 2}\n"),
            "p.yaml:4: adapter 'vncviewer' in a two-host cell (slurm nodes: 2): --server runs --adapter xvnc, x11vnc or stream "
            "(transport=tcp) across two hosts, not 'vncviewer' (docs/two-hosts.md)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nslurm: {nodes: 2}\n"),
            "p.yaml:1: adapter 'local' in a two-host cell (slurm nodes: 2): --server runs --adapter xvnc, x11vnc or stream "
            "(transport=tcp) across two hosts, not 'local' (docs/two-hosts.md)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\ninstances:\n  - 1\n  - 2\nslurm: {nodes: 2}\n"),
            "p.yaml:5: instances 2: a two-host cell (slurm nodes: 2) runs one session (pictor run --server cannot be combined "
            "with --instances)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm: {server: {constraint: render}}\n"),
            "p.yaml:3: slurm server: is a two-host cell's component (give nodes: 2)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm:\n  nodes: 2\n  client: {nodes: 1}\n"),
            "p.yaml:5: slurm client has no key 'nodes' (keys: constraint, partition)");
  const Plan shared = parse_plan("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm: {nodes: 2, share_node: true}\n", "p.yaml");
  EXPECT_TRUE(shared.slurm.share_node);
  EXPECT_FALSE(shared.heterogeneous());
  EXPECT_TRUE(p.heterogeneous());
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm:\n  share_node: true\n"),
            "p.yaml:4: slurm share_node: puts a two-host cell's two halves on one node (give nodes: 2)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm:\n  share_node: true\n  nodes: 2\n"
                       "  server: {constraint: render}\n"),
            "p.yaml:4: slurm share_node: true runs both halves as steps of one job on one node; server: and client: place them "
            "as a heterogeneous job's components (give one or the other)");
  EXPECT_EQ(plan_error("benchmarks: [builtin:spin]\nadapters: [xvnc]\nslurm: {nodes: 2, share_node: maybe}\n"),
            "p.yaml:3: share_node: 'maybe' is not true or false");
}

TEST(CampaignCells, ExpandInRoundsAndReadBack) {
  Plan p;
  p.benchmarks = {{"a", "builtin:spin", {}, {}, {}, {}, 1}, {"b", "builtin:null", {}, {}, {}, {}, 2}};
  p.adapters = {{"local", 1}, {"xvnc", 1}};
  p.nets = {{"none", 1}, {"delay=20ms", 1}};
  p.instances = {1};
  p.repeats = 2;
  std::vector<Cell> cells = expand_cells(p);
  ASSERT_EQ(cells.size(), 16u);
  EXPECT_EQ(cells[0].folder(), "001-a-local-none-n1-r1");
  EXPECT_EQ(cells[1].folder(), "002-a-local-delay20ms-n1-r1");
  EXPECT_EQ(cells[8].repeat, 2);  // round 2 starts after every cell of round 1
  EXPECT_EQ(cells[8].benchmark_name, "a");
  cells[3].state = "ok";
  cells[3].exit_status = 0;
  cells[3].wall_s = 3.25;
  cells[3].run_id = 17;
  cells[3].note = "a, \"quoted\" note";
  const std::string csv = cells_csv(cells);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "cell,benchmark,adapter,net,instances,repeat,state,attempts,session_dir,job_id,exit_status,wall_s,run_id,note");
  const std::vector<Cell> back = parse_cells_csv(csv, "cells.csv");
  ASSERT_EQ(back.size(), 16u);
  EXPECT_EQ(back[3].note, "a, \"quoted\" note");
  EXPECT_EQ(back[3].run_id, 17);
  EXPECT_DOUBLE_EQ(*back[3].wall_s, 3.25);
  EXPECT_FALSE(back[4].wall_s);  // unknown stays unknown, never 0
  EXPECT_FALSE(back[4].exit_status);
  EXPECT_NE(format_status(back).find("16 cells: 1 ok, 15 pending"), std::string::npos);
}

TEST(CampaignSlurm, ParsesWhatSlurmPrints) {
  const auto jobs = parse_scontrol_jobs(
      "JobId=12 JobName=pictor-x-001 UserId=root(0) JobState=CANCELLED Reason=None Dependency=(null) ExitCode=0:15 RunTime=00:00:04\n"
      "JobId=13 JobName=pictor-x-002 JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0\n"
      "JobId=14 JobName=pictor-x-003 JobState=PENDING Reason=Resources ExitCode=0:0\n");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs.at("12").state, "CANCELLED");
  EXPECT_EQ(jobs.at("12").signal, 15);
  EXPECT_EQ(jobs.at("13").exit_code, 1);
  EXPECT_EQ(jobs.at("13").reason, "NonZeroExitCode");
  EXPECT_TRUE(is_final_state("NODE_FAIL"));
  EXPECT_FALSE(is_final_state(jobs.at("14").state));
  EXPECT_TRUE(parse_scontrol_jobs("No jobs in the system\n").empty());
  const auto s = parse_sacct_line("12|CANCELLED by 0|0:15\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state, "CANCELLED");
  EXPECT_FALSE(parse_sacct_line(""));
  const auto e = parse_exit_record("1 1796186681.50 1796186684.75\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->exit_status, 1);
  EXPECT_DOUBLE_EQ(e->wall_s, 3.25);
  EXPECT_FALSE(parse_exit_record("1 5 4"));
  EXPECT_FALSE(parse_exit_record("garbage"));
}

TEST(CampaignSlurm, BatchScriptAsksForWhatThePlanSays) {
  SlurmPlan plan;
  plan.partition = "render";
  plan.constraint = "gpu&h200";
  plan.time_limit = "00:10:00";
  plan.cpus_per_task = 4;
  plan.extra = {"--exclusive"};
  AttemptSpec a;
  a.cell = 3;
  a.attempt = 2;
  a.job_name = "pictor-c-003";
  a.argv = {"/opt/pictor/bin/pictor", "run", "--driver", "scripted:keys=Up|Down", "--out", "/shared/c/cells/x y/attempt-2"};
  a.log_path = "/shared/c/cells/x/attempt-2.log";
  const std::string s = batch_script(a, plan, "/shared/c/cells/x/attempt-2.exit");
  EXPECT_EQ(s.rfind("#!/bin/sh\n", 0), 0u);
  for (const char* line : {"#SBATCH --job-name=pictor-c-003\n", "#SBATCH --output=/shared/c/cells/x/attempt-2.log\n",
                           "#SBATCH --partition=render\n", "#SBATCH --constraint=gpu&h200\n", "#SBATCH --time=00:10:00\n",
                           "#SBATCH --cpus-per-task=4\n", "#SBATCH --exclusive\n", "#SBATCH --no-requeue\n",
                           "/opt/pictor/bin/pictor run --driver 'scripted:keys=Up|Down' --out '/shared/c/cells/x y/attempt-2'\n",
                           "> /shared/c/cells/x/attempt-2.exit\n"})
    EXPECT_NE(s.find(line), std::string::npos) << line;
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

// Attempt 1 of cell `cell`, a two-host cell racing over xvnc, its files under /shared/c/cells/x.
AttemptSpec two_host_attempt(int cell) {
  AttemptSpec a;
  a.cell = cell;
  a.attempt = 1;
  a.job_name = fmt::format("pictor-c-{:03}", cell);
  a.argv = {"/opt/pictor/bin/pictor", "run", "--adapter", "xvnc", "--out", "/shared/c/cells/x/attempt-1", "builtin:racing"};
  a.log_path = "/shared/c/cells/x/attempt-1.log";
  a.two_hosts = true;
  a.token_path = "/shared/c/cells/x/attempt-1.token";
  a.serve_log_path = "/shared/c/cells/x/attempt-1.serve.log";
  a.serve_work_dir = "/shared/c/cells/x/attempt-1.serve";
  return a;
}

// A two-host cell's job: two components (render host, client host), pictor serve as step 0 in the
// background, pictor run --server as step 1 against it, the agent killed, the exit file written.
TEST(CampaignSlurm, TwoHostCellIsAHeterogeneousJob) {
  SlurmPlan plan;
  plan.nodes = 2;
  plan.constraint = "gpu";
  plan.time_limit = "00:10:00";
  plan.cpus_per_task = 1;
  plan.server.constraint = "render";
  plan.client.partition = "thin";
  const AttemptSpec a = two_host_attempt(3);
  const std::string s = batch_script(a, plan, "/shared/c/cells/x/attempt-1.exit");
  const std::size_t het = s.find("#SBATCH hetjob\n");
  ASSERT_NE(het, std::string::npos) << s;
  const std::string first = s.substr(0, het), second = s.substr(het);
  for (const char* line : {"#SBATCH --job-name=pictor-c-003\n", "#SBATCH --time=00:10:00\n", "#SBATCH --no-requeue\n",
                           "#SBATCH --nodes=1\n", "#SBATCH --constraint=render\n", "#SBATCH --cpus-per-task=1\n"})
    EXPECT_NE(first.find(line), std::string::npos) << line;
  for (const char* line : {"#SBATCH --nodes=1\n", "#SBATCH --partition=thin\n", "#SBATCH --constraint=gpu\n",
                           "#SBATCH --cpus-per-task=1\n"})
    EXPECT_NE(second.find(line), std::string::npos) << line;
  EXPECT_EQ(second.find("#SBATCH --job-name"), std::string::npos);
  const std::size_t serve = s.find(
      "srun --het-group=0 --output=/shared/c/cells/x/attempt-1.serve.log /opt/pictor/bin/pictor serve --listen \"$addr:$port\" "
      "--token-file /shared/c/cells/x/attempt-1.token --work-dir /shared/c/cells/x/attempt-1.serve --max-sessions 1 &\n");
  const std::size_t run = s.find(
      "srun --het-group=1 /opt/pictor/bin/pictor run --server \"$addr:$port\" --token-file /shared/c/cells/x/attempt-1.token "
      "--adapter xvnc --out /shared/c/cells/x/attempt-1 builtin:racing\n");
  const std::size_t kill = s.find("kill $serve");
  const std::size_t exit_file = s.find("> /shared/c/cells/x/attempt-1.exit\n");
  ASSERT_NE(serve, std::string::npos) << s;
  ASSERT_NE(run, std::string::npos) << s;
  EXPECT_LT(serve, run);
  EXPECT_LT(run, kill);
  EXPECT_LT(kill, exit_file);
  EXPECT_NE(exit_file, std::string::npos);
  // /bin/sh reads it: the script parses (sh -n), as sbatch's shell will.
  const std::string dir = pictor::test::fresh_dir("campaign-het");
  std::ofstream(dir + "/job.sh") << s;
  const auto r = pictor::test::run_command({"sh", "-n", dir + "/job.sh"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// A two-host cell whose halves are placed alike: one job of two tasks, each half a step of one task,
// on two nodes (relative node 0 the render host) or, with share_node, both on one.
TEST(CampaignSlurm, TwoHostCellWithoutComponentsIsOneJobOfTwoSteps) {
  SlurmPlan plan;
  plan.nodes = 2;
  plan.partition = "bench";
  plan.cpus_per_task = 2;
  const AttemptSpec a = two_host_attempt(1);
  const std::string dir = pictor::test::fresh_dir("campaign-steps");
  for (const bool share : {false, true}) {
    plan.share_node = share;
    const std::string s = batch_script(a, plan, "/shared/c/cells/x/attempt-1.exit");
    EXPECT_EQ(s.find("hetjob"), std::string::npos) << s;
    EXPECT_EQ(s.find("--het-group"), std::string::npos) << s;
    for (const char* line : {"#SBATCH --job-name=pictor-c-001\n", "#SBATCH --ntasks=2\n", "#SBATCH --partition=bench\n",
                             "#SBATCH --cpus-per-task=2\n", "#SBATCH --no-requeue\n",
                             "server=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"})
      EXPECT_NE(s.find(line), std::string::npos) << line << s;
    EXPECT_NE(s.find(share ? "#SBATCH --nodes=1\n" : "#SBATCH --nodes=2\n"), std::string::npos) << s;
    EXPECT_EQ(s.find("#SBATCH --ntasks-per-node=1\n") != std::string::npos, !share) << s;
    const std::string serve_step = share ? "srun --nodes=1 --ntasks=1 --overlap " : "srun --nodes=1 --ntasks=1 --relative=0 ";
    const std::string client_step = share ? "srun --nodes=1 --ntasks=1 --overlap " : "srun --nodes=1 --ntasks=1 --relative=1 ";
    const std::size_t serve = s.find(serve_step + "--output=/shared/c/cells/x/attempt-1.serve.log /opt/pictor/bin/pictor serve --listen "
                                     "\"$addr:$port\" --token-file /shared/c/cells/x/attempt-1.token");
    const std::size_t run = s.find(client_step + "/opt/pictor/bin/pictor run --server \"$addr:$port\" --token-file "
                                   "/shared/c/cells/x/attempt-1.token --adapter xvnc --out /shared/c/cells/x/attempt-1 builtin:racing\n");
    ASSERT_NE(serve, std::string::npos) << s;
    ASSERT_NE(run, std::string::npos) << s;
    EXPECT_LT(serve, run);
    EXPECT_LT(run, s.find("kill $serve"));
    std::ofstream(dir + "/job.sh") << s;
    const auto r = pictor::test::run_command({"sh", "-n", dir + "/job.sh"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

TEST(CampaignManifests, OneJobPerCellAsKubernetesReadsIt) {
  Plan p;
  p.name = "nightly";
  p.benchmarks = {{"racing", "builtin:racing", {}, {}, {}, {}, 1}};
  p.adapters = {{"xvnc", 1}};
  p.nets = {{"delay=20ms", 1}};
  p.instances = {1};
  p.retries = 2;
  p.kubernetes.image = "registry.example/pictor:1";
  p.kubernetes.node_selector = "pictor/gpu=h200";
  p.kubernetes.results_claim = "pictor-results";
  const Cell c = expand_cells(p).front();
  const YAML::Node job = YAML::Load(job_manifest(p, c, "postgresql://pictor@db:5432/pictor"));
  EXPECT_EQ(job["kind"].as<std::string>(), "Job");
  EXPECT_EQ(job["metadata"]["name"].as<std::string>(), "pictor-nightly-001-racing-xvnc-delay20ms-n1-r1");
  EXPECT_EQ(job["spec"]["backoffLimit"].as<int>(), 2);
  const YAML::Node pod = job["spec"]["template"]["spec"];
  EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "Never");
  EXPECT_EQ(pod["nodeSelector"]["pictor/gpu"].as<std::string>(), "h200");
  const YAML::Node command = pod["containers"][0]["command"];
  std::vector<std::string> argv;
  for (const auto& w : command) argv.push_back(w.as<std::string>());
  ASSERT_GE(argv.size(), 4u);
  EXPECT_EQ(argv[0], "pictor");
  EXPECT_EQ(argv.back(), "builtin:racing");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "postgresql://pictor@db:5432/pictor"), argv.end());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "delay=20ms"), argv.end());
  EXPECT_EQ(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>(), "pictor-results");
}

// The real binary: what pictor run refuses, the plan refuses, on its line.
TEST(CampaignCli, BadPlansAreRefusedWithTheirLine) {
  const std::string dir = pictor::test::fresh_dir("campaign-plans");
  const auto refused = [&](const std::string& text) {
    const std::string path = dir + "/plan.yaml";
    std::ofstream(path) << text;
    const auto r = pictor::test::run_command({PICTOR_BIN, "campaign", "run", path, "--out", dir + "/out"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/out")) << "nothing is claimed for a bad plan";
    return r.last_err_line();
  };
  EXPECT_EQ(refused("benchmarks:\n  - builtin:spin\n  - builtin:nosuch\n"),
            "pictor: " + dir + "/plan.yaml:3: benchmark 'nosuch': unknown built-in scene 'nosuch' (built-in scenes: null, spin, "
            "racing, shooter, strategy, latency)");
  EXPECT_EQ(refused("benchmarks: [builtin:spin]\nadapters:\n  - local\n  - vnc9\n"),
            "pictor: " + dir + "/plan.yaml:4: adapter 'vnc9': unknown adapter 'vnc9' (known: local, xvnc, x11vnc, stream, vncviewer, xpra, display)");
  EXPECT_EQ(refused("benchmarks:\n  - app: builtin:spin:objectz=5\n"),
            "pictor: " + dir + "/plan.yaml:2: benchmark 'spin': scene 'spin' has no option 'objectz' (options: objects, seed, max_fps)");
  EXPECT_EQ(refused("benchmarks: [builtin:spin]\nadapters:\n  - xvnc\n  - xpra\nslurm: {nodes: 2}\n"),
            "pictor: " + dir + "/plan.yaml:4: adapter 'xpra' in a two-host cell (slurm nodes: 2): --server runs --adapter xvnc, "
            "x11vnc or stream (transport=tcp) across two hosts, not 'xpra' (docs/two-hosts.md)");
  // manifests: one Job per cell, and only into a database every pod reaches.
  const std::string plan = dir + "/k8s.yaml";
  std::ofstream(plan) << "name: k\nbenchmarks: [builtin:spin, builtin:null]\nadapters: [local, xvnc]\n"
                         "kubernetes: {image: registry.example/pictor:1}\n";
  const auto m = pictor::test::run_command({PICTOR_BIN, "campaign", "manifests", plan, "--db", "postgresql://p@db:5432/p", "--out",
                                            dir + "/k8s"});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  std::size_t jobs = 0;
  for (const auto& f : fs::directory_iterator(dir + "/k8s")) jobs += YAML::LoadFile(f.path().string())["kind"].as<std::string>() == "Job";
  EXPECT_EQ(jobs, 4u);
  const auto sqlite = pictor::test::run_command({PICTOR_BIN, "campaign", "manifests", plan, "--db", dir + "/r.db", "--out", dir + "/k2"});
  EXPECT_EQ(sqlite.exit_code, 2);
  EXPECT_EQ(sqlite.last_err_line(), "pictor: --db: give the postgresql://USER@HOST:PORT/DB every Job records into (the pods share no file)");
  const auto r = pictor::test::run_command({PICTOR_BIN, "campaign", "status", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.last_err_line(), "pictor: " + dir + ": not a campaign directory (no cells.csv)");
}

}  // namespace
