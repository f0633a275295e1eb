// `pictor campaign run` with the local executor, as a user runs it: real sessions on Xvfb +
// llvmpipe, each a child pictor run, recorded in the campaign's database; a cell whose app fails
// is retried up to the plan's retries and reported failed; status and report read it back.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "browser.h"
#include "db/results_store.h"
#include "helpers.h"
#include "runner/process.h"

namespace {

namespace fs = std::filesystem;
using pictor::test::read_json;
using pictor::test::run_command;

TEST(CampaignLocal, TwoAdaptersRunRecordAndCompare) {
  const std::string dir = pictor::test::fresh_dir("campaign-local");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "name: local-test\nduration: 2s\nsize: 320x240\ndriver: scripted:rate=5,seed=3\nresources: false\n"
                         "benchmarks:\n  - builtin:latency\nadapters: [local, xvnc]\n";
  const std::string out = dir + "/c";
  const auto r = run_command({PICTOR_BIN, "campaign", "run", plan, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0], "cell");
  const auto store = pictor::db::open_store(out + "/results.db");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][6], "ok") << rows[i][13];
    EXPECT_EQ(rows[i][7], "1");
    EXPECT_EQ(rows[i][10], "0");
    EXPECT_GT(std::stod(rows[i][11]), 2.0);  // wall time at least the session's duration
    const auto id = store->id_of_dir(rows[i][8]);
    ASSERT_TRUE(id) << rows[i][8];
    EXPECT_EQ(std::to_string(*id), rows[i][12]);
    const auto run = store->get(*id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->run.status, "ok");
    EXPECT_EQ(run->run.adapter, rows[i][2]);
    EXPECT_TRUE(fs::exists(rows[i][8] + "/summary.json"));
  }
  const auto status = run_command({PICTOR_BIN, "campaign", "status", out});
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_NE(status.out.find("2 cells: 2 ok"), std::string::npos) << status.out;
  // The report: every cell, and the local → xvnc comparison made by compare's statistics.
  const auto report = run_command({PICTOR_BIN, "campaign", "report", out});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  std::ifstream html_in(out + "/report.html");
  const std::string html((std::istreambuf_iterator<char>(html_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("id=\"cell-2-state\">ok<"), std::string::npos);
  EXPECT_NE(html.find("id=\"unit-adapter-local-xvnc-latency"), std::string::npos);
  const auto comparisons = read_json(out + "/comparisons.json");
  ASSERT_EQ(comparisons["units"].size(), 1u);
  EXPECT_EQ(comparisons["units"][0]["comparison"]["method"], "within-session");
  // The page in a real browser: it loads, runs clean, and shows the cells as cells.csv has them.
  const auto chromium = pictor::test::find_chromium();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --tests): the page was not opened in a browser";
  const auto page = pictor::test::load_page(*chromium, out + "/report.html");
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_EQ(page.console, "");
  EXPECT_NE(page.dom.find("data-js-errors=\"0\""), std::string::npos);
  EXPECT_NE(page.dom.find("data-loaded=\"1\""), std::string::npos);
  EXPECT_NE(page.dom.find("id=\"cell-1-state\">ok<"), std::string::npos);
}

TEST(CampaignLocal, AFailingCellIsRetriedThenReportedFailed) {
  const std::string dir = pictor::test::fresh_dir("campaign-retry");
  const std::string plan = dir + "/plan.yaml";
  // `false` exits at once: pictor run reports the app's failure (exit 1), which is worth a retry.
  std::ofstream(plan) << "duration: 2s\nsize: 320x240\nretries: 1\nresources: false\nbenchmarks:\n  - command: [/bin/false]\n";
  const std::string out = dir + "/c";
  const auto r = run_command({PICTOR_BIN, "campaign", "run", plan, "--out", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.last_err_line(), "pictor: 1 of 1 cells failed; see " + out + "/cells.csv");
  const auto cells = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1][6], "failed");
  EXPECT_EQ(cells[1][7], "2");
  EXPECT_EQ(cells[1][10], "1");
  const auto attempts = pictor::test::read_csv_rows(out + "/attempts.csv", true);
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[1][1], "1");
  EXPECT_EQ(attempts[2][1], "2");
  EXPECT_EQ(attempts[1][3], "failed");
  EXPECT_TRUE(fs::exists(out + "/cells/001-false-local-none-n1-r1/attempt-1/run.json"));
  EXPECT_TRUE(fs::exists(out + "/cells/001-false-local-none-n1-r1/attempt-2/run.json"));
  EXPECT_EQ(read_json(out + "/campaign.json")["exit_code"], 1);
}

