// What `pictor compare` makes of its arguments, on directories laid out as run, --repeat and
// suite write them: sessions, repeated runs, suites benchmark by benchmark, comma lists.
#include "analysis/compare_input.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace pictor::analysis {
namespace {

namespace fs = std::filesystem;

class CompareInputDirs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("pictor-compare-input-" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string session(const std::string& rel) {
    fs::create_directories(root_ / rel);
    std::ofstream(root_ / rel / "run.json") << "{}\n";
    return (root_ / rel).string();
  }
  std::string suite(const std::string& rel, const std::string& benchmarks_json) {
    fs::create_directories(root_ / rel);
    std::ofstream(root_ / rel / "suite.json") << R"({"benchmarks": )" << benchmarks_json << "}\n";
    return (root_ / rel).string();
  }
  fs::path root_;
};

TEST_F(CompareInputDirs, ASessionARepeatRunAndACommaListOfSessions) {
  const std::string s = session("one");
  auto u = resolve_compare_side(s);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].sessions, std::vector<std::string>{s});
  // repeat-10 after repeat-2: numeric order.
  for (const char* k : {"r/repeat-1", "r/repeat-2", "r/repeat-10"}) session(k);
  u = resolve_compare_side((root_ / "r").string());
  ASSERT_EQ(u.size(), 1u);
  ASSERT_EQ(u[0].sessions.size(), 3u);
  EXPECT_TRUE(u[0].sessions[2].ends_with("repeat-10")) << u[0].sessions[2];
  const std::string a2 = session("two"), a3 = session("three");
  u = resolve_compare_side(s + "," + a2 + "," + a3);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].sessions, (std::vector<std::string>{s, a2, a3}));
}

TEST_F(CompareInputDirs, SuitesPairBenchmarkByBenchmarkAndSayWhatHasNoCounterpart) {
  session("old/01-racing");
  session("old/02-shooter");
  session("new/01-racing/repeat-1");
  session("new/01-racing/repeat-2");
  const std::string old_suite = suite("old", R"([{"name": "racing", "session_dir": "01-racing"},
                                                 {"name": "shooter", "session_dir": "02-shooter"},
                                                 {"name": "neverball", "session_dir": null}])");
  const std::string new_suite = suite("new", R"([{"name": "racing", "session_dir": "01-racing"}])");
  const auto a = resolve_compare_side(old_suite), b = resolve_compare_side(new_suite);
  ASSERT_EQ(a.size(), 2u) << "a skipped benchmark has no sessions";
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].sessions.size(), 2u);
  std::vector<std::string> unpaired;
  const auto pairs = pair_units(a, b, unpaired);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].name, "racing");
  ASSERT_EQ(unpaired.size(), 1u);
  EXPECT_EQ(unpaired[0], "shooter: only in A");
}

TEST_F(CompareInputDirs, WhatIsNoSessionIsAUsageErrorNamingIt) {
  fs::create_directories(root_ / "empty");
  try {
    resolve_compare_side((root_ / "empty").string());
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("empty: not a session, run or suite directory"), std::string::npos) << e.what();
  }
  try {
    resolve_compare_side((root_ / "missing").string());
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pictor::analysis
