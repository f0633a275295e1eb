// `pictor run` as a user runs it: session files, plausible frame times, and clean failures.
#include <gtest/gtest.h>

#include <filesystem>

#include "helpers.h"

using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

void expect_no_process_left(const nlohmann::json& run) {
  ASSERT_TRUE(run.contains("processes"));
  for (const auto& p : run["processes"]) {
    EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
  }
}

}  // namespace

TEST(PictorRun, BuiltinSceneWritesSessionDirectory) {
  const std::string dir = fresh_dir("spin");
  const auto r = run_command({PICTOR_BIN, "run", "builtin:spin:objects=200", "-d", "2s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"run.json", "frames.csv", "summary.json", "frametime.png"})
    EXPECT_TRUE(fs::exists(fs::path(dir) / f)) << f;

  const auto rows = read_csv_rows(dir + "/frames.csv");
  ASSERT_GT(rows.size(), 20u);
  // Frame times add up to the span of the swaps, and that span fits in the requested duration.
  const double first = std::stod(rows.front()[2]), last = std::stod(rows.back()[2]);
  double sum_ms = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) sum_ms += std::stod(rows[i][3]);
  EXPECT_NEAR(sum_ms, (last - first) / 1e6, 0.01 * static_cast<double>(rows.size()));
  EXPECT_GT((last - first) / 1e9, 1.0);
  EXPECT_LE((last - first) / 1e9, 2.1);
  EXPECT_TRUE(rows[0][3].empty()) << "the first frame has no frame time";

  const auto summary = read_json(dir + "/summary.json");
  EXPECT_EQ(summary["schema"], 1);
  EXPECT_EQ(summary["frames"].get<std::size_t>(), rows.size());
  EXPECT_NEAR(summary["fps_avg"].get<double>(), static_cast<double>(rows.size() - 1) / ((last - first) / 1e9), 0.01);

  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_EQ(run["adapter"], "local");
  EXPECT_TRUE(run["gl"]["gl_renderer"].get<std::string>().find("llvmpipe") != std::string::npos);
  expect_no_process_left(run);
  // Stdout carries the table.
  EXPECT_NE(r.out.find("Average FPS"), std::string::npos);
}

TEST(PictorRun, NullSceneJsonOutput) {
  const std::string dir = fresh_dir("null");
  const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "-d", "1s", "-o", dir, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["frames"].get<int>(), 50);
  EXPECT_GT(j["fps_avg"].get<double>(), 50.0);
}

TEST(PictorRun, MissingCommandIsAUsageError) {
  const std::string dir = fresh_dir("missing");
  const auto r = run_command({PICTOR_BIN, "run", "-d", "1s", "-o", dir, "--", "/nonexistent/pictor-no-such-app"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("command not found: /nonexistent/pictor-no-such-app"), std::string::npos)
      << r.err;
}

TEST(PictorRun, UnknownBuiltinIsAnError) {
  const std::string dir = fresh_dir("unknown");
  const auto r = run_command({PICTOR_BIN, "run", "builtin:nosuchscene", "-d", "1s", "-o", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("unknown built-in scene 'nosuchscene'"), std::string::npos) << r.err;
  const auto bad_option = run_command({PICTOR_BIN, "run", "builtin:spin:objcts=5", "-d", "1s", "-o", dir});
  EXPECT_EQ(bad_option.exit_code, 2);
  EXPECT_NE(bad_option.last_err_line().find("has no option 'objcts'"), std::string::npos) << bad_option.err;
}

TEST(PictorRun, AppThatExitsAtOnceFailsCleanly) {
  const std::string dir = fresh_dir("false");
  const auto r = run_command({PICTOR_BIN, "run", "-d", "5s", "-o", dir, "--", "false"});
  EXPECT_EQ(r.exit_code, 1);
  const std::string last = r.last_err_line();
  EXPECT_NE(last.find("exit 1"), std::string::npos) << r.err;
  EXPECT_NE(last.find("before presenting a frame"), std::string::npos) << r.err;
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_LT(run["duration_measured_s"].get<double>(), 4.0) << "did not wait out the duration";
  expect_no_process_left(run);
}

TEST(PictorRun, UnwritableOutIsAUsageError) {
  const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "-d", "1s", "-o", "/proc/pictor-cannot-write-here"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("cannot create output directory"), std::string::npos) << r.err;
}

TEST(PictorRun, BadDurationIsAUsageError) {
  const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "-d", "soon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("invalid duration 'soon'"), std::string::npos) << r.err;
}
