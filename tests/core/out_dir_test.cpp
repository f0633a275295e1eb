// The one rule for result directories: never into one that holds an earlier run's results
// (unless --force, which empties it), and default names that never collide.
#include "core/out_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/error.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("pictor-outdir-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  return p;
}

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "x\n";
}

TEST(OutDir, NewOrEmptyOrForeignDirectoriesAreUsed) {
  const fs::path fresh = scratch("fresh");
  EXPECT_EQ(pictor::claim_out_dir(fresh.string(), "", false), fresh);
  EXPECT_TRUE(fs::is_directory(fresh));
  EXPECT_EQ(pictor::claim_out_dir(fresh.string(), "", false), fresh);  // empty: fine
  touch(fresh / "notes.txt");  // the user's own file, no results: used, the file left alone
  EXPECT_EQ(pictor::claim_out_dir(fresh.string(), "", false), fresh);
  EXPECT_TRUE(fs::exists(fresh / "notes.txt"));
  fs::remove_all(fresh);
}

TEST(OutDir, AnEarlierSessionIsRefusedNamingForce) {
  const fs::path dir = scratch("session");
  touch(dir / "run.json");
  touch(dir / "frames.csv");
  try {
    pictor::claim_out_dir(dir.string(), "", false);
    FAIL() << "an earlier session was not refused";
  } catch (const pictor::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(dir.string()), std::string::npos) << what;
    EXPECT_NE(what.find("run.json"), std::string::npos) << what;
    EXPECT_NE(what.find("--force"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line";
  }
  EXPECT_TRUE(fs::exists(dir / "run.json")) << "a refusal deletes nothing";
}

TEST(OutDir, ResultsInSessionDirectoriesBelowCount) {
  // A suite's sessions are one level down, an IC evaluation's rounds two.
  const fs::path suite = scratch("suite");
  touch(suite / "01-racing" / "run.json");
  EXPECT_EQ(pictor::earlier_results_in(suite), (std::vector<std::string>{"01-racing/run.json"}));
  EXPECT_THROW(pictor::claim_out_dir(suite.string(), "", false), pictor::UsageError);
  const fs::path eval = scratch("eval");
  touch(eval / "r1" / "00-reference" / "frames.csv");
  EXPECT_THROW(pictor::claim_out_dir(eval.string(), "", false), pictor::UsageError);
  fs::remove_all(suite);
  fs::remove_all(eval);
}

TEST(OutDir, ForceEmptiesTheDirectorySoNoFileOfTheEarlierRunRemains) {
  const fs::path dir = scratch("force");
  touch(dir / "run.json");
  touch(dir / "game-home" / "config");
  touch(dir / "app.log");
  EXPECT_EQ(pictor::claim_out_dir(dir.string(), "", true), dir);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(OutDir, DefaultNamesAreNumberedAndNeverShared) {
  const fs::path base = scratch("default") / "20250101-120000-spin";
  const fs::path first = pictor::claim_out_dir("", base.string(), false);
  const fs::path second = pictor::claim_out_dir("", base.string(), false);
  const fs::path third = pictor::claim_out_dir("", base.string(), false);
  EXPECT_EQ(first, base);
  EXPECT_EQ(second.string(), base.string() + "-2");
  EXPECT_EQ(third.string(), base.string() + "-3");
  fs::remove_all(base.parent_path());
}

TEST(OutDir, UncreatableIsAUsageError) {
  EXPECT_THROW(pictor::claim_out_dir("/proc/pictor-cannot-write-here", "", false), pictor::UsageError);
}

}  // namespace
