// Loading a recording for training: labels, the behavioural-cloning targets, bad label files.
#include "ic/training_data.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/error.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

TEST(TrainingData, TargetsFollowTheRecordedInputs) {
  const std::string dir = test::temp_dir("targets");
  test::write_synthetic_rec(dir, 20);
  const TrainingRecording rec = load_training_recording(dir);
  ASSERT_EQ(rec.frames.size(), 20u);
  EXPECT_FALSE(rec.frames[3].objects.has_value());  // no label file
  ASSERT_TRUE(rec.frames[0].objects.has_value());
  ASSERT_EQ(rec.frames[0].objects->size(), 2u);
  EXPECT_EQ((*rec.frames[0].objects)[1].cls, 1);
  for (std::size_t i = 0; i < rec.frames.size(); ++i) {
    const TrainingFrame& f = rec.frames[i];
    ASSERT_EQ(f.held.size(), 2u);
    const double cx = 0.5 + 0.35 * std::sin(static_cast<double>(i) * 0.3);
    // Pressed 5 ms after the frame: the key wanted for frame i is held in its interval.
    if (cx < 0.5) EXPECT_EQ(f.held[1], 1.0f) << i;
    else EXPECT_EQ(f.held[0], 1.0f) << i;
    // Pointer moves to the player's x after each frame: motion over frame i's interval.
    if (i > 0) {
      const double prev = 0.5 + 0.35 * std::sin(static_cast<double>(i - 1) * 0.3);
      EXPECT_NEAR(f.dx, static_cast<int>(cx * 1280) - static_cast<int>(prev * 1280), 0.5) << i;
      EXPECT_EQ(f.dy, 0.0f);
    }
  }
  // Frame 0's interval holds the first pointer position: no earlier position, no motion.
  EXPECT_EQ(rec.frames[0].dx, 0.0f);
}

TEST(TrainingData, BadLabelLineNamesFileAndLine) {
  const std::string dir = test::temp_dir("badlabel");
  test::write_synthetic_rec(dir, 6);
  std::ofstream(dir + "/labels/000002.txt") << "0 0.5 0.5 0.1 0.1\n7 0.5 0.5 0.1 0.1\n";
  try {
    load_training_recording(dir);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("000002.txt:2:"), std::string::npos) << e.what();
  }
}

TEST(TrainingData, HashChangesWithAnyFile) {
  const std::string dir = test::temp_dir("hash");
  test::write_synthetic_rec(dir, 6);
  const std::string h1 = training_data_hash({load_training_recording(dir)});
  EXPECT_EQ(h1.size(), 16u);
  EXPECT_EQ(h1, training_data_hash({load_training_recording(dir)}));
  std::ofstream(dir + "/labels/000001.txt", std::ios::app) << "1 0.1 0.1 0.1 0.1\n";
  EXPECT_NE(h1, training_data_hash({load_training_recording(dir)}));
}

TEST(TrainingData, IncompatibleRecordingsRejected) {
  const std::string a = test::temp_dir("compat-a"), b = test::temp_dir("compat-b");
  test::write_synthetic_rec(a, 4);
  test::write_synthetic_rec(b, 4);
  auto ra = load_training_recording(a), rb = load_training_recording(b);
  rb.info.vocabulary = {"Left", "Up"};
  EXPECT_THROW(check_compatible({ra, rb}), UsageError);
  EXPECT_NO_THROW(check_compatible({ra, ra}));
}

}  // namespace
}  // namespace pictor::ic
