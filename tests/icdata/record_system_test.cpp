// Real runs (Xvfb + llvmpipe): `pictor record` with the reference player writes a valid
// recording, and a replay of it runs with its inputs tracked to frames.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "icdata/frame_image.h"
#include "icdata/recording.h"
#include "temp_dir.h"

namespace pictor::icdata {
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

TEST(RecordSystem, RefusesToOverwriteARecording) {
  EXPECT_EQ(run(std::string(PICTOR_BIN) + " -q record builtin:racing -d 1s --out " + recording()), 2);
}

}  // namespace
}  // namespace pictor::icdata
