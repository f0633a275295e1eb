// Model directories: save → load gives the same outputs; missing, truncated, garbage and
// mismatched files give one clear UsageError naming the file, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "ic/detections.h"
#include "ic/torch/model.h"
#include "ic/torch/networks.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

namespace fs = std::filesystem;

ModelManifest small_manifest() {
  ModelManifest m = test::hand_manifest({"player", "car"}, {"Left", "Right"});
  m.motion_scale = 0.05;
  m.hold_thresholds = {0.5, 0.4};
  m.release_thresholds = {0.3, 0.2};
  m.repress_scales = {0.5, 0.0};
  m.onset_scales = {1.0, 2.0, 0.5};
  m.frame_interval_ms = 18.5;
  m.target_radius = 0.04;
  m.aim_offsets = {{{0.0, 0.2}}, {{0.1, 0.25}}};
  m.event_given_target = {{0.8, 0.1, 0.1}, {0.1, 0.1, 0.8}, {1.0 / 3, 1.0 / 3, 1.0 / 3}};
  m.target_threshold = 0.35;
  m.aim_frame = "crosshair";
  m.aim_gain = 0.34;
  m.aim_interval_ms = 312.5;
  m.confidence = 0.0;  // every cell decodes: compares the whole output
  m.nms_iou = 1.0;
  return m;
}

struct SavedModel {
  std::string dir;
  ModelManifest manifest;
  DetectorNet det{nullptr};
  PolicyNet pol{nullptr};
};

SavedModel save_random_model(const std::string& name) {
  torch::set_num_threads(1);
  torch::manual_seed(7);
  SavedModel s;
  s.dir = test::temp_dir(name);
  s.manifest = small_manifest();
  s.det = DetectorNet(s.manifest.shape, 2);
  s.pol = PolicyNet(s.manifest.features.size(), s.manifest.shape.policy_hidden, s.manifest.policy_outputs());
  save_model_dir(s.dir, s.manifest, s.det, s.pol);
  return s;
}