TEST(CampaignLocal, InterruptedCampaignStopsItsSessionAndSaysSo) {
  const std::string dir = pictor::test::fresh_dir("campaign-interrupt");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "duration: 30s\nsize: 320x240\nresources: false\nbenchmarks: [builtin:spin, builtin:null]\n";
  const std::string out = dir + "/c";
  pictor::runner::SpawnOptions o;
  o.argv = {PICTOR_BIN, "campaign", "run", plan, "--out", out};
  o.stdout_path = dir + "/out";
  o.stderr_path = dir + "/err";
  auto campaign = pictor::runner::Process::spawn(o);
  const std::string frames = out + "/cells/001-spin-local-none-n1-r1/attempt-1/frames.csv";
  for (int i = 0; i < 300 && !fs::exists(frames) && campaign.running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(frames));
  ::kill(campaign.pid(), SIGINT);
  const auto status = campaign.wait_for(60);
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 130);
  const auto cells = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[1][6], "interrupted");
  EXPECT_EQ(cells[2][6], "pending");
  // The session was stopped as pictor run stops on SIGTERM: torn down, recorded as interrupted.
  EXPECT_EQ(read_json(out + "/cells/001-spin-local-none-n1-r1/attempt-1/run.json")["status"], "interrupted");
  EXPECT_EQ(read_json(out + "/campaign.json")["exit_code"], 130);
}

// The processes whose command line holds `word` (a campaign's token path: its pictor serve and
// pictor run --server), from /proc.
std::vector<int> processes_naming(const std::string& word) {
  std::vector<int> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find(word) != std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

// slurm nodes: 2 with the local executor: pictor serve on a free loopback port, pictor run
// --server against it, one session whose halves are both here; the agent gone afterwards.
TEST(CampaignLocal, TwoHostCellRunsAgainstItsOwnAgent) {
  const std::string dir = pictor::test::fresh_dir("campaign-two-hosts");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "name: two\nduration: 3s\nsize: 320x240\ndriver: scripted:rate=5,seed=3\nresources: false\n"
                         "benchmarks: [builtin:latency]\nadapters: [xvnc]\nslurm: {nodes: 2}\n";
  const std::string out = dir + "/c";
  const auto r = run_command({PICTOR_BIN, "campaign", "run", plan, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = pictor::test::read_csv_rows(out + "/cells.csv", true);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][6], "ok") << rows[1][13];
  EXPECT_EQ(rows[1][10], "0");
  const std::string cell = out + "/cells/001-latency-xvnc-none-n1-r1";
  EXPECT_EQ(rows[1][8], cell + "/attempt-1");
  const auto store = pictor::db::open_store(out + "/results.db");
  const auto id = store->id_of_dir(rows[1][8]);
  ASSERT_TRUE(id) << rows[1][8];
  EXPECT_EQ(std::to_string(*id), rows[1][12]);
  EXPECT_EQ(store->get(*id)->run.adapter, "xvnc");
  const auto run = read_json(cell + "/attempt-1/run.json");
  EXPECT_EQ(run["status"], "ok");
  ASSERT_TRUE(run.contains("two_hosts")) << run.dump(2);
  EXPECT_EQ(run["two_hosts"]["server"].get<std::string>().rfind("127.0.0.1:", 0), 0u) << run["two_hosts"].dump();
  EXPECT_TRUE(run["two_hosts"]["clock"].contains("offset_ns"));
  EXPECT_TRUE(fs::exists(cell + "/attempt-1/frames.csv"));  // the render host's half, received
  // The agent said where it listened, served its one session, and is gone.
  std::ifstream serve_log(cell + "/attempt-1.serve.log");
  const std::string serve((std::istreambuf_iterator<char>(serve_log)), std::istreambuf_iterator<char>());
  EXPECT_NE(serve.find("listening on " + run["two_hosts"]["server"].get<std::string>() + ";"), std::string::npos) << serve;
  EXPECT_EQ(fs::status(cell + "/attempt-1.token").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(processes_naming(cell + "/attempt-1.token"), std::vector<int>{});
}

// Interrupted mid-session: the run is stopped (run.json interrupted), then its agent; neither left.
TEST(CampaignLocal, InterruptedTwoHostCellStopsBothHalves) {
  const std::string dir = pictor::test::fresh_dir("campaign-two-hosts-int");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "duration: 30s\nsize: 320x240\nresources: false\nbenchmarks: [builtin:spin]\nadapters: [xvnc]\n"
                         "slurm: {nodes: 2}\n";
  const std::string out = dir + "/c";
  pictor::runner::SpawnOptions o;
  o.argv = {PICTOR_BIN, "campaign", "run", plan, "--out", out};
  o.stdout_path = dir + "/out";
  o.stderr_path = dir + "/err";
  auto campaign = pictor::runner::Process::spawn(o);
  const std::string cell = out + "/cells/001-spin-xvnc-none-n1-r1";
  const std::string token = cell + "/attempt-1.token";
  // Both halves running: the agent and pictor run --server name the token.
  for (int i = 0; i < 300 && processes_naming(token).size() < 2 && campaign.running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::vector<int> halves = processes_naming(token);
  ASSERT_GE(halves.size(), 2u);
  std::this_thread::sleep_for(std::chrono::seconds(3));  // into the session
  ::kill(campaign.pid(), SIGINT);
  const auto status = campaign.wait_for(60);
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 130);
  EXPECT_EQ(pictor::test::read_csv_rows(out + "/cells.csv", true)[1][6], "interrupted");
  EXPECT_EQ(read_json(cell + "/attempt-1/run.json")["status"], "interrupted");
  EXPECT_EQ(processes_naming(token), std::vector<int>{});
  for (const int pid : halves) EXPECT_NE(::kill(pid, 0), 0) << "pid " << pid << " still there";
}

}  // namespace
