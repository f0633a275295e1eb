// The ic driver: option parsing, key presses/releases from the policy's probabilities, rate
// limit, pointer motion inside the window, and the report's stage timings.
#include "ic/torch/ic_driver.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <thread>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "ic/torch/model.h"
#include "ic/torch/networks.h"
#include "ic/pointer_target.h"
#include "ic/torch/trainer.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

using drivers::InputKind;

TEST(IcDriverArgs, PathThenOptions) {
  const auto o = parse_ic_driver_args("/models/race-1,hold=0.7,fps=20,motion=off,act=held,seed=9");
  EXPECT_EQ(o.model, "/models/race-1");
  EXPECT_EQ(o.hold, 0.7);
  EXPECT_EQ(o.fps, 20);
  EXPECT_FALSE(o.motion);
  EXPECT_EQ(o.act, ActMode::held);
  EXPECT_EQ(o.seed, 9u);
  const auto d = parse_ic_driver_args("m");
  EXPECT_FALSE(d.hold);  // calibrated thresholds
  EXPECT_EQ(d.act, ActMode::hybrid);
  EXPECT_EQ(parse_ic_driver_args("m,act=onsets").act, ActMode::onsets);
  EXPECT_THROW(parse_ic_driver_args("m,act=maybe"), UsageError);
  EXPECT_THROW(parse_ic_driver_args("m,seed=-1"), UsageError);
  EXPECT_EQ(parse_ic_driver_args("m").model, "m");
  EXPECT_THROW(parse_ic_driver_args(""), UsageError);
  EXPECT_THROW(parse_ic_driver_args("m,hold=2"), UsageError);
  EXPECT_THROW(parse_ic_driver_args("m,speed=2"), UsageError);
}

class IcDriverTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string rec = test::temp_dir("driver-rec");
    test::write_synthetic_rec(rec, 40);
    model_ = new std::string(test::temp_dir("driver-model"));
    TrainOptions o;
    o.recordings = {rec};
    o.out = *model_;
    o.detector_steps = o.policy_steps = 5;
    o.batch = 4;
    o.sequence = 8;
    o.accept_weak = true;  // 5 steps: weak, and good enough to drive
    train_model(o);
  }
  static void TearDownTestSuite() { delete model_; }
  static std::string* model_;

  // A 320x180 bgrx window with a red box (the "player") on the left.
  std::vector<std::uint8_t> pixels = std::vector<std::uint8_t>(320 * 180 * 4, 90);
  tag::ImageView image{pixels.data(), 320, 180, 320 * 4, tag::PixelFormat::bgrx};
  drivers::ClientView view(std::int64_t now, std::uint64_t frames) {
    drivers::ClientView v;
    v.now_ns = now;
    v.frames_seen = frames;
    v.frame_seen_ns = now;
    v.image = &image;
    return v;
  }
};
std::string* IcDriverTest::model_ = nullptr;

// `in` is a `kind` input at (x, y).
void expect_input_at(const drivers::Input& in, InputKind kind, int x, int y) {
  EXPECT_EQ(in.kind, kind);
  EXPECT_EQ(in.x, x);
  EXPECT_EQ(in.y, y);
}