TEST(ModelFiles, SaveLoadRoundTripSameOutputs) {
  SavedModel s = save_random_model("roundtrip");
  Model loaded = Model::load(s.dir);
  EXPECT_EQ(loaded.manifest().classes, s.manifest.classes);
  EXPECT_DOUBLE_EQ(loaded.manifest().motion_scale, 0.05);
  std::vector<std::uint8_t> img(3 * 128 * 72);
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<std::uint8_t>((i * 37) % 251);
  const auto got = loaded.detect(img.data());
  torch::NoGradGuard no_grad;
  const torch::Tensor ref = s.det->forward(torch::from_blob(img.data(), {1, 3, 72, 128}, torch::kUInt8).to(torch::kFloat32));
  EXPECT_EQ(got.size(), 16u * 9u);  // threshold 0, no suppression: one per cell
  const torch::Tensor y = ref.contiguous();
  const auto expect = decode_grid(GridOutput{y.data_ptr<float>(), 16, 9, 2}, 0.0, 1.0);
  ASSERT_EQ(got.size(), expect.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].cls, expect[i].cls);
    EXPECT_FLOAT_EQ(got[i].confidence, expect[i].confidence);
    EXPECT_FLOAT_EQ(got[i].cx, expect[i].cx);
    EXPECT_FLOAT_EQ(got[i].h, expect[i].h);
  }
  // The policy: two steps with state, against the module run over the two-step sequence.
  std::vector<float> f1(48, 0.0f), f2(48, 0.0f);
  f1[0] = 1, f1[1] = 0.3f, f2[6] = 1, f2[7] = 0.8f;
  const PolicyOutput p1 = loaded.policy_step(f1);
  const PolicyOutput p2 = loaded.policy_step(f2);
  torch::Tensor x = torch::zeros({1, 2, 48});
  x[0][0].copy_(torch::from_blob(f1.data(), {48}));
  x[0][1].copy_(torch::from_blob(f2.data(), {48}));
  const torch::Tensor py = std::get<0>(s.pol->forward(x));
  EXPECT_NEAR(p1.held_probability[0], torch::sigmoid(py[0][0][0]).item<float>(), 1e-6);
  // Output order: held per key, onset per key, pointer move, dx, dy.
  EXPECT_NEAR(p1.onset_probability[1], torch::sigmoid(py[0][0][3]).item<float>(), 1e-6);
  EXPECT_NEAR(p2.move_probability, torch::sigmoid(py[0][1][4]).item<float>(), 1e-6);
  EXPECT_NEAR(p2.dy, py[0][1][6].item<float>() * 0.05f, 1e-6);
  EXPECT_EQ(loaded.manifest().hold_thresholds, (std::vector<double>{0.5, 0.4}));
  EXPECT_EQ(loaded.manifest().release_thresholds, (std::vector<double>{0.3, 0.2}));
  EXPECT_EQ(loaded.manifest().onset_scales, (std::vector<double>{1.0, 2.0, 0.5}));
  EXPECT_DOUBLE_EQ(loaded.manifest().frame_interval_ms, 18.5);
  EXPECT_NEAR(p2.held_probability[1], torch::sigmoid(py[0][1][1]).item<float>(), 1e-6);
  EXPECT_NEAR(p2.dx, py[0][1][5].item<float>() * 0.05f, 1e-6);
  // Then the pointer-target logits: one per feature slot (2 classes x 4) and "no object", a softmax.
  ASSERT_EQ(p2.target_probability.size(), 9u);
  const torch::Tensor target = torch::softmax(py[0][1].slice(0, 7), 0);
  for (std::int64_t e = 0; e < 9; ++e)
    EXPECT_NEAR(p2.target_probability[static_cast<std::size_t>(e)], target[e].item<float>(), 1e-6) << e;
  EXPECT_DOUBLE_EQ(loaded.manifest().target_radius, 0.04);
  EXPECT_DOUBLE_EQ(loaded.manifest().target_threshold, 0.35);
  EXPECT_EQ(loaded.manifest().aim_offsets, s.manifest.aim_offsets);
  EXPECT_EQ(loaded.manifest().event_given_target, s.manifest.event_given_target);
  EXPECT_EQ(loaded.manifest().aim_frame, "crosshair");
  EXPECT_DOUBLE_EQ(loaded.manifest().aim_gain, 0.34);
  EXPECT_DOUBLE_EQ(loaded.manifest().aim_interval_ms, 312.5);
  // reset_policy starts the sequence again.
  loaded.reset_policy();
  EXPECT_NEAR(loaded.policy_step(f1).held_probability[0], p1.held_probability[0], 1e-6);
}

TEST(ModelFiles, DetectionsMatchTheModule) {
  SavedModel s = save_random_model("detmatch");
  Model loaded = Model::load(s.dir);
  std::vector<std::uint8_t> img(3 * 128 * 72, 100);
  const auto a = loaded.detect(img.data());
  Model again = Model::load(s.dir);
  const auto b = again.detect(img.data());
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].cls, b[i].cls);
    EXPECT_EQ(a[i].confidence, b[i].confidence);
    EXPECT_EQ(a[i].cx, b[i].cx);
  }
}

std::string load_error(const std::string& dir) {
  try {
    Model::load(dir);
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  }
  ADD_FAILURE() << "loaded " << dir;
  return "";
}

