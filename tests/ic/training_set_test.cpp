// The torch-free phases of training: the options' checks, a recording loaded into the training
// set (shape, split, detector pool), the policy's inputs and targets, and the label perturbation.
#include "ic/training_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

TEST(TrainingSlots, AsManyAsTheMostObjectsOfOneClassWithinBounds) {
  EXPECT_EQ(auto_slots_per_class({}), kMinSlots);
  EXPECT_EQ(auto_slots_per_class({{1, 0}, {2, 1}}), kMinSlots);
  EXPECT_EQ(auto_slots_per_class({{5, 0}, {2, 6}}), 6);  // strategy: 6 crystals in view
  EXPECT_EQ(auto_slots_per_class({{1, 14}}), kMaxSlots);
}

TrainOptions usable() {
  TrainOptions o;
  o.recordings = {"REC"};
  o.out = "MODEL";
  return o;
}

TEST(TrainingSet, OptionsNoTrainingCanUseAreRefusedBeforeAnythingIsRead) {
  EXPECT_NO_THROW(check_train_options(usable()));  // "REC" does not exist: nothing is read yet
  auto refused = [](void (*edit)(TrainOptions&)) {
    TrainOptions o = usable();
    edit(o);
    EXPECT_THROW(check_train_options(o), UsageError);
  };
  refused([](TrainOptions& o) { o.recordings.clear(); });
  refused([](TrainOptions& o) { o.detector_steps = -1; });
  refused([](TrainOptions& o) { o.policy_steps = -1; });
  refused([](TrainOptions& o) { o.threads = 0; });
  refused([](TrainOptions& o) { o.batch = 0; });
  refused([](TrainOptions& o) { o.sequence = 0; });
  refused([](TrainOptions& o) { o.held_out = 0.95; });
  refused([](TrainOptions& o) { o.confidence = 1.0; });
  refused([](TrainOptions& o) { o.confidence = 0.0; });
  TrainOptions automatic = usable();
  automatic.confidence.reset();
  EXPECT_NO_THROW(check_train_options(automatic));
}

class LoadedSet : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rec_ = new std::string(test::temp_dir("set-rec"));
    test::write_synthetic_rec(*rec_, 60);
  }
  static void TearDownTestSuite() { delete rec_; }
  static TrainOptions options() {
    TrainOptions o = usable();
    o.recordings = {*rec_};
    return o;
  }
  static std::string* rec_;
};
std::string* LoadedSet::rec_ = nullptr;

TEST_F(LoadedSet, FramesAreSplitAndTheShapeFollowsTheData) {
  std::vector<std::string> progress, notes;
  TrainOptions o = options();
  o.progress = [&](const std::string& line) { progress.push_back(line); };
  o.note = [&](const std::string& line) { notes.push_back(line); };
  const TrainingSet set = load_training_set(o);
  const ModelManifest& m = set.manifest;
  EXPECT_EQ(m.classes, (std::vector<std::string>{"player", "car"}));
  EXPECT_EQ(m.vocabulary, (std::vector<std::string>{"Left", "Right"}));
  EXPECT_EQ(m.features.classes, 2);
  EXPECT_EQ(m.features.per_class, kMinSlots);  // one object of each class per frame
  EXPECT_EQ(m.window_width, 1280);
  EXPECT_EQ(m.window_height, 720);
  ASSERT_EQ(set.sequences.size(), 1u);
  const Sequence& s = set.sequences[0];
  EXPECT_EQ(set.frames, 60u);
  EXPECT_EQ(s.train_end, 48u);  // the last 20 % held out
  EXPECT_EQ(set.frames_trained, 48u);
  ASSERT_EQ(s.images.size(), 60u);
  EXPECT_EQ(s.images[0].size(), 3u * 128u * 72u);
  // Frame 3 has no label file: not in the detector's pool, its objects carried from frame 2.
  EXPECT_EQ(set.detector_pool.size(), 47u);
  EXPECT_EQ(set.detector_held_out.size(), 12u);
  for (const Frame& f : set.detector_pool) EXPECT_NE(f.index, 3u);
  EXPECT_FALSE(s.truth[3]);
  EXPECT_EQ(s.objects[3].size(), s.objects[2].size());
  EXPECT_EQ(s.objects[3][0].cx, s.objects[2][0].cx);
  ASSERT_EQ(progress.size(), 1u);
  EXPECT_NE(progress[0].find("decoding 60 frames"), std::string::npos);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("60 frames (48 trained on), 47 labelled for the detector, 12 held out"), std::string::npos)
      << notes[0];
}

TEST_F(LoadedSet, DetectorInputLargerThanTheFramesIsRefused) {
  TrainOptions o = options();
  o.shape.input_width = 256;  // the frames are 128x72
  o.shape.input_height = 144;
  EXPECT_THROW(load_training_set(o), UsageError);
}

