// The real thing: `pictor mark --tests multiply,paths --duration 5` on the embedded Xvfb +
// llvmpipe must finish, write a complete mark.json and frames.csv files, and its samples must
// re-score to the same numbers through `pictor mark score`, and the run must be in the results
// database with the same figures (`pictor db list`, `pictor db show`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run(const std::string& command, int& rc) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  rc = pclose(pipe);
  return out;
}

TEST(MarkSystem, TwoTestsOnXvfbWriteACompleteResult) {
  const fs::path dir = fs::temp_directory_path() / ("pictor-mark-system-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  int rc = 0;
  const fs::path db = fs::temp_directory_path() / ("pictor-mark-system-" + std::to_string(::getpid()) + ".db");
  fs::remove(db);
  const std::string out = run(std::string(PICTOR_BIN) + " --quiet mark --tests multiply,paths --duration 5 --size small --out " +
                                  dir.string() + " --db " + db.string(), rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("Score:"), std::string::npos) << out;
  EXPECT_NE(out.find("@ 60fps"), std::string::npos) << out;

  const json mark = json::parse(read(dir / "mark.json"));
  EXPECT_EQ(mark["schema"], 1);
  EXPECT_EQ(mark["method"], "MotionMark 1.3.1");
  for (const char* key : {"cpu_model", "cores", "memory_kib", "kernel", "gl_renderer", "gl_version"})
    EXPECT_TRUE(mark["machine"].contains(key)) << key;
  EXPECT_NE(mark["machine"]["gl_renderer"].get<std::string>().find("llvmpipe"), std::string::npos);
  ASSERT_EQ(mark["tests"].size(), 2u);
  for (const auto& t : mark["tests"]) {
    const std::string name = t["name"];
    ASSERT_TRUE(t["score"].is_number()) << name;
    EXPECT_LE(t["lower"].get<double>(), t["score"].get<double>()) << name;
    EXPECT_GE(t["upper"].get<double>(), t["score"].get<double>()) << name;
    EXPECT_GE(t["score"].get<double>(), 1) << name;
    EXPECT_FALSE(t["ramps"].empty()) << name;
    EXPECT_TRUE(t["regression"].contains("changePoint")) << name;
    EXPECT_TRUE(t["stageMaxReached"].is_boolean()) << name;
    EXPECT_TRUE(t["stageCapped"].is_boolean()) << name;
    EXPECT_GT(t["samples"]["controller"].size(), 100u) << name;
    EXPECT_GT(t["samples"]["scored"].size(), 50u) << name;

    // frames.csv in the Pictor format, one row per frame shown.
    const std::string csv = read(dir / name / "frames.csv");
    EXPECT_EQ(csv.rfind("frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n", 0), 0u)
        << name;
    long rows = 0;
    for (char c : csv) rows += c == '\n';
    EXPECT_EQ(rows - 1, t["frames"].get<long>() - 1) << name;  // the header row, then one per frame shown

    // The written samples re-score to the reported numbers.
    const json rescored = json::parse(run(std::string(PICTOR_BIN) + " mark score " + (dir / name / "samples.json").string(), rc));
    ASSERT_EQ(rc, 0) << name;
    EXPECT_EQ(rescored["score"].get<double>(), t["score"].get<double>()) << name;
    EXPECT_EQ(rescored["lower"].get<double>(), t["lower"].get<double>()) << name;
    EXPECT_EQ(rescored["upper"].get<double>(), t["upper"].get<double>()) << name;
  }
  ASSERT_TRUE(mark["suite"].is_object());
  EXPECT_GT(mark["suite"]["score"].get<double>(), 0);

  // The run is in the results database, with the figures mark.json reports.
  const json runs = json::parse(run(std::string(PICTOR_BIN) + " db --db " + db.string() + " list --json", rc));
  ASSERT_EQ(rc, 0);
  ASSERT_EQ(runs.size(), 1u) << runs.dump();
  EXPECT_EQ(runs[0]["kind"], "mark");
  EXPECT_EQ(fs::path(runs[0]["dir"].get<std::string>()), fs::absolute(dir));
  const json shown = json::parse(run(std::string(PICTOR_BIN) + " db --db " + db.string() + " show " +
                                         std::to_string(runs[0]["id"].get<long>()) + " --json", rc));
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(shown["metrics"]["suite.score"], mark["suite"]["score"]) << shown["metrics"].dump();
  for (const auto& t : mark["tests"])
    EXPECT_EQ(shown["metrics"]["tests." + t["name"].get<std::string>() + ".score"], t["score"]) << t["name"];
  fs::remove_all(dir);
  fs::remove(db);
}

TEST(MarkSystem, BadOptionsGiveOneLineAndExit2) {
  int rc = 0;
  const std::string out = run(std::string(PICTOR_BIN) + " mark --tests nosuch 2>&1", rc);
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  EXPECT_NE(out.find("unknown mark test 'nosuch'"), std::string::npos) << out;
  run(std::string(PICTOR_BIN) + " mark --size 12 2>&1", rc);
  EXPECT_EQ(WEXITSTATUS(rc), 2);
}

// `pictor mark score` on hostile or unscorable input: exit 2 and one short `pictor: …` line on
// stderr, nothing on stdout — no crash on 100 000 nested arrays, no 100 KB line at 50 000.
TEST(MarkSystem, ScoreRefusesBadInputWithOneShortLine) {
  const fs::path dir = fs::temp_directory_path() / ("pictor-mark-score-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::pair<std::string, std::string> cases[] = {
      {write("deep100k.json", std::string(100'000, '[') + std::string(100'000, ']')), "nested more than 64 levels"},
      {write("deep50k.json", "{\"samples\": " + std::string(50'000, '[') + std::string(50'000, ']') + "}"),
       "nested more than 64 levels"},
      {write("long.json", "{\"samples\": [[\"" + std::string(100'000, 'x') + "\\u0007\", 0, 1, 16]]}"),
       "frame type must be"},
      {std::string(PICTOR_MARK_TEST_DATA) + "/sparse.json", "MotionMark 1.3.1 cannot score these samples"},
  };
  for (const auto& [file, cause] : cases) {
    int rc = 0;
    const std::string err = run(std::string(PICTOR_BIN) + " mark score " + file + " 2>&1 >/dev/null", rc);
    const std::string out = run(std::string(PICTOR_BIN) + " mark score " + file + " 2>/dev/null", rc);
    ASSERT_TRUE(WIFEXITED(rc)) << file << " ended by a signal";
    EXPECT_EQ(WEXITSTATUS(rc), 2) << file;
    EXPECT_TRUE(out.empty()) << file;
    EXPECT_EQ(err.rfind("pictor: ", 0), 0u) << file << ": " << err.substr(0, 300);
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << file << ": " << err.substr(0, 300);
    EXPECT_LT(err.size(), 300u) << file << ": " << err.substr(0, 300);
    EXPECT_NE(err.find(cause), std::string::npos) << file << ": " << err.substr(0, 300);
  }
  fs::remove_all(dir);
}

TEST(MarkSystem, IterationsEachWriteAResultAndTheMeanIsOverThem) {
  const fs::path dir = fs::temp_directory_path() / ("pictor-mark-iterations-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  int rc = 0;
  const std::string out = run(std::string(PICTOR_BIN) + " --quiet mark --iterations 2 --tests paths --duration 5 --size small"
                                  " --no-db --out " + dir.string(), rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("run to run 95 %"), std::string::npos) << out;
  const json mark = json::parse(read(dir / "mark.json"));
  EXPECT_EQ(mark["options"]["iterations"], 2);
  ASSERT_EQ(mark["iterations"].size(), 2u);
  double sum = 0;
  for (int k = 1; k <= 2; ++k) {
    // Each iteration is a complete result of its own, with MotionMark's bootstrap interval.
    const json it = json::parse(read(dir / ("iteration-" + std::to_string(k)) / "mark.json"));
    ASSERT_TRUE(it["suite"].is_object()) << k;
    EXPECT_EQ(it["suite"]["score"], mark["iterations"][k - 1]["suite"]["score"]) << k;
    EXPECT_TRUE(fs::exists(dir / ("iteration-" + std::to_string(k)) / "paths" / "samples.json")) << k;
    sum += it["suite"]["score"].get<double>();
  }
  EXPECT_DOUBLE_EQ(mark["suite"]["score"].get<double>(), sum / 2);
  EXPECT_LE(mark["suite"]["lower"].get<double>(), mark["suite"]["score"].get<double>());
  EXPECT_GE(mark["suite"]["upper"].get<double>(), mark["suite"]["score"].get<double>());
  EXPECT_EQ(mark["tests"][0]["scores"].size(), 2u);
  fs::remove_all(dir);
}

}  // namespace
