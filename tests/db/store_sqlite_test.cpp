// The results store on SQLite files, and what the recorder reads of result directories.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "db/record.h"
#include "db/results_store.h"
#include "db/run_record.h"
#include "store_cases.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace pictor::test {

namespace {

fs::path temp_root_path() { return fs::temp_directory_path() / ("pictor-db-test-" + std::to_string(::getpid())); }

fs::path temp_root() {
  static const fs::path root = [] {
    const fs::path p = temp_root_path();
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return root;
}

// Every test process (CTest runs each test in its own) removes its directory when it ends.
struct RemoveTempRoot : ::testing::Environment {
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(temp_root_path(), ec);
  }
};
[[maybe_unused]] ::testing::Environment* const remove_temp_root =
    ::testing::AddGlobalTestEnvironment(new RemoveTempRoot);

std::string fresh_sqlite() {
  static int n = 0;
  // A directory that does not exist yet: the store creates it, as for the default location.
  return (temp_root() / ("db-" + std::to_string(++n)) / "results.db").string();
}

void write(const fs::path& p, const json& j) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << j.dump(2);
}

json session_run_json(const std::string& start) {
  return {{"schema", 1},
          {"command_line", {"pictor", "run", "builtin:null"}},
          {"app", {{"label", "builtin:null"}, {"argv", {"pictor-app", "null"}}}},
          {"adapter", "local"},
          {"driver", nullptr},
          {"size", "320x240"},
          {"duration_requested_s", 1.0},
          {"machine", {{"hostname", "bench-1"}, {"cores", 2}}},
          {"start_time", start},
          {"end_time", start},
          {"status", "ok"},
          {"write_errors", json::object()}};
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Sqlite, StoreTest,
                         ::testing::Values(StoreEngine{"sqlite", fresh_sqlite,
                                                       [](const std::string& l) { return db::open_sqlite(l); }}),
                         [](const ::testing::TestParamInfo<StoreEngine>& p) { return p.param.name; });

TEST(FlattenFigures, NumbersByPathUnknownsKeptTextAndLongListsLeftOut) {
  const json summary = {{"schema", 1},
                        {"fps_avg", 60.5},
                        {"frame_ms", {{"p50", 16.6}, {"p99", 20.0}}},
                        {"rtt_ms", {{"mean", nullptr}, {"ci95", {1.5, 2.5}}}},
                        {"stalls", {{"count", 0}, {"list", json::array({{{"start_s", 1.0}}})}}},
                        {"source", "frames.csv"},
                        {"ended_in_stall", false},
                        {"per_frame", json::array({1, 2, 3, 4, 5, 6})}};
  const std::vector<db::Metric> m = db::flatten_figures(summary);
  std::map<std::string, std::optional<double>> by;
  for (const auto& x : m) by[x.name] = x.value;
  EXPECT_EQ(by.size(), 7u);
  EXPECT_EQ(by.at("fps_avg"), 60.5);
  EXPECT_EQ(by.at("frame_ms.p99"), 20.0);
  EXPECT_EQ(by.at("rtt_ms.mean"), std::nullopt);
  EXPECT_EQ(by.at("rtt_ms.ci95.0"), 1.5);
  EXPECT_EQ(by.at("rtt_ms.ci95.1"), 2.5);
  EXPECT_EQ(by.at("stalls.count"), 0.0);
  EXPECT_FALSE(by.count("schema"));
  EXPECT_FALSE(by.count("per_frame.0"));
}

TEST(ReadResultDir, ASessionWithItsFigures) {
  const fs::path dir = temp_root() / "session";
  write(dir / "run.json", session_run_json("2026-12-01T10:00:00Z"));
  write(dir / "summary.json", {{"fps_avg", 100.0}, {"frame_ms", {{"p99", 12.5}}}});
  const db::RecordTree t = db::read_result_dir(dir.string());
  EXPECT_EQ(t.run.kind, "session");
  EXPECT_EQ(t.status_file, "run.json");
  EXPECT_EQ(t.run.app, "builtin:null");
  EXPECT_EQ(t.run.adapter, "local");
  EXPECT_EQ(t.run.driver, "");
  EXPECT_EQ(t.run.host, "bench-1");
  EXPECT_EQ(t.run.dir, fs::canonical(dir).string());
  EXPECT_EQ(json::parse(t.run.options)["size"], "320x240");
  EXPECT_EQ(json::parse(t.run.command_line)[2], "builtin:null");
  ASSERT_EQ(t.run.metrics.size(), 2u);
  EXPECT_TRUE(t.children.empty());
}

