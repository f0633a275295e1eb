// Recording files: write → read round trips, rejection of bad rows, and the per-frame actions.
#include "ic/recording.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "temp_dir.h"

namespace pictor::ic {
namespace {

using drivers::Input;
using drivers::InputKind;

RecordingInfo sample_info() {
  RecordingInfo info;
  info.game = "builtin:racing:seed=3";
  info.driver = "reference:game=racing,seed=1";
  info.synthetic = true;
  info.net = "delay=20ms";
  info.window = {1280, 720};
  info.frames = 3;
  info.inputs = 4;
  info.duration_s = 4.5;
  info.classes = {"player", "car", "obstacle"};
  info.vocabulary = {"Up", "Left", "button1"};
  return info;
}

TEST(Recording, InfoRoundTrip) {
  const std::string dir = test::temp_dir("info");
  const RecordingInfo info = sample_info();
  write_recording_info(dir + "/recording.json", info);
  const RecordingInfo back = read_recording_info(dir + "/recording.json");
  EXPECT_EQ(back.game, info.game);
  EXPECT_EQ(back.driver, info.driver);
  EXPECT_TRUE(back.synthetic);
  EXPECT_EQ(back.net, "delay=20ms");
  EXPECT_EQ(back.window, info.window);
  EXPECT_EQ(back.frame_size, kDefaultFrameSize);
  EXPECT_EQ(back.frames, 3u);
  EXPECT_EQ(back.inputs, 4u);
  EXPECT_DOUBLE_EQ(back.duration_s, 4.5);
  EXPECT_EQ(back.classes, info.classes);
  EXPECT_EQ(back.vocabulary, info.vocabulary);
  EXPECT_EQ(back.session, "session");
}

TEST(Recording, InfoMissingKeyNamesIt) {
  const std::string dir = test::temp_dir("info_bad");
  auto j = recording_info_json(sample_info());
  j.erase("vocabulary");
  std::ofstream(dir + "/recording.json") << j.dump();
  try {
    read_recording_info(dir + "/recording.json");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'vocabulary'"), std::string::npos) << e.what();
  }
}

// An integer field given as a float beyond int's range was converted by nlohmann's get<int>()
// with undefined behaviour (the flaw the manifest fuzz target found in manifest.json).
TEST(Recording, IntegerFieldsBeyondTheirRangeAreErrorsNotConversions) {
  const std::string dir = test::temp_dir("info_range");
  const auto error_of = [&](const char* key, const nlohmann::json& value) -> std::string {
    auto j = recording_info_json(sample_info());
    j[key] = value;
    std::ofstream(dir + "/recording.json") << j.dump();
    try {
      read_recording_info(dir + "/recording.json");
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  const std::string path = dir + "/recording.json";
  EXPECT_EQ(error_of("schema", 3e10), path + ": 'schema' must be a whole number in int's range");
  EXPECT_EQ(error_of("window", {1e30, 720}), path + ": 'window' must list whole numbers in int's range");
  EXPECT_EQ(error_of("frames", -5), path + ": 'frames' must be a non-negative whole number in 64-bit range");
  EXPECT_EQ(error_of("frames", 12.5), path + ": 'frames' must be a non-negative whole number in 64-bit range");
  std::ofstream(path) << std::string(100'000, '[') << std::string(100'000, ']');
  try {
    read_recording_info(path);
    FAIL() << "a deeply nested file was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": JSON nested more than 64 levels deep");
  }
}

TEST(Recording, FramesAndInputsRoundTrip) {
  const std::string dir = test::temp_dir("rows");
  const std::vector<RecFrame> frames{{0, 1000, 5, std::nullopt, rec_frame_file(0)},
                                     {1, 2000, std::nullopt, std::nullopt, rec_frame_file(1)},
                                     {2, 3000, 7, 2, rec_frame_file(2)}};
  const std::vector<RecInput> inputs{{900, Input{InputKind::key_press, 0xff52}},
                                     {950, Input{InputKind::pointer_motion, 0, 10, 20}},
                                     {1500, Input{InputKind::button_press, 1, 30, 40}},
                                     {2500, Input{InputKind::button_release, 1}},
                                     {2600, Input{InputKind::key_release, 0xff52}}};
  write_rec_frames(dir + "/frames.csv", frames);
  write_rec_inputs(dir + "/inputs.csv", inputs);
  const auto f = read_rec_frames(dir + "/frames.csv");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].app_frame, 5u);
  EXPECT_FALSE(f[0].tag);
  EXPECT_FALSE(f[1].app_frame);
  EXPECT_EQ(f[2].tag, 2u);
  EXPECT_EQ(f[2].file, "frames/000002.jpg");
  EXPECT_EQ(read_rec_inputs(dir + "/inputs.csv"), inputs);
  // The code column holds names, as the format says.
  std::ifstream in(dir + "/inputs.csv");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("900,key_press,Up,,\n"), std::string::npos) << text;
  EXPECT_NE(text.find("950,pointer_motion,,10,20\n"), std::string::npos) << text;
}

TEST(Recording, BadInputRowNamesFileAndLine) {
  const std::string dir = test::temp_dir("bad_rows");
  std::ofstream(dir + "/inputs.csv") << "# pictor rec_inputs schema 1\nt_ns,kind,code,x,y\n10,key_press,Up,,\n"
                                        "20,key_press,NoSuchKeyAnywhere,,\n";
  try {
    read_rec_inputs(dir + "/inputs.csv");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("inputs.csv:4:"), std::string::npos) << e.what();
  }
  std::ofstream(dir + "/inputs2.csv") << "# pictor rec_inputs schema 1\nt_ns,kind,code,x,y\n10,key_press,button1,,\n";
  EXPECT_THROW(read_rec_inputs(dir + "/inputs2.csv"), UsageError);
  std::ofstream(dir + "/frames.csv") << "# pictor something else\n";
  EXPECT_THROW(read_rec_frames(dir + "/frames.csv"), UsageError);
  EXPECT_THROW(read_rec_frames(dir + "/absent.csv"), UsageError);
}

TEST(Recording, FrameActionsCountTapsAndMotion) {
  Recording rec;
  rec.info.vocabulary = {"Up", "button1"};
  rec.frames = {{0, 100, 0, 0, ""}, {1, 200, 1, 0, ""}, {2, 300, 2, 1, ""}, {3, 400, 3, 2, ""}};
  rec.inputs = {{50, Input{InputKind::key_press, 0xff52}},              // before frame 0: counts for it
                {120, Input{InputKind::pointer_motion, 0, 10, 10}},
                {150, Input{InputKind::pointer_motion, 0, 14, 7}},
                {210, Input{InputKind::button_press, 1, 20, 5}},       // a tap inside frame 1
                {220, Input{InputKind::button_release, 1}},
                {250, Input{InputKind::key_release, 0xff52}},
                {450, Input{InputKind::key_press, 0x61}}};            // not in the vocabulary
  const auto a = derive_frame_actions(rec);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].held, (std::vector<bool>{true, false}));
  EXPECT_EQ(a[0].dx, 0);  // no position before the first motion
  EXPECT_EQ(a[0].pointer_x, 14);
  EXPECT_EQ(a[1].held, (std::vector<bool>{true, true}));
  EXPECT_EQ(a[1].dx, 6);
  EXPECT_EQ(a[1].dy, -2);
  EXPECT_EQ(a[2].held, (std::vector<bool>{false, false}));
  EXPECT_EQ(a[2].dx, 0);
  EXPECT_EQ(a[3].held, (std::vector<bool>{false, false}));
}