TEST_F(LoadedSet, RecordingWithoutLabelsIsRefused) {
  const std::string rec = test::temp_dir("set-nolabels");
  test::write_synthetic_rec(rec, 8);
  std::filesystem::remove_all(rec + "/labels");
  TrainOptions o = options();
  o.recordings = {rec};
  EXPECT_THROW(load_training_set(o), UsageError);
}

TEST_F(LoadedSet, PolicyDataFromTheRecordedActions) {
  TrainingSet set = load_training_set(options());
  const Sequence before = set.sequences[0];
  // The detector stand-in: the labels themselves.
  const std::vector<std::vector<std::vector<Detection>>> detected{before.objects};
  TrainOptions o = options();
  o.aim = "pointer";
  const PolicyData d = policy_data(set, detected, o);
  const ModelManifest& m = set.manifest;
  // Majority: each key's share of held frames among the trained ones.
  ASSERT_EQ(d.majority.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    double held = 0;
    for (std::size_t i = 0; i < before.train_end; ++i) held += before.held[i][k];
    EXPECT_FLOAT_EQ(d.majority[k], static_cast<float>(held / 48.0));
  }
  EXPECT_GT(m.motion_scale, 0.0);                          // the pointer follows the player
  EXPECT_DOUBLE_EQ(m.frame_interval_ms, 33.0);
  EXPECT_DOUBLE_EQ(m.target_radius, kTargetRadius);
  // Features of the labels and of the "detector", frame by frame; here they agree.
  ASSERT_EQ(d.truth_features.size(), 1u);
  ASSERT_EQ(d.truth_features[0].size(), 60u);
  EXPECT_EQ(d.truth_features[0][10].size(), static_cast<std::size_t>(m.features.size()));
  EXPECT_EQ(d.truth_features[0][10], d.detector_features[0][10]);
  EXPECT_EQ(d.truth_features[0][10], frame_features(before.objects[10], m.features));
  // The pointer events moved out of the sequences into the tracks.
  ASSERT_EQ(d.tracks.size(), 1u);
  EXPECT_EQ(d.tracks[0].event, before.pointer.event);
  EXPECT_TRUE(set.sequences[0].pointer.event.empty());
  EXPECT_EQ(d.train_ends, (std::vector<std::size_t>{48}));
  // The aim frame asked for, fitted on the pointer's moves (one nearly every frame).
  EXPECT_EQ(m.aim_frame, "pointer");
  EXPECT_EQ(d.aim.frame, "pointer");
  EXPECT_GT(d.aim.move_events, 30u);
  EXPECT_DOUBLE_EQ(m.aim_gain, 0.0);
  EXPECT_DOUBLE_EQ(m.press_on_box, 0.0);
}

TEST(TrainingSet, MedianFrameIntervalIsTheUpperMiddleGap) {
  Sequence a, b;
  a.seen_ns = {0, 10'000'000, 30'000'000};  // gaps 10, 20 ms
  b.seen_ns = {0, 40'000'000};              // gap 40 ms
  EXPECT_DOUBLE_EQ(median_frame_interval_ms({a, b}), 20.0);
  b.seen_ns = {0, 40'000'000, 90'000'000};  // gaps 10, 20, 40, 50: the upper middle
  EXPECT_DOUBLE_EQ(median_frame_interval_ms({a, b}), 40.0);
  EXPECT_DOUBLE_EQ(median_frame_interval_ms({Sequence{}}), 0.0);
}

TEST(TrainingSet, PerturbedFeaturesStayNearTheLabelsAndFollowTheSeed) {
  const FeatureLayout layout{1, 8};
  std::vector<Detection> objects;
  for (int i = 0; i < 8; ++i) objects.push_back({0, 0.1f * static_cast<float>(i + 1), 0.5f, 0.05f, 0.05f, 1.0f});
  std::mt19937_64 a(7), b(7);
  std::size_t kept = 0, draws = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<float> fa = perturbed_features(objects, layout, a);
    EXPECT_EQ(fa, perturbed_features(objects, layout, b));  // same seed, same perturbation
    for (int slot = 0; slot < 8; ++slot) {
      const float* f = &fa[static_cast<std::size_t>(slot * FeatureLayout::kSlotFields)];
      ++draws;
      if (f[0] == 0.0f) continue;  // dropped (the rest fill the slots from the left)
      ++kept;
      EXPECT_GE(f[5], 0.5f);  // confidence 0.5..1
      EXPECT_LE(f[5], 1.0f);
      EXPECT_NEAR(f[2], 0.5f, 0.0100001f);  // centre jittered by at most 1 %
    }
  }
  const double dropped = 1.0 - static_cast<double>(kept) / static_cast<double>(draws);
  EXPECT_GT(dropped, 0.02);  // 5 % expected over 1600 objects
  EXPECT_LT(dropped, 0.09);
}

}  // namespace
}  // namespace pictor::ic
