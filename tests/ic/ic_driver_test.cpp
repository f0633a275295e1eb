// The ic driver: option parsing, key presses/releases from the policy's probabilities, rate
// limit, pointer motion inside the window, and the report's stage timings.
#include "ic/ic_driver.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "ic/trainer.h"
#include "synthetic_rec.h"

namespace pictor::ic {
namespace {

using drivers::InputKind;

TEST(IcDriverArgs, PathThenOptions) {
  const auto o = parse_ic_driver_args("/models/race-1,hold=0.7,fps=20,motion=off", "ic:...");
  EXPECT_EQ(o.model, "/models/race-1");
  EXPECT_DOUBLE_EQ(o.hold, 0.7);
  EXPECT_DOUBLE_EQ(o.fps, 20);
  EXPECT_FALSE(o.motion);
  EXPECT_EQ(parse_ic_driver_args("m", "ic:m").model, "m");
  EXPECT_THROW(parse_ic_driver_args("", "ic:"), UsageError);
  EXPECT_THROW(parse_ic_driver_args("m,hold=2", "ic:m,hold=2"), UsageError);
  EXPECT_THROW(parse_ic_driver_args("m,speed=2", "ic:m,speed=2"), UsageError);
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

TEST_F(IcDriverTest, HoldThresholdDrivesPressesAndReleases) {
  auto all = make_ic_driver(parse_ic_driver_args(*model_ + ",hold=0,motion=off", "ic"));
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

  auto none = make_ic_driver(parse_ic_driver_args(*model_ + ",hold=1,motion=off", "ic"));
  EXPECT_TRUE(none->step(view(1'000'000'000, 1)).send.empty());  // sigmoid < 1: never held
}

TEST_F(IcDriverTest, RateLimitAndReport) {
  auto d = make_ic_driver(parse_ic_driver_args(*model_ + ",fps=10", "ic"));
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
  EXPECT_TRUE(r["actions_per_minute"].is_number());
}

TEST_F(IcDriverTest, UnusableModelIsAUsageError) {
  EXPECT_THROW(make_ic_driver(parse_ic_driver_args("/nonexistent/model", "ic:/nonexistent/model")), UsageError);
}

}  // namespace
}  // namespace pictor::ic
