// Training on a tiny hand-made recording: losses fall, the model directory is complete and
// loadable, and the same seed gives the same result.
#include "ic/torch/trainer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "ic/torch/model.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

namespace fs = std::filesystem;

class Training : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rec_ = new std::string(test::temp_dir("train-rec"));
    test::write_synthetic_rec(*rec_, 60);
  }
  static void TearDownTestSuite() { delete rec_; }
  static TrainOptions options(const std::string& out, int steps) {
    TrainOptions o;
    o.recordings = {*rec_};
    o.out = out;
    o.detector_steps = o.policy_steps = steps;
    o.batch = 8;
    o.sequence = 16;
    o.seed = 3;
    o.accept_weak = true;  // a few steps make a weak model: these tests look at it anyway
    return o;
  }
  static std::string* rec_;
};
std::string* Training::rec_ = nullptr;

TEST_F(Training, LossesFallAndModelLoads) {
  const std::string a = test::temp_dir("train-2"), b = test::temp_dir("train-60");
  const ModelManifest few = train_model(options(a, 2));
  const ModelManifest more = train_model(options(b, 60));
  const double det_few = few.info["final_losses"]["detector"], det_more = more.info["final_losses"]["detector"];
  const double pol_few = few.info["final_losses"]["policy"], pol_more = more.info["final_losses"]["policy"];
  EXPECT_LT(det_more, 0.8 * det_few);
  EXPECT_LT(pol_more, 0.8 * pol_few);
  for (const char* f : {"manifest.json", "detector.pt", "policy.pt"}) EXPECT_TRUE(fs::exists(b + "/" + f)) << f;
  Model m = Model::load(b);
  EXPECT_EQ(m.manifest().classes, (std::vector<std::string>{"player", "car"}));
  EXPECT_EQ(m.manifest().vocabulary, (std::vector<std::string>{"Left", "Right"}));
  EXPECT_GT(m.manifest().motion_scale, 0.0);  // the pointer followed the player
  const auto& info = m.manifest().info;
  EXPECT_EQ(info["training"]["data_hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(info["training"]["seed"], 3);
  EXPECT_TRUE(info["metrics"]["policy_on_labels"]["held_accuracy"].is_number());
  EXPECT_TRUE(info["parameters"]["detector"].get<int>() > 1000);
}

// A weak model — here no training at all: the detector finds nothing, the policy is no better than
// each key's majority state — is refused: WeakModelError with the reasons, nothing in MODEL, the
// verdict in the manifest it would have had. With accept_weak it is saved, verdict and all.
TEST_F(Training, WeakModelIsRefusedUnlessAccepted) {
  const std::string out = test::temp_dir("train-weak");
  TrainOptions o = options(out, 0);
  o.accept_weak = false;
  try {
    train_model(o);
    FAIL() << "a model trained for 0 steps was saved";
  } catch (const WeakModelError& e) {
    EXPECT_NE(std::string(e.what()).find("weak model, not saved"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--accept-weak"), std::string::npos) << e.what();
    EXPECT_EQ(e.manifest.info["verdict"]["weak"], true);
    EXPECT_FALSE(e.manifest.info["verdict"]["reasons"].empty());
  }
  EXPECT_FALSE(fs::exists(out + "/manifest.json"));
  EXPECT_FALSE(fs::exists(out + "/policy.pt"));
  o.accept_weak = true;
  const ModelManifest saved = train_model(o);
  EXPECT_EQ(saved.info["verdict"]["weak"], true);
  const Model m = Model::load(out);
  ASSERT_TRUE(m.manifest().weak.has_value());
  EXPECT_TRUE(*m.manifest().weak);
  EXPECT_FALSE(m.manifest().weak_reasons.empty());
  // The teacher's input mix over the whole recording, for the driver's fidelity report.
  const nlohmann::json& teacher = m.manifest().info["teacher"];
  EXPECT_GT(teacher["inputs_per_minute"].get<double>(), 0.0);
  EXPECT_GT(teacher["presses"]["Left"].get<int>() + teacher["presses"]["Right"].get<int>(), 0);
}

TEST_F(Training, SameSeedSameModel) {
  const std::string a = test::temp_dir("train-seed-a"), b = test::temp_dir("train-seed-b");
  const ModelManifest x = train_model(options(a, 5));
  const ModelManifest y = train_model(options(b, 5));
  EXPECT_EQ(x.info["final_losses"], y.info["final_losses"]);
  auto bytes = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(a + "/policy.pt"), bytes(b + "/policy.pt"));
}

TEST_F(Training, PointerTargetStatisticsFromClicks) {
  // Every 4th frame a click on the player box at (cx, cy + 0.2 h): the labels go to the player,
  // the mean aim offset is (0, 0.2) box units, and button1 presses are all on the player.
  const std::string rec = test::temp_dir("train-clicks"), out = test::temp_dir("train-clicks-model");
  test::write_synthetic_clicks(rec, 60);
  TrainOptions o = options(out, 20);
  o.recordings = {rec};
  const ModelManifest m = train_model(o);
  ASSERT_EQ(m.aim_offsets.size(), 2u);
  EXPECT_NEAR(m.aim_offsets[0][0], 0.0, 0.01);
  EXPECT_NEAR(m.aim_offsets[0][1], 0.2, 0.01);
  EXPECT_EQ(m.aim_offsets[1][0], 0.0);  // the car was never clicked
  ASSERT_EQ(m.event_given_target.size(), 3u);
  // 12 training presses on the player, none of them a move: (12 + 1) / (12 + 2).
  EXPECT_NEAR(m.event_given_target[0][0], 13.0 / 14.0, 1e-9);
  EXPECT_NEAR(m.event_given_target[1][0], 0.5, 1e-9);
  const auto& t = m.info["metrics"]["pointer_target"];
  EXPECT_EQ(t["events"], 3);  // frames 48, 52, 56 are held out
  EXPECT_TRUE(t["final_loss"].is_number());
  // The threshold is calibrated on the (barely trained) detector's boxes: the driver may aim
  // when some held-out event landed on a detected box, never otherwise.
  if (t["events_on_a_box"].get<int>() > 0) EXPECT_LE(m.target_threshold, 1.0);
  else EXPECT_GT(m.target_threshold, 1.0);
  Model loaded = Model::load(out);
  EXPECT_EQ(loaded.manifest().aim_offsets, m.aim_offsets);
}

TEST_F(Training, RejectsRecordingWithoutLabels) {
  const std::string rec = test::temp_dir("train-nolabels");
  test::write_synthetic_rec(rec, 8);
  fs::remove_all(rec + "/labels");
  TrainOptions o = options(test::temp_dir("train-nolabels-out"), 2);
  o.recordings = {rec};
  EXPECT_THROW(train_model(o), UsageError);
}

}  // namespace
}  // namespace pictor::ic
