// Real runs (Xvfb + llvmpipe): `pictor record` with the reference player writes a valid
// recording, and a replay of it runs with its inputs tracked to frames.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ic/frame_image.h"
#include "ic/recording.h"
#include "temp_dir.h"

namespace pictor::ic {
namespace {

namespace fs = std::filesystem;

int run(const std::string& command) {
  const int rc = std::system((command + " >/dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// One recording shared by the tests (recording costs most of the time budget).
const std::string& recording() {
  static const std::string rec = [] {
    const std::string dir = test::temp_dir("rec") + "/rec";
    EXPECT_EQ(run(std::string(PICTOR_BIN) + " -q record --driver reference builtin:racing:seed=2 -d 4s --out " + dir), 0);
    return dir;
  }();
  return rec;
}

TEST(RecordSystem, ReferenceRecordingIsValid) {
  const Recording rec = read_recording(recording());
  EXPECT_TRUE(rec.info.synthetic);
  EXPECT_EQ(rec.info.driver.rfind("reference:game=racing,seed=1", 0), 0u) << rec.info.driver;
  EXPECT_EQ(rec.info.classes, (std::vector<std::string>{"player", "car", "obstacle"}));
  ASSERT_GT(rec.frames.size(), 20u);
  EXPECT_EQ(rec.info.frames, rec.frames.size());
  ASSERT_GT(rec.inputs.size(), 2u);
  const RgbImage first = read_jpeg_file(rec.dir + "/" + rec.frames.front().file);
  EXPECT_EQ(first.width, 256);
  EXPECT_EQ(first.height, 144);
  std::size_t non_empty = 0;
  for (const auto& f : rec.frames) {
    std::ifstream in(rec.dir + "/" + rec_label_file(f.index));
    std::string line;
    if (in && std::getline(in, line) && !line.empty()) ++non_empty;
  }
  EXPECT_GT(non_empty, rec.frames.size() / 2);  // the player's car is in every frame
  EXPECT_TRUE(fs::exists(rec.dir + "/coco.json"));
  EXPECT_TRUE(fs::exists(rec.dir + "/session/state.csv"));
  const auto actions = derive_frame_actions(rec);
  EXPECT_EQ(actions.size(), rec.frames.size());
}

TEST(RecordSystem, ReplayRunsAndIsTracked) {
  const std::string out = test::temp_dir("replay") + "/s";
  ASSERT_EQ(run(std::string(PICTOR_BIN) + " -q run builtin:racing:seed=2 -d 4s --driver replay:" + recording() + " -o " + out), 0);
  std::ifstream in(out + "/summary.json");
  const auto summary = nlohmann::json::parse(in);
  ASSERT_TRUE(summary.contains("inputs"));
  EXPECT_GT(summary["inputs"]["sent"].get<int>(), 2);
  EXPECT_GT(summary["inputs"]["matched"].get<int>(), 0);
  EXPECT_TRUE(summary["rtt_ms"]["mean"].is_number());
}

// `ic eval` in two rounds: the live reference and a baseline, each round in its own folder, every
// row's game writing its ground truth (the same app work in every row), medians over the rounds.
TEST(RecordSystem, EvalRunsRoundsWithTheSameGameInEveryRow) {
  const std::string out = test::temp_dir("eval") + "/e";
  ASSERT_EQ(run(std::string(PICTOR_BIN) + " -q ic eval --rounds 2 --reference reference --drivers slow-motion:" +
                recording() + " builtin:racing:seed=2 -d 3s -o " + out),
            0);
  std::ifstream in(out + "/ic_eval.json");
  const auto eval = nlohmann::json::parse(in);
  EXPECT_EQ(eval["rounds"], 2);
  ASSERT_EQ(eval["sessions"].size(), 4u);
  for (const auto& s : eval["sessions"]) {
    EXPECT_EQ(s["exit_code"], 0) << s.dump();
    EXPECT_TRUE(fs::exists(s["session"].get<std::string>() + "/truth/classes.txt")) << s["session"];
    EXPECT_TRUE(fs::exists(s["session"].get<std::string>() + "/state.csv")) << s["session"];
  }
  EXPECT_TRUE(fs::is_directory(out + "/r1/00-reference"));
  EXPECT_TRUE(fs::is_directory(out + "/r2/01-slow-motion"));
  ASSERT_EQ(eval["rows"].size(), 2u);
  const auto& row = eval["rows"][1];
  EXPECT_EQ(row["driver"], "slow-motion");
  ASSERT_EQ(row["per_round"].size(), 2u);
  std::size_t n = 0;
  for (const auto& r : eval["round_rows"]) n += r[1]["n"].get<std::size_t>();
  EXPECT_EQ(row["n"].get<std::size_t>(), n);
  EXPECT_GT(n, 0u);
  EXPECT_TRUE(row["mean_error_pct"].is_number());
  // A target that already names the truth directory is refused before any session starts.
  EXPECT_EQ(run(std::string(PICTOR_BIN) + " -q ic eval --reference reference --drivers slow-motion:" + recording() +
                " builtin:racing:truth=/tmp/x -d 1s -o " + out + "2"),
            2);
  EXPECT_FALSE(fs::exists(out + "2/00-reference"));
}

TEST(RecordSystem, RefusesToOverwriteARecording) {
  EXPECT_EQ(run(std::string(PICTOR_BIN) + " -q record builtin:racing -d 1s --out " + recording()), 2);
}

}  // namespace
}  // namespace pictor::ic