TEST_F(IcDriverTest, HoldThresholdDrivesPressesAndReleases) {
  auto all = make_ic_driver(parse_ic_driver_args(*model_ + ",hold=0,motion=off,act=held"));
  EXPECT_TRUE(all->wants_image());
  ASSERT_EQ(all->vocabulary().size(), 2u);
  const drivers::Step s = all->step(view(1'000'000'000, 1));
  ASSERT_EQ(s.send.size(), 2u);  // every probability >= 0: both keys pressed
  EXPECT_EQ(s.send[0].kind, InputKind::key_press);
  EXPECT_EQ(s.send[1].kind, InputKind::key_press);
  // Same frame again: nothing new to look at.
  EXPECT_TRUE(all->step(view(1'100'000'000, 1)).send.empty());
  // A later frame: still wanted, already held: nothing sent twice.
  EXPECT_TRUE(all->step(view(1'200'000'000, 2)).send.empty());

  auto none = make_ic_driver(parse_ic_driver_args(*model_ + ",hold=1,motion=off,act=held"));
  EXPECT_TRUE(none->step(view(1'000'000'000, 1)).send.empty());  // sigmoid < 1: never held
}

// A copy of the test model whose onset calibration scales are replaced by `scale`.
std::string model_with_onset_scale(const std::string& model, double scale, const std::string& name) {
  const std::string dir = test::temp_dir(name);
  for (const char* f : {"detector.pt", "policy.pt", "manifest.json"})
    std::filesystem::copy_file(model + "/" + f, dir + "/" + f, std::filesystem::copy_options::overwrite_existing);
  test::edit_manifest(dir, [scale](nlohmann::json& j) {
    for (auto& s : j["policy"]["onset_scales"]) s = scale;
    for (auto& s : j["policy"]["repress_scales"]) s = scale;
  });
  return dir;
}

TEST_F(IcDriverTest, OnsetsPressAndRePressAtTheCalibratedRate) {
  // Scale so large that every probability becomes 1: each key is pressed on the first frame and
  // released and pressed again on every later one.
  auto always = make_ic_driver(parse_ic_driver_args(model_with_onset_scale(*model_, 1e5, "onsets-always") + ",hold=0,motion=off,act=onsets"));
  const drivers::Step first = always->step(view(1'000'000'000, 1));
  ASSERT_EQ(first.send.size(), 2u);
  EXPECT_EQ(first.send[0].kind, InputKind::key_press);
  EXPECT_EQ(first.send[1].kind, InputKind::key_press);
  const drivers::Step second = always->step(view(1'100'000'000, 2));
  ASSERT_EQ(second.send.size(), 4u);
  EXPECT_EQ(second.send[0].kind, InputKind::key_release);
  EXPECT_EQ(second.send[1].kind, InputKind::key_press);
  EXPECT_EQ(second.send[0].code, second.send[1].code);
  EXPECT_EQ(always->report()["re_presses"], 2);
  // Scale 0: no onset is ever drawn, so even a held probability above the threshold presses
  // nothing (presses come from onsets only).
  auto never = make_ic_driver(parse_ic_driver_args(model_with_onset_scale(*model_, 0, "onsets-never") + ",hold=0,motion=off,act=onsets"));
  for (std::uint64_t f = 1; f <= 20; ++f) EXPECT_TRUE(never->step(view(static_cast<std::int64_t>(f) * 100'000'000, f)).send.empty());
}

TEST_F(IcDriverTest, HybridFollowsTheStateAndRePressesOnOnsets) {
  auto d = make_ic_driver(parse_ic_driver_args(model_with_onset_scale(*model_, 1e5, "hybrid-always") + ",hold=0,motion=off,act=hybrid"));
  const drivers::Step first = d->step(view(1'000'000'000, 1));  // state presses only
  ASSERT_EQ(first.send.size(), 2u);
  EXPECT_EQ(first.send[0].kind, InputKind::key_press);
  const drivers::Step second = d->step(view(1'100'000'000, 2));  // still wanted: re-pressed
  ASSERT_EQ(second.send.size(), 4u);
  EXPECT_EQ(second.send[0].kind, InputKind::key_release);
  EXPECT_EQ(second.send[1].kind, InputKind::key_press);
  EXPECT_EQ(d->report()["act"], "hybrid");
  auto calm = make_ic_driver(parse_ic_driver_args(model_with_onset_scale(*model_, 0, "hybrid-never") + ",hold=0,motion=off,act=hybrid"));
  EXPECT_EQ(calm->step(view(1'000'000'000, 1)).send.size(), 2u);
  EXPECT_TRUE(calm->step(view(1'100'000'000, 2)).send.empty());  // held, never re-pressed
}

TEST_F(IcDriverTest, SameSeedSameActions) {
  // Scale 1: the untrained network's probabilities (about one half) are drawn from as they are.
  const std::string model = model_with_onset_scale(*model_, 1.0, "onsets-seed");
  auto run = [&](const std::string& options) {
    auto d = make_ic_driver(parse_ic_driver_args(model + options));
    std::vector<std::tuple<int, unsigned, int, int>> sent;
    for (std::uint64_t f = 1; f <= 60; ++f)
      for (const auto& in : d->step(view(static_cast<std::int64_t>(f) * 50'000'000, f)).send)
        sent.emplace_back(static_cast<int>(in.kind), in.code, in.x, in.y);
    return sent;
  };
  const auto a = run(",seed=7,hold=0.5,act=onsets");
  EXPECT_EQ(a, run(",seed=7,hold=0.5,act=onsets"));
  EXPECT_FALSE(a.empty());
  EXPECT_NE(a, run(",seed=8,hold=0.5,act=onsets"));
}

TEST_F(IcDriverTest, RateLimitAndReport) {
  auto d = make_ic_driver(parse_ic_driver_args(*model_ + ",fps=10"));
  std::int64_t t = 1'000'000'000;
  std::uint64_t frame = 0;
  // 30 frames 20 ms apart: at 10 per second, every fifth one is looked at.
  for (int i = 0; i < 30; ++i, t += 20'000'000) {
    const drivers::Step s = d->step(view(t, ++frame));
    for (const auto& in : s.send) {
      if (in.kind != InputKind::pointer_motion) continue;
      EXPECT_GE(in.x, 0);
      EXPECT_LT(in.x, 320);
      EXPECT_GE(in.y, 0);
      EXPECT_LT(in.y, 180);
    }
  }
  const nlohmann::json r = d->report();
  EXPECT_EQ(r["frames_processed"], 6);
  for (const char* stage : {"downscale", "detect", "policy", "total"}) {
    ASSERT_TRUE(r["inference_ms"][stage].is_object()) << stage;
    EXPECT_GT(r["inference_ms"][stage]["mean"].get<double>(), 0.0) << stage;
    EXPECT_GE(r["inference_ms"][stage]["p99"].get<double>(), r["inference_ms"][stage]["p50"].get<double>());
  }
  // The tail's attribution: the thread's CPU time per frame is positive and (one thread, no
  // waiting inside inference) at most the wall time; preempted and unpreempted frames add up.
  const auto& inf = r["inference_ms"];
  EXPECT_GT(inf["total_cpu"]["mean"].get<double>(), 0.0);
  EXPECT_LE(inf["total_cpu"]["mean"].get<double>(), inf["total"]["mean"].get<double>() * 1.05 + 0.05);
  const auto preempted = inf["preempted_frames"].get<std::uint64_t>();
  EXPECT_LE(preempted, 6U);
  if (preempted < 6)
    EXPECT_LE(inf["total_unpreempted"]["max"].get<double>(), inf["total"]["max"].get<double>());
  else
    EXPECT_TRUE(inf["total_unpreempted"].is_null());
  EXPECT_TRUE(r["actions_per_minute"].is_number());
}

// nice=N is set on the thread that plays (the client's), before its first frame, and reported;
// a value the thread may not take leaves it as it was, with the cause.
TEST_F(IcDriverTest, NiceIsSetOnThePlayingThreadAndReported) {
  auto play = [&](const std::string& options, int& nice_after) {
    nlohmann::json report;
    std::thread client([&] {
      auto d = make_ic_driver(parse_ic_driver_args(*model_ + options));
      for (std::uint64_t f = 1; f <= 3; ++f) d->step(view(static_cast<std::int64_t>(f) * 50'000'000, f));
      errno = 0;
      nice_after = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
      report = d->report()["thread_nice"];
    });
    client.join();
    return report;
  };
  int after = 99;
  const nlohmann::json raised = play(",nice=5", after);  // raising one's own nice is always allowed
  EXPECT_EQ(raised["asked"], 5);
  EXPECT_EQ(raised["applied"], 5);
  EXPECT_EQ(after, 5);
  const nlohmann::json unchanged = play("", after);
  EXPECT_EQ(unchanged["asked"], 0);
  EXPECT_TRUE(unchanged["applied"].is_null());
  EXPECT_FALSE(unchanged.contains("unavailable"));
  EXPECT_EQ(after, getpriority(PRIO_PROCESS, 0)) << "nice=0 leaves the thread as the process is";
  const nlohmann::json lowered = play(",nice=-3", after);
  if (lowered["applied"].is_null()) {
    // Without CAP_SYS_NICE: refused, said why, the thread untouched.
    EXPECT_NE(lowered["unavailable"].get<std::string>().find("setpriority(-3)"), std::string::npos) << lowered.dump();
    EXPECT_EQ(after, getpriority(PRIO_PROCESS, 0));
  } else {
    EXPECT_EQ(lowered["applied"], -3);
    EXPECT_EQ(after, -3);
  }
}

// The report puts the driver's input mix beside the teacher's from the manifest; a weak model
// loads with a warning naming why, and the report says it is weak.
TEST_F(IcDriverTest, ReportsItsFidelityBesideTheTeacher) {
  auto copy = [](const std::string& name) {
    const std::string dir = test::temp_dir(name);
    for (const char* file : {"detector.pt", "policy.pt", "manifest.json"})
      std::filesystem::copy_file(*model_ + "/" + file, dir + "/" + file, std::filesystem::copy_options::overwrite_existing);
    return dir;
  };
  const std::string weak = copy("driver-weak-model");
  test::edit_manifest(weak, [](nlohmann::json& j) {
    j["verdict"]["weak"] = true;
    j["verdict"]["reasons"] = {"class car is not detected"};
  });
  testing::internal::CaptureStderr();
  auto d = make_ic_driver(parse_ic_driver_args(weak + ",hold=0,act=held,motion=off"));
  const std::string warned = testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("pictor: warning: ic:" + weak + " is a weak model (class car is not detected)"), std::string::npos)
      << warned;
  std::int64_t t = 1'000'000'000;
  for (std::uint64_t frame = 1; frame <= 20; ++frame, t += 50'000'000) d->step(view(t, frame));
  const nlohmann::json r = d->report();
  EXPECT_EQ(r["model_weak"], true);
  const nlohmann::json& f = r["fidelity"];
  // hold=0: both keys pressed on the first frame and kept down: 2 inputs in 0.95 s.
  EXPECT_EQ(f["ic"]["inputs"], r["actions"]);
  EXPECT_EQ(f["ic"]["presses"]["Left"], 1);
  EXPECT_EQ(f["ic"]["presses"]["Right"], 1);
  EXPECT_NEAR(f["ic"]["inputs_per_minute"].get<double>(), 2 / 0.95 * 60, 1e-6);
  EXPECT_DOUBLE_EQ(f["ic"]["press_share"]["Left"].get<double>(), 0.5);
  const Model m = Model::load(*model_);
  EXPECT_EQ(f["teacher"], m.manifest().info["teacher"]);
  const double teacher_left = m.manifest().info["teacher"]["press_share"]["Left"];
  EXPECT_NEAR(f["press_share_points"]["Left"].get<double>(), (0.5 - teacher_left) * 100, 1e-9);
  EXPECT_NEAR(f["inputs_per_minute_ratio"].get<double>(),
              f["ic"]["inputs_per_minute"].get<double>() / m.manifest().info["teacher"]["inputs_per_minute"].get<double>(),
              1e-9);

  // A model trained before verdicts and teacher mixes: no warning, unknowns are null.
  const std::string old = copy("driver-old-model");
  test::edit_manifest(old, [](nlohmann::json& j) {
    j.erase("verdict");
    j.erase("teacher");
  });
  testing::internal::CaptureStderr();
  auto o = make_ic_driver(parse_ic_driver_args(old));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  o->step(view(t, 1));
  const nlohmann::json ro = o->report();
  EXPECT_TRUE(ro["model_weak"].is_null());
  EXPECT_TRUE(ro["fidelity"]["teacher"].is_null());
  EXPECT_TRUE(ro["fidelity"]["inputs_per_minute_ratio"].is_null());
}

// live=on (the default) plays on the teacher's held shares from the manifest, not the offline
// thresholds alone: with offline thresholds of 0 (every key down) and a teacher that never held
// either key, live=off presses both and live=on neither; the report says what it kept.
TEST_F(IcDriverTest, LiveCalibrationPlaysOnTheTeachersShares) {
  const std::string dir = test::temp_dir("driver-live-model");
  for (const char* file : {"detector.pt", "policy.pt", "manifest.json"})
    std::filesystem::copy_file(*model_ + "/" + file, dir + "/" + file, std::filesystem::copy_options::overwrite_existing);
  test::edit_manifest(dir, [](nlohmann::json& j) {
    for (auto& h : j["policy"]["hold_thresholds"]) h = 0.0;
    for (const auto& key : j["vocabulary"]) {
      const std::string k = key.get<std::string>();
      j["metrics"]["calibration"]["per_key"][k]["held_fraction"] = 0.0;
      j["teacher"]["presses"][k] = 0;
    }
    j["teacher"]["seconds"] = 60.0;
  });
  auto off = make_ic_driver(parse_ic_driver_args(dir + ",live=off,motion=off"));
  auto on = make_ic_driver(parse_ic_driver_args(dir + ",motion=off"));
  EXPECT_NE(on->spec().find("live=on"), std::string::npos) << on->spec();
  EXPECT_NE(off->spec().find("live=off"), std::string::npos) << off->spec();
  std::size_t sent_off = 0, sent_on = 0;
  std::int64_t t = 1'000'000'000;
  for (std::uint64_t frame = 1; frame <= 40; ++frame, t += 50'000'000) {
    sent_off += off->step(view(t, frame)).send.size();
    sent_on += on->step(view(t, frame)).send.size();
  }
  EXPECT_GE(sent_off, 2u);
  EXPECT_EQ(sent_on, 0u);
  EXPECT_TRUE(off->report()["live_calibration"].is_null());
  const nlohmann::json keys = on->report()["live_calibration"]["keys"];
  ASSERT_TRUE(keys.contains("Left")) << keys.dump();
  EXPECT_EQ(keys["Left"]["live"], true);
  EXPECT_DOUBLE_EQ(keys["Left"]["target_held_share"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(keys["Left"]["held_share"].get<double>(), 0.0);
  EXPECT_EQ(keys["Left"]["frames"], 40);
}

// A model built by hand whose outputs do not depend on the frame: the detector (all weights 0)
// finds one box of class 0 in every grid cell (objectness logit 10, centre of the cell, width
// and height 0.04), and the policy (output weights 0) always wants button1 down, draws a button1
// onset on every frame (logit 10, scale 1: act=hybrid clicks buttons on onsets) and puts all its
// pointer-target probability on `slot`. Equal confidences fill the slots left to right, then top
// to bottom: class 0's slot k is the cell in column 0, row k (centre x 0.5/16, y (k + 0.5)/9).
// `clicky`: instead, button1 is never held but has a press onset and the pointer a move on every
// frame (logits 10, onset scales 1): with act=onsets, a click and a move drawn on each frame.
// `crosshair`: the model's aim frame is a crosshair with gain 0.5.
std::string aiming_model(const std::string& name, int slot, double threshold, bool clicky = false, bool crosshair = false) {
  torch::set_num_threads(1);
  ModelManifest m = test::hand_manifest({"unit", "crystal"}, {"button1", "Left"});
  m.motion_scale = 0;
  m.hold_thresholds = m.release_thresholds = {0.5, 0.5};
  m.repress_scales = {0.0, 0.0};
  m.onset_scales = {1.0, 0.0, 0.0};  // button1 onsets drawn, no sampled moves
  if (clicky) m.onset_scales = {1.0, 0.0, 1.0};
  m.frame_interval_ms = 20;
  m.aim_offsets = {{{0.0, 0.25}}, {{0.0, 0.0}}};
  m.event_given_target = {{0.5, 0.25, 0.25}, {0.5, 0.25, 0.25}, {0.5, 0.25, 0.25}};
  m.target_threshold = threshold;
  if (crosshair) {
    m.aim_frame = "crosshair";
    m.aim_gain = 0.5;
  }
  DetectorNet det(m.shape, 2);
  PolicyNet pol(m.features.size(), m.shape.policy_hidden, m.policy_outputs());
  {
    torch::NoGradGuard no_grad;
    for (auto& p : det->parameters()) p.zero_();
    // Objectness, x and y offsets (sigmoid 0.5: the cell centre), sqrt w and h (0.2: 0.04), classes.
    const float head[] = {10.0f, 0.0f, 0.0f, std::log(0.2f / 0.8f), std::log(0.2f / 0.8f), 10.0f, -10.0f};
    for (int i = 0; i < 7; ++i) det->head->bias[i] = head[i];
    pol->out->weight.zero_();
    pol->out->bias.fill_(-10.0f);  // keys up, onsets and moves improbable
    pol->out->bias[0] = 10.0f;     // button1 held
    pol->out->bias[2] = 10.0f;     // button1 onset
    if (clicky) {
      pol->out->bias[0] = -10.0f;  // never held: a press is released on the next frame
      pol->out->bias[4] = 10.0f;   // pointer move
    }
    pol->out->bias[2 * 2 + 3 + slot] = 10.0f;
  }
  const std::string dir = test::temp_dir(name);
  save_model_dir(dir, m, det, pol);
  return dir;
}

TEST_F(IcDriverTest, PressAimsAtTheChosenBox) {
  // Slot 1: column 0, row 1: centre (0.03125, 0.1667), 0.04 high; aimed 0.25 h below the centre.
  const std::string model = aiming_model("aim-slot1", 1, 0.5);
  auto d = make_ic_driver(parse_ic_driver_args(model));
  const drivers::Step s = d->step(view(1'000'000'000, 1));
  ASSERT_EQ(s.send.size(), 2u);
  const int x = static_cast<int>(std::lround(0.03125 * 320)), y = static_cast<int>(std::lround((1.5 / 9 + 0.25 * 0.04) * 180));
  expect_input_at(s.send[0], InputKind::pointer_motion, x, y);
  expect_input_at(s.send[1], InputKind::button_press, x, y);
  EXPECT_EQ(s.send[1].code, 1u);
  EXPECT_EQ(d->report()["aimed_presses"], 1);
  // act=hybrid clicks buttons: released on the next frame looked at, where it was pressed (and
  // pressed again here, on this frame's onset).
  const drivers::Step next = d->step(view(1'100'000'000, 2));
  ASSERT_EQ(next.send.size(), 2u);
  expect_input_at(next.send[0], InputKind::button_release, x, y);
  EXPECT_EQ(next.send[1].kind, InputKind::button_press);

  // Another slot, another point: row 3.
  auto d3 = make_ic_driver(parse_ic_driver_args(aiming_model("aim-slot3", 3, 0.5)));
  const drivers::Step s3 = d3->step(view(1'000'000'000, 1));
  ASSERT_EQ(s3.send.size(), 2u);
  EXPECT_EQ(s3.send[1].y, static_cast<int>(std::lround((3.5 / 9 + 0.25 * 0.04) * 180)));

  // Not confident enough (threshold above every posterior), or target=off: the press goes where
  // the pointer is, with no motion.
  for (const auto& [dir, options] : {std::pair{aiming_model("aim-never", 1, 2.0), std::string()},
                                     std::pair{model, std::string(",target=off")}}) {
    auto plain = make_ic_driver(parse_ic_driver_args(dir + options));
    const drivers::Step p = plain->step(view(1'000'000'000, 1));
    ASSERT_EQ(p.send.size(), 1u) << options;
    EXPECT_EQ(p.send[0].kind, InputKind::button_press);
    EXPECT_EQ(p.send[0].x, -1);
    EXPECT_EQ(plain->report()["unaimed_presses"], 1);
  }

  // "No object" most probable: never aimed at a box.
  auto none = make_ic_driver(parse_ic_driver_args(aiming_model("aim-none", no_target(FeatureLayout{2, 4}), 0.5)));
  const drivers::Step n = none->step(view(1'000'000'000, 1));
  ASSERT_EQ(n.send.size(), 1u);
  EXPECT_EQ(n.send[0].x, -1);
}

TEST_F(IcDriverTest, AimedClickIsReleasedWhereItWasMadeAndHoldsThePointer) {
  auto d = make_ic_driver(parse_ic_driver_args(aiming_model("aim-clicky", 2, 0.5, true) + ",act=onsets"));
  const drivers::Step first = d->step(view(1'000'000'000, 1));
  ASSERT_EQ(first.send.size(), 2u);  // the move drawn too is not sent: button1 is down
  EXPECT_EQ(first.send[0].kind, InputKind::pointer_motion);
  EXPECT_EQ(first.send[1].kind, InputKind::button_press);
  const int x = first.send[1].x, y = first.send[1].y;
  EXPECT_EQ(y, static_cast<int>(std::lround((2.5 / 9 + 0.25 * 0.04) * 180)));
  // Next frame: an onset again: released at the aimed point, pressed again there (the pointer
  // is already there: no motion).
  const drivers::Step second = d->step(view(1'100'000'000, 2));
  ASSERT_EQ(second.send.size(), 2u);
  expect_input_at(second.send[0], InputKind::button_release, x, y);
  expect_input_at(second.send[1], InputKind::button_press, x, y);
  EXPECT_EQ(d->report()["aimed_moves"], 0);
  EXPECT_EQ(d->report()["aimed_presses"], 2);
}

TEST_F(IcDriverTest, CrosshairMovesByTheGainAndFiresWhereTheViewPoints) {
  // Slot 2: column 0, row 2, aimed at (0.03125, 2.5/9 + 0.25 x 0.04). A crosshair model turns the
  // view toward it: the pointer (at the centre, 160, 90, before any move) moves by 0.5 x the
  // point's offset from the centre. The click drawn on the same frame is not aimed: it fires.
  auto d = make_ic_driver(parse_ic_driver_args(aiming_model("aim-crosshair", 2, 0.5, true, true) + ",act=onsets"));
  const drivers::Step first = d->step(view(1'000'000'000, 1));
  ASSERT_EQ(first.send.size(), 2u);
  expect_input_at(first.send[0], InputKind::button_press, -1, -1);
  const int x = static_cast<int>(std::lround(160 + 0.5 * (0.03125 - 0.5) * 320));
  const int y = static_cast<int>(std::lround(90 + 0.5 * (2.5 / 9 + 0.25 * 0.04 - 0.5) * 180));
  expect_input_at(first.send[1], InputKind::pointer_motion, x, y);
  // The next move starts where this one ended: the box is still off the crosshair in the frame.
  const drivers::Step second = d->step(view(1'100'000'000, 2));
  ASSERT_FALSE(second.send.empty());
  const drivers::Input& move = second.send.back();
  EXPECT_EQ(move.kind, InputKind::pointer_motion);
  EXPECT_EQ(move.x, std::clamp(static_cast<int>(std::lround(x + 0.5 * (0.03125 - 0.5) * 320)), 0, 319));
  const auto report = d->report();
  EXPECT_EQ(report["aim_frame"], "crosshair");
  EXPECT_EQ(report["aimed_presses"], 0);
  EXPECT_EQ(report["aimed_moves"], 2);

  // A player who fired only with a box under the crosshair (press_on_box 1): a drawn press waits
  // for one; none comes (every box is in column 0), so no press is sent and each wait lapses.
  const std::string picky = aiming_model("aim-crosshair-picky", 2, 0.5, true, true);
  test::edit_manifest(picky, [](nlohmann::json& j) { j["policy"]["aim"]["press_on_box"] = 1.0; });
  auto p = make_ic_driver(parse_ic_driver_args(picky + ",act=onsets"));
  for (int i = 0; i < 8; ++i)
    for (const auto& in : p->step(view(1'000'000'000 + i * 100'000'000LL, static_cast<std::uint64_t>(i + 1))).send)
      EXPECT_NE(in.kind, InputKind::button_press) << "step " << i;
  EXPECT_GE(p->report()["lapsed_presses"].get<int>(), 1);
}

TEST_F(IcDriverTest, SettledTurnsWaitUntilTheLastTurnCanShow) {
  // act=held moves on every frame looked at (hold=1: no button is ever pressed). A crosshair
  // model with settle=250 turns toward the chosen box only on the first frame 250 ms after its
  // previous input: frames come every 100 ms, so on frames 0, 3 and 6.
  const std::string model = aiming_model("aim-crosshair-settle", 2, 0.5, false, true);
  auto turns = [this](drivers::Driver& d) {
    std::vector<int> at;
    for (int i = 0; i < 8; ++i)
      for (const auto& in : d.step(view(1'000'000'000 + i * 100'000'000LL, static_cast<std::uint64_t>(i + 1))).send)
        if (in.kind == InputKind::pointer_motion) at.push_back(i);
    return at;
  };
  auto every = make_ic_driver(parse_ic_driver_args(model + ",act=held,hold=1,settle=0"));
  // Every frame, until the pointer is held at the window's corner (a turn that moves nothing
  // sends nothing).
  EXPECT_EQ(turns(*every), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(every->report()["settle_ms"], 0.0);
  auto settled = make_ic_driver(parse_ic_driver_args(model + ",act=held,hold=1,settle=250"));
  EXPECT_EQ(turns(*settled), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(settled->report()["settled_turns"], 3);
  EXPECT_NE(settled->spec().find("settle=250"), std::string::npos) << settled->spec();
  // The model's learnt interval is the default.
  test::edit_manifest(model, [](nlohmann::json& j) { j["policy"]["aim"]["interval_ms"] = 250.0; });
  auto learnt = make_ic_driver(parse_ic_driver_args(model + ",act=held,hold=1"));
  EXPECT_EQ(turns(*learnt), (std::vector<int>{0, 3, 6}));
  EXPECT_THROW(parse_ic_driver_args(model + ",settle=-1"), UsageError);
  EXPECT_THROW(parse_ic_driver_args(model + ",fire=often"), UsageError);
}

TEST_F(IcDriverTest, FireBoxClicksOnlyWithABoxUnderTheCrosshair) {
  // A teacher that fired only at boxes, a learnt settle: fire=box by default. The policy draws a
  // click on every frame, but every detected box is in column 0, never under the crosshair: no
  // press goes out, and none waits (nothing is armed, nothing lapses). fire=drawn arms them.
  const std::string model = aiming_model("aim-crosshair-firebox", 2, 0.5, true, true);
  test::edit_manifest(model, [](nlohmann::json& j) {
    j["policy"]["aim"]["press_on_box"] = 1.0;
    j["policy"]["aim"]["interval_ms"] = 150.0;
  });
  auto presses = [this](drivers::Driver& d) {
    int n = 0;
    for (int i = 0; i < 8; ++i)
      for (const auto& in : d.step(view(1'000'000'000 + i * 100'000'000LL, static_cast<std::uint64_t>(i + 1))).send)
        n += in.kind == InputKind::button_press;
    return n;
  };
  auto box = make_ic_driver(parse_ic_driver_args(model));
  EXPECT_NE(box->spec().find("fire=box"), std::string::npos) << box->spec();
  EXPECT_EQ(presses(*box), 0);
  EXPECT_EQ(box->report()["lapsed_presses"], 0);
  EXPECT_EQ(box->report()["fire"], "box");
  auto drawn = make_ic_driver(parse_ic_driver_args(model + ",fire=drawn"));
  EXPECT_EQ(presses(*drawn), 0);
  EXPECT_GE(drawn->report()["lapsed_presses"].get<int>(), 1);
}

TEST_F(IcDriverTest, UnusableModelIsAUsageError) {
  EXPECT_THROW(make_ic_driver(parse_ic_driver_args("/nonexistent/model")), UsageError);
}

}  // namespace
}  // namespace pictor::ic