TEST(ReadResultDir, ARepeatRunWithItsSessionsAndFiguresAcrossRuns) {
  const fs::path dir = temp_root() / "repeat";
  json run = session_run_json("2026-12-01T10:00:00Z");
  run["kind"] = "repeat";
  run["sessions"] = {{{"dir", "repeat-1"}, {"status", "ok"}}, {{"dir", "repeat-2"}, {"status", "ok"}}};
  write(dir / "run.json", run);
  write(dir / "summary.json",
        {{"kind", "repeat"},
         {"figures", {{{"summary_key", "fps_avg"}, {"mean", 50.0}, {"sd", 1.0}, {"n", 2}, {"ci_across_runs", {49.0, 51.0}}}}}});
  for (const char* k : {"repeat-1", "repeat-2"}) {
    write(dir / k / "run.json", session_run_json("2026-12-01T10:00:00Z"));
    write(dir / k / "summary.json", {{"fps_avg", 50.0}});
  }
  const db::RecordTree t = db::read_result_dir(dir.string());
  EXPECT_EQ(t.run.kind, "repeat");
  ASSERT_EQ(t.children.size(), 2u);
  EXPECT_EQ(t.children[1].run.dir, fs::canonical(dir / "repeat-2").string());
  std::map<std::string, std::optional<double>> by;
  for (const auto& x : t.run.metrics) by[x.name] = x.value;
  EXPECT_EQ(by.at("fps_avg.mean"), 50.0);
  EXPECT_EQ(by.at("fps_avg.ci_across_runs.1"), 51.0);
}

TEST(ReadResultDir, AMarkRunWithItsScores) {
  const fs::path dir = temp_root() / "mark";
  write(dir / "mark.json", {{"started_at", "2026-12-01T10:47:15Z"},
                            {"suite", {{"score", 1092.5}, {"lower", 932.4}, {"upper", 1216.6}, {"display", "1092.53 @ 60fps"}}},
                            {"options", {{"display", "Xvfb :0 (embedded)"}, {"durationS", 10.0}}},
                            {"machine", {{"hostname", "bench-1"}}},
                            {"tests", {{{"name", "multiply"}, {"score", 2807.7}, {"frames", 949}, {"ramps", json::array()}}}}});
  const db::RecordTree t = db::read_result_dir(dir.string());
  EXPECT_EQ(t.run.kind, "mark");
  EXPECT_EQ(t.status_file, "mark.json");
  EXPECT_EQ(t.run.start_time, "2026-12-01T10:47:15Z");
  EXPECT_EQ(t.run.host, "bench-1");
  EXPECT_EQ(json::parse(t.run.options)["tests"], json::array({"multiply"}));
  std::map<std::string, std::optional<double>> by;
  for (const auto& x : t.run.metrics) by[x.name] = x.value;
  EXPECT_EQ(by.at("suite.score"), 1092.5);
  EXPECT_EQ(by.at("tests.multiply.score"), 2807.7);
  EXPECT_EQ(by.at("tests.multiply.frames"), 949.0);
  EXPECT_FALSE(by.count("suite.display"));
}

TEST(ReadResultDir, NotAResultDirectoryIsNamed) {
  const fs::path dir = temp_root() / "empty";
  fs::create_directories(dir);
  EXPECT_THROW(db::read_result_dir(dir.string()), db::StoreError);
}

TEST(RecordResults, ASuiteAndItsBenchmarksGoInParentFirst) {
  const fs::path dir = temp_root() / "suite";
  write(dir / "suite.json", {{"suite", "default"},
                             {"start_time", "2026-12-01T10:00:00Z"},
                             {"command_line", {"pictor", "suite", "--quick"}},
                             {"machine", {{"hostname", "bench-1"}}},
                             {"counts", {{"ok", 1}, {"failed", 0}}},
                             {"benchmarks", {{{"session_dir", "01-racing"}, {"adapter", "local"}}, {{"session_dir", "02-missing"}}}}});
  write(dir / "01-racing" / "run.json", session_run_json("2026-12-01T10:00:01Z"));
  const std::string location = fresh_sqlite();
  const db::RecordOutcome r = db::record_results(location, dir.string());
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.recorded, 2u);
  ASSERT_TRUE(r.id);
  const auto store = db::open_store(location);
  const auto suite = store->get(*r.id);
  ASSERT_TRUE(suite);
  EXPECT_EQ(suite->run.kind, "suite");
  EXPECT_EQ(suite->run.status, "ok");
  const auto children = store->children(*r.id);
  ASSERT_EQ(children.size(), 1u);
  EXPECT_EQ(children[0].run.app, "builtin:null");
}

TEST(RecordResults, ADatabaseThatCannotBeOpenedIsReportedNotThrown) {
  const fs::path dir = temp_root() / "unrecorded";
  write(dir / "run.json", session_run_json("2026-12-01T10:00:00Z"));
  // The database's path is a directory: SQLite cannot open it.
  const fs::path bad = temp_root() / "a-directory.db";
  fs::create_directories(bad);
  const db::RecordOutcome r = db::record_results(bad.string(), dir.string());
  EXPECT_FALSE(r.id);
  EXPECT_NE(r.error.find("cannot open"), std::string::npos) << r.error;
  ASSERT_EQ(r.not_recorded.size(), 1u);
  EXPECT_EQ(r.not_recorded[0], (fs::canonical(dir) / "run.json").string());
}

TEST(DefaultLocation, XdgDataHomeThenHome) {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  ::setenv("XDG_DATA_HOME", "/data/me", 1);
  EXPECT_EQ(db::default_location(), "/data/me/pictor/results.db");
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", "/home/me", 1);
  EXPECT_EQ(db::default_location(), "/home/me/.local/share/pictor/results.db");
  if (xdg) ::setenv("XDG_DATA_HOME", saved_xdg.c_str(), 1);
  if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

}  // namespace pictor::test
