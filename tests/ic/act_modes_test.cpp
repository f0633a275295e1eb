// The ic driver's options (enums and unset values, not sentinels) and its act modes as pure
// functions: what each mode does with one key, and which onset draws it asks for, in order.
#include "ic/act_modes.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"

namespace pictor::ic {
namespace {

// A draw that answers from a script and records what was asked.
struct ScriptedDraws {
  explicit ScriptedDraws(std::vector<bool> a) : answers(std::move(a)) {}
  std::vector<bool> answers;
  std::vector<Onset> asked;
  OnsetDraw draw() {
    return [this](Onset o) {
      asked.push_back(o);
      return asked.size() <= answers.size() && answers[asked.size() - 1];
    };
  }
};

KeyView key(bool button, bool held, bool want) { return {button, held, want}; }

TEST(IcDriverOptions, DefaultsAreUnsetNotSentinels) {
  const IcDriverOptions d = parse_ic_driver_args("m");
  EXPECT_EQ(d.model, "m");
  EXPECT_FALSE(d.hold);
  EXPECT_FALSE(d.fps);
  EXPECT_FALSE(d.settle_ms);
  EXPECT_FALSE(d.fire);
  EXPECT_EQ(d.act, ActMode::hybrid);
  EXPECT_TRUE(d.motion);
  EXPECT_TRUE(d.target);
  EXPECT_EQ(d.seed, 1u);
  EXPECT_EQ(d.nice, 0);
  EXPECT_EQ(parse_ic_driver_args("m,nice=-10").nice, -10);
  const IcDriverOptions o =
      parse_ic_driver_args("/m/a:b,hold=0.7,fps=20,motion=off,act=onsets,target=off,settle=0,fire=box,seed=9");
  EXPECT_EQ(o.model, "/m/a:b");  // the path runs to the first ','
  EXPECT_EQ(o.hold, 0.7);
  EXPECT_EQ(o.fps, 20);
  EXPECT_FALSE(o.motion);
  EXPECT_EQ(o.act, ActMode::onsets);
  EXPECT_FALSE(o.target);
  EXPECT_EQ(o.settle_ms, 0.0);  // given as 0: not the model's interval
  EXPECT_EQ(o.fire, FireMode::box);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(parse_ic_driver_args("m,act=held").act, ActMode::held);
  EXPECT_EQ(parse_ic_driver_args("m,fire=drawn").fire, FireMode::drawn);
}

TEST(IcDriverOptions, ErrorsInTheOneWording) {
  auto error_of = [](const char* args) {
    try {
      parse_ic_driver_args(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("m,act=maybe"),
            "driver 'ic': act=maybe is not one of hybrid, onsets, held (how probabilities become key states "
            "(docs/intelligent-client.md))");
  EXPECT_NE(error_of("m,hold=2").find("driver 'ic': hold=2 is not a number in [0, 1]"), std::string::npos);
  EXPECT_NE(error_of("m,settle=-1").find("settle=-1 is not a number in [0, 5000]"), std::string::npos);
  EXPECT_NE(error_of("m,seed=-1").find("seed=-1 is not a non-negative integer"), std::string::npos);
  EXPECT_NE(error_of("m,nice=-21").find("nice=-21 is not"), std::string::npos);
  EXPECT_NE(error_of("m,speed=2").find("driver 'ic' has no option 'speed' (options: hold, fps,"), std::string::npos);
  EXPECT_EQ(error_of(""), "driver 'ic': MODEL comes first (MODEL[,option=value...])");
}

TEST(ActModes, HeldFollowsTheThresholdAndNeverDraws) {
  EXPECT_EQ(act_held(key(false, false, true)), (KeyActs{false, true, false}));
  EXPECT_EQ(act_held(key(false, true, false)), (KeyActs{true, false, false}));
  EXPECT_EQ(act_held(key(false, true, true)), KeyActs{});
  EXPECT_EQ(act_held(key(true, false, false)), KeyActs{});
  ScriptedDraws d({true});
  EXPECT_EQ(act(ActMode::held, key(false, true, true), d.draw()), KeyActs{});
  EXPECT_TRUE(d.asked.empty());
  EXPECT_FALSE(samples_moves(ActMode::held));
}

TEST(ActModes, HybridFollowsTheThresholdAndRePressesOnADraw) {
  {
    ScriptedDraws d({true});
    EXPECT_EQ(act_hybrid(key(false, false, true), d.draw()), (KeyActs{false, true, false}));
    EXPECT_TRUE(d.asked.empty()) << "a state change draws nothing";
  }
  {
    ScriptedDraws d({true});
    EXPECT_EQ(act_hybrid(key(false, true, true), d.draw()), (KeyActs{true, true, true}));
    EXPECT_EQ(d.asked, std::vector<Onset>{Onset::re_press});
  }
  {
    ScriptedDraws d({false});
    EXPECT_EQ(act_hybrid(key(false, true, true), d.draw()), KeyActs{});
    EXPECT_EQ(d.asked.size(), 1u);
  }
  {
    ScriptedDraws d({true});
    EXPECT_EQ(act_hybrid(key(false, false, false), d.draw()), KeyActs{});
    EXPECT_TRUE(d.asked.empty()) << "a key that stays up draws nothing";
  }
  EXPECT_TRUE(samples_moves(ActMode::hybrid));
  EXPECT_FALSE(uses_release_thresholds(ActMode::hybrid));
}

TEST(ActModes, HybridClicksButtons) {
  // Down: released, whatever the draw; a press drawn every frame, up or down.
  ScriptedDraws d({true, false, true});
  EXPECT_EQ(act_hybrid(key(true, true, false), d.draw()), (KeyActs{true, true, false}));
  EXPECT_EQ(act_hybrid(key(true, true, true), d.draw()), (KeyActs{true, false, false}));
  EXPECT_EQ(act_hybrid(key(true, false, false), d.draw()), (KeyActs{false, true, false}));
  EXPECT_EQ(d.asked, (std::vector<Onset>{Onset::press, Onset::press, Onset::press}));
}

TEST(ActModes, OnsetsPressOnDrawsAndReleaseOnTheThreshold) {
  ScriptedDraws d({true, true, false, false});
  EXPECT_EQ(act_onsets(key(false, false, false), d.draw()), (KeyActs{false, true, false}));
  EXPECT_EQ(act_onsets(key(false, true, true), d.draw()), (KeyActs{true, true, true}));
  EXPECT_EQ(act_onsets(key(false, true, false), d.draw()), (KeyActs{true, false, false}));
  EXPECT_EQ(act_onsets(key(false, false, true), d.draw()), KeyActs{}) << "a wanted key is not pressed without an onset";
  EXPECT_EQ(d.asked.size(), 4u) << "onsets draws on every frame";
  EXPECT_TRUE(uses_release_thresholds(ActMode::onsets));
}

TEST(ActModes, FireAtBoxesByDefaultOnlyWhenTheModelSettles) {
  EXPECT_TRUE(fires_at_boxes(std::nullopt, true, 150'000'000));
  EXPECT_FALSE(fires_at_boxes(std::nullopt, true, 0));
  EXPECT_TRUE(fires_at_boxes(FireMode::box, true, 0));
  EXPECT_FALSE(fires_at_boxes(FireMode::drawn, true, 150'000'000));
  EXPECT_FALSE(fires_at_boxes(FireMode::box, false, 150'000'000)) << "only for a teacher that fired at boxes";
  EXPECT_EQ(act_mode_name(ActMode::onsets), "onsets");
}

}  // namespace
}  // namespace pictor::ic
