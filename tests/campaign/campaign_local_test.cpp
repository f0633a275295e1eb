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

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::size_t at = 0;
    for (;;) {
      const std::size_t comma = line.find(',', at);
      f.push_back(line.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    rows.push_back(f);
  }
  return rows;
}

TEST(CampaignLocal, TwoAdaptersRunRecordAndCompare) {
  const std::string dir = pictor::test::fresh_dir("campaign-local");
  const std::string plan = dir + "/plan.yaml";
  std::ofstream(plan) << "name: local-test\nduration: 2s\nsize: 320x240\ndriver: scripted:rate=5,seed=3\nresources: false\n"
                         "benchmarks:\n  - builtin:latency\nadapters: [local, xvnc]\n";
  const std::string out = dir + "/c";
  const auto r = run_command({PICTOR_BIN, "campaign", "run", plan, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = csv_rows(out + "/cells.csv");
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
  const auto cells = csv_rows(out + "/cells.csv");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1][6], "failed");
  EXPECT_EQ(cells[1][7], "2");
  EXPECT_EQ(cells[1][10], "1");
  const auto attempts = csv_rows(out + "/attempts.csv");
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
  const auto cells = csv_rows(out + "/cells.csv");
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[1][6], "interrupted");
  EXPECT_EQ(cells[2][6], "pending");
  // The session was stopped as pictor run stops on SIGTERM: torn down, recorded as interrupted.
  EXPECT_EQ(read_json(out + "/cells/001-spin-local-none-n1-r1/attempt-1/run.json")["status"], "interrupted");
  EXPECT_EQ(read_json(out + "/campaign.json")["exit_code"], 130);
}

}  // namespace
