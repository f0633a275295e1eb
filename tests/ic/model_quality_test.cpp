// The model verdict (weak or not, from held-out metrics), its place in the manifest (older
// manifests without one still load; a malformed one is refused), and the input mix behind the ic
// driver's fidelity report.
#include "ic/model_quality.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "ic/manifest.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

nlohmann::json metrics(double acc, double majority, double car_ap, int car_truths = 40) {
  return {{"policy_on_detector", {{"held_accuracy", acc}, {"majority_baseline_accuracy", majority}}},
          {"detector",
           {{"per_class",
             {{"player", {{"ap50", 0.9}, {"truths", 200}}},
              {"car", {{"ap50", car_ap}, {"truths", car_truths}}},
              {"obstacle", {{"ap50", nullptr}, {"truths", 0}}}}}}}};
}

TEST(ModelVerdict, GoodModelIsNotWeak) {
  const ModelVerdict v = assess_model(metrics(0.85, 0.80, 0.4));
  EXPECT_FALSE(v.weak);
  EXPECT_TRUE(v.assessed);
  EXPECT_TRUE(v.reasons.empty());
  // A class the held-out frames never show (obstacle: 0 boxes) is not judged.
}

TEST(ModelVerdict, PolicyNotAboveTheMajorityIsWeak) {
  for (const double acc : {0.715, 0.765}) {  // below, and equal: not better
    const ModelVerdict v = assess_model(metrics(acc, 0.765, 0.4));
    EXPECT_TRUE(v.weak) << acc;
    ASSERT_EQ(v.reasons.size(), 1u);
    EXPECT_NE(v.reasons[0].find("majority baseline 0.765"), std::string::npos) << v.reasons[0];
  }
}

TEST(ModelVerdict, UndetectedLabelledClassIsWeak) {
  const ModelVerdict v = assess_model(metrics(0.85, 0.80, 0.003));
  EXPECT_TRUE(v.weak);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_NE(v.reasons[0].find("class car"), std::string::npos) << v.reasons[0];
  EXPECT_NE(v.reasons[0].find("0.003"), std::string::npos) << v.reasons[0];
  EXPECT_FALSE(assess_model(metrics(0.85, 0.80, kApFloor)).weak);  // at the floor: detected
  // Labelled but with no AP at all (nothing detected): weak too.
  nlohmann::json m = metrics(0.85, 0.80, 0.5);
  m["detector"]["per_class"]["car"]["ap50"] = nullptr;
  EXPECT_TRUE(assess_model(m).weak);
  // Both rules failing give both reasons.
  EXPECT_EQ(assess_model(metrics(0.7, 0.8, 0.01)).reasons.size(), 2u);
}

TEST(ModelVerdict, JudgesTheBoxesTheDetectorCanSee) {
  // Obstacles of 1-2 px at the detector's input: AP 0.01 over all of them, 0.4 over the 30 of
  // 3 px and more. The visible figure decides; a class with no visible box is not judged.
  nlohmann::json m = metrics(0.85, 0.80, 0.4);
  m["detector"]["per_class"]["obstacle"] = {{"ap50", 0.01}, {"truths", 1300}, {"visible", {{"ap50", 0.4}, {"truths", 30}}}};
  EXPECT_FALSE(assess_model(m).weak);
  m["detector"]["per_class"]["obstacle"]["visible"] = {{"ap50", nullptr}, {"truths", 0}};
  EXPECT_FALSE(assess_model(m).weak);
  m["detector"]["per_class"]["obstacle"]["visible"] = {{"ap50", 0.02}, {"truths", 30}};
  const ModelVerdict v = assess_model(m);
  ASSERT_TRUE(v.weak);
  EXPECT_NE(v.reasons[0].find("30 held-out boxes of 3 px and more"), std::string::npos) << v.reasons[0];

  // 128x72 input: a box 0.02 x 0.05 of the frame is 2.56 x 3.6 px (hidden), 0.03 x 0.05 is 3.84 x 3.6.
  const std::vector<std::vector<Detection>> images{{{2, 0.5f, 0.5f, 0.02f, 0.05f, 1.0f}, {2, 0.5f, 0.5f, 0.03f, 0.05f, 1.0f}},
                                                   {}};
  const auto seen = visible_boxes(images, 128, 72);
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[0].size(), 1u);
  EXPECT_FLOAT_EQ(seen[0][0].w, 0.03f);
  EXPECT_TRUE(seen[1].empty());
}