TEST(Recording, FrameActionsMarkPressOnsetsAndMoves) {
  Recording rec;
  rec.info.vocabulary = {"Up", "button1"};
  rec.frames = {{0, 100, 0, 0, ""}, {1, 200, 1, 0, ""}, {2, 300, 2, 1, ""}, {3, 400, 3, 2, ""}};
  rec.inputs = {{50, Input{InputKind::key_press, 0xff52}},             // onset counts for frame 0
                {210, Input{InputKind::key_release, 0xff52}},          // a re-press inside frame 1:
                {235, Input{InputKind::key_press, 0xff52}},            // held throughout, pressed again
                {240, Input{InputKind::pointer_motion, 0, 10, 10}},    // first position: a move
                {310, Input{InputKind::pointer_motion, 0, 10, 10}},    // same place: no move
                {320, Input{InputKind::button_press, 1, 10, 10}}};
  const auto a = derive_frame_actions(rec);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].pressed, (std::vector<bool>{true, false}));
  EXPECT_EQ(a[1].pressed, (std::vector<bool>{true, false}));
  EXPECT_EQ(a[1].held, (std::vector<bool>{true, false}));
  EXPECT_EQ(a[2].pressed, (std::vector<bool>{false, true}));
  EXPECT_EQ(a[3].pressed, (std::vector<bool>{false, false}));  // held from before: no onset
  EXPECT_EQ(a[3].held, (std::vector<bool>{true, true}));
  EXPECT_FALSE(a[0].moved);
  EXPECT_TRUE(a[1].moved);
  EXPECT_FALSE(a[2].moved);
}

}  // namespace
}  // namespace pictor::ic