TEST(ModelFiles, BrokenDirectoriesGiveOneClearLine) {
  EXPECT_NE(load_error("/nonexistent/pictor-model").find("no such model directory"), std::string::npos);
  {
    SavedModel s = save_random_model("nomanifest");
    fs::remove(s.dir + "/manifest.json");
    EXPECT_NE(load_error(s.dir).find("manifest.json: missing"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("badjson");
    std::ofstream(s.dir + "/manifest.json") << "{\"schema\": 1, ";
    EXPECT_NE(load_error(s.dir).find("not valid JSON"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("schema");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["schema"] = 99; });
    EXPECT_NE(load_error(s.dir).find("model schema 99"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("schema2");  // before the pointer-target head
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["schema"] = 2; });
    const std::string m = load_error(s.dir);
    EXPECT_NE(m.find("model schema 2"), std::string::npos) << m;
    EXPECT_NE(m.find("retrain"), std::string::npos) << m;
  }
  {
    SavedModel s = save_random_model("event-given-target");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["event_given_target"][1] = {0.5, 0.5}; });
    EXPECT_NE(load_error(s.dir).find("policy.event_given_target"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("aim-offsets");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"].erase("aim_offsets"); });
    EXPECT_NE(load_error(s.dir).find("missing 'aim_offsets'"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("classes");  // a class added everywhere in the manifest
    test::edit_manifest(s.dir, [](nlohmann::json& j) {
      j["classes"].push_back("tree");
      j["feature_layout"]["size"] = 72;
      j["policy"]["input"] = 72;
      j["detector"]["cell_outputs"] = 8;
      j["policy"]["outputs"] = 2 * 2 + 3 + 3 * 4 + 1;
      j["policy"]["target_entries"] = 3 * 4 + 1;
      j["policy"]["aim_offsets"].push_back({0.0, 0.0});
      j["policy"]["event_given_target"].push_back({0.5, 0.25, 0.25});
    });
    const std::string m = load_error(s.dir);
    EXPECT_NE(m.find("detector.pt"), std::string::npos) << m;
  }
  {
    SavedModel s = save_random_model("shape");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["hidden"] = 32; });
    EXPECT_NE(load_error(s.dir).find("policy.pt"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("confidence");  // a threshold no detection can reach
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["detector"]["confidence"] = 5.0; });
    EXPECT_NE(load_error(s.dir).find("detector.confidence must be in [0, 1)"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("nms");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["detector"]["nms_iou"] = 0.0; });
    EXPECT_NE(load_error(s.dir).find("detector.nms_iou"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("outputs");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["outputs"] = 9; });
    EXPECT_NE(load_error(s.dir).find("policy.outputs"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("onset-scales");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["onset_scales"] = {1.0, 1.0}; });
    EXPECT_NE(load_error(s.dir).find("policy.onset_scales"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("aim-frame");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["aim"]["frame"] = "joystick"; });
    EXPECT_NE(load_error(s.dir).find("policy.aim.frame must be pointer or crosshair"), std::string::npos);
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["aim"] = {{"frame", "crosshair"}, {"gain", 0.0}}; });
    EXPECT_NE(load_error(s.dir).find("policy.aim.gain"), std::string::npos);
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"]["aim"] = {{"frame", "crosshair"}, {"gain", 0.3}, {"interval_ms", -5}}; });
    EXPECT_NE(load_error(s.dir).find("policy.aim.interval_ms"), std::string::npos);
  }
  {
    // A schema-3 model from before crosshair aiming has no `aim`: it points.
    SavedModel s = save_random_model("no-aim");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"].erase("aim"); });
    EXPECT_EQ(Model::load(s.dir).manifest().aim_frame, "pointer");
  }
  {
    SavedModel s = save_random_model("hold-thresholds");
    test::edit_manifest(s.dir, [](nlohmann::json& j) { j["policy"].erase("hold_thresholds"); });
    EXPECT_NE(load_error(s.dir).find("missing 'hold_thresholds'"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("missingpt");
    fs::remove(s.dir + "/policy.pt");
    EXPECT_NE(load_error(s.dir).find("policy.pt: missing"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("truncated");
    fs::resize_file(s.dir + "/detector.pt", fs::file_size(s.dir + "/detector.pt") / 2);
    EXPECT_NE(load_error(s.dir).find("detector.pt"), std::string::npos);
  }
  {
    SavedModel s = save_random_model("garbage");
    std::ofstream(s.dir + "/policy.pt") << "this is not a torch archive";
    EXPECT_NE(load_error(s.dir).find("policy.pt"), std::string::npos);
  }
}

}  // namespace
}  // namespace pictor::ic