TEST(ModelVerdict, NothingHeldOutIsNotAssessed) {
  const ModelVerdict v = assess_model(nlohmann::json::object());
  EXPECT_FALSE(v.weak);
  EXPECT_FALSE(v.assessed);
  EXPECT_FALSE(assess_model(nlohmann::json("garbage")).weak);
  const nlohmann::json j = verdict_json(assess_model(metrics(0.7, 0.8, 0.5)));
  EXPECT_EQ(j["weak"], true);
  EXPECT_EQ(j["reasons"].size(), 1u);
  EXPECT_TRUE(j["rule"].is_string());
}

nlohmann::json valid_manifest() {
  ModelManifest m = test::hand_manifest({"player", "car"}, {"Left", "Right"});
  m.hold_thresholds = m.release_thresholds = m.repress_scales = {0.5, 0.5};
  m.onset_scales = {1, 1, 1};
  m.aim_offsets = {{{0, 0}}, {{0, 0}}};
  m.event_given_target = {{0.5, 0.25, 0.25}, {0.5, 0.25, 0.25}, {0.5, 0.25, 0.25}};
  return manifest_json(m);
}

TEST(ModelVerdict, ManifestKeepsTheVerdictAndLoadsOlderOnes) {
  nlohmann::json j = valid_manifest();
  EXPECT_FALSE(parse_manifest(j, "m.json").weak.has_value());  // trained before verdicts
  j["verdict"] = verdict_json(assess_model(metrics(0.7, 0.8, 0.5)));
  const ModelManifest m = parse_manifest(j, "m.json");
  ASSERT_TRUE(m.weak.has_value());
  EXPECT_TRUE(*m.weak);
  ASSERT_EQ(m.weak_reasons.size(), 1u);
  EXPECT_EQ(manifest_json(m)["verdict"], j["verdict"]);  // written back as read
  for (const nlohmann::json& bad : {nlohmann::json("weak"), nlohmann::json({{"weak", 1}}), nlohmann::json::object(),
                                    nlohmann::json({{"weak", true}, {"reasons", "x"}}),
                                    nlohmann::json({{"weak", true}, {"reasons", {1}}})}) {
    j["verdict"] = bad;
    EXPECT_THROW(parse_manifest(j, "m.json"), UsageError) << bad.dump();
  }
}

TEST(InputMix, PerMinuteAndShares) {
  const nlohmann::json j = input_mix_json({30.0, 240, {60, 20, 20}}, {"Up", "Left", "Right"});
  EXPECT_DOUBLE_EQ(j["inputs_per_minute"].get<double>(), 480.0);
  EXPECT_DOUBLE_EQ(j["press_share"]["Up"].get<double>(), 0.6);
  EXPECT_EQ(j["presses"]["Left"], 20);
  // No time, no press: unknown, not 0.
  const nlohmann::json none = input_mix_json({0.0, 0, {0, 0, 0}}, {"Up", "Left", "Right"});
  EXPECT_TRUE(none["inputs_per_minute"].is_null());
  EXPECT_TRUE(none["press_share"]["Up"].is_null());
}

TEST(InputMix, FidelityBesideTheTeacher) {
  const std::vector<std::string> vocab{"Up", "Left", "Right"};
  const nlohmann::json teacher = input_mix_json({60.0, 480, {50, 25, 25}}, vocab);
  const nlohmann::json f = fidelity_json({15.0, 150, {10, 5, 5}}, teacher, vocab);  // 600 a minute
  EXPECT_DOUBLE_EQ(f["inputs_per_minute_ratio"].get<double>(), 1.25);
  EXPECT_NEAR(f["press_share_points"]["Up"].get<double>(), 0.0, 1e-9);
  EXPECT_EQ(f["teacher"], teacher);
  EXPECT_DOUBLE_EQ(f["ic"]["inputs_per_minute"].get<double>(), 600.0);
  const nlohmann::json g = fidelity_json({15.0, 150, {20, 0, 0}}, teacher, vocab);
  EXPECT_NEAR(g["press_share_points"]["Up"].get<double>(), 50.0, 1e-9);
  EXPECT_NEAR(g["press_share_points"]["Left"].get<double>(), -25.0, 1e-9);
  // A model from before the teacher's mix was kept (or any other JSON there): unknown.
  for (const nlohmann::json& t : {nlohmann::json(), nlohmann::json("x"), nlohmann::json({{"inputs_per_minute", "a"}})}) {
    const nlohmann::json h = fidelity_json({15.0, 150, {10, 5, 5}}, t, vocab);
    EXPECT_TRUE(h["inputs_per_minute_ratio"].is_null()) << t.dump();
    EXPECT_TRUE(h["press_share_points"]["Up"].is_null()) << t.dump();
  }
}

}  // namespace
}  // namespace pictor::ic
