// The logic both clients share, against a recording transport: which inputs go out, the start-up
// offset from idle marker readings, the launcher hold, the first-frame deadline and the driver's view.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "client/client_core.h"
#include "core/error.h"

namespace pictor::client {
namespace {

using drivers::Input;
using drivers::InputKind;

struct RecordingTransport : ClientTransport {
  std::vector<Input> tracked, motions;
  int images = 0;
  void send_motion(const Input& in) override { motions.push_back(in); }
  Sent send_tracked(const Input& in, bool, bool) override {
    tracked.push_back(in);
    return {in.code + 1000, static_cast<std::int64_t>(tracked.size())};
  }
  std::optional<tag::ImageView> window_image() override {
    ++images;
    return tag::ImageView{};
  }
  std::string problem;  // what window_problem() answers
  int problem_checks = 0;
  std::string window_problem() override {
    ++problem_checks;
    return problem;
  }
};

// A driver that sends a fixed list on its first step and remembers what it was shown.
struct ListDriver : drivers::Driver {
  std::vector<Input> first;
  bool image = false;
  std::vector<drivers::ClientView> views;
  bool attached = false, detached = false;
  std::string spec() const override { return "list"; }
  std::vector<drivers::InputCode> vocabulary() const override { return {}; }
  bool wants_image() const override { return image; }
  void detach() override { detached = true; }
  drivers::Step step(const drivers::ClientView& view) override {
    views.push_back(view);
    drivers::Step s;
    if (views.size() == 1) s.send = first;
    s.next_ns = view.now_ns + 1'000'000;
    return s;
  }
  nlohmann::json report() const override { return {{"steps", views.size()}}; }
};

class ClientCoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("pictor-core-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::unique_ptr<ClientCore> make(std::unique_ptr<ListDriver> d) {
    driver_ = d.get();
    auto core = std::make_unique<ClientCore>(std::move(d), transport_);
    core->files = std::make_unique<ClientFiles>(dir_.string());
    return core;
  }
  std::filesystem::path dir_;
  RecordingTransport transport_;
  ListDriver* driver_ = nullptr;
};

TEST_F(ClientCoreTest, PressesOfHeldKeysAndStrayReleasesAreNotSent) {
  auto core = make(std::make_unique<ListDriver>());
  core->send({InputKind::key_press, 65});
  core->send({InputKind::key_press, 65});     // held already: X would fold it into auto-repeat
  core->send({InputKind::key_release, 66});   // never pressed: X makes no event
  core->send({InputKind::button_press, 1, 10, 20});
  core->send({InputKind::pointer_motion, 0, 5, 5});
  EXPECT_EQ(transport_.tracked.size(), 2u);
  EXPECT_EQ(transport_.motions.size(), 1u);
  EXPECT_EQ(core->stats().inputs_sent, 2u);
  EXPECT_EQ(core->stats().motions_sent, 1u);
  core->release_held();
  ASSERT_EQ(transport_.tracked.size(), 4u);
  EXPECT_EQ(core->stats().inputs_sent, 4u);
  core->add_stop_notes();
  ASSERT_EQ(core->stats().notes.size(), 1u);
  EXPECT_NE(core->stats().notes[0].find("2 driver input(s) not sent"), std::string::npos);
  core->files->flush(0, true);
  std::ifstream f(dir_ / "client_inputs.csv");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("1,key_press,1065,1,"), std::string::npos) << text;
}

TEST_F(ClientCoreTest, TwoEqualIdleReadingsSetTheStartUpOffset) {
  auto core = make(std::make_unique<ListDriver>());
  // One reading of tag 3 alone is not enough (a false read); two in a row are.
  core->frame_seen(tag::MarkerPayload{3, 1}, 10, 0, 0);
  core->frame_seen(tag::MarkerPayload{3, 2}, 20, 0, 0);
  // The app may now have read 3 foreign events plus what the client sent: tag 3 is plausible.
  const auto r = core->frame_seen(tag::MarkerPayload{3, 3}, 30, 0, 0);
  EXPECT_FALSE(r.implausible);
  EXPECT_EQ(core->stats().captures, 3u);
  EXPECT_EQ(core->last_seen_ns(), 30);
  core->add_stop_notes();
  // The first reading, before the offset was known, was rejected as a false read.
  ASSERT_EQ(core->stats().notes.size(), 2u);
  EXPECT_NE(core->stats().notes[0].find("read 3 tracked event(s) before the first input"), std::string::npos);
  EXPECT_NE(core->stats().notes[1].find("1 marker read(s) rejected"), std::string::npos);
}

TEST_F(ClientCoreTest, ATagBeyondWhatWasSentIsRejected) {
  auto core = make(std::make_unique<ListDriver>());
  core->send({InputKind::key_press, 65});
  const auto r = core->frame_seen(tag::MarkerPayload{9, 1}, 10, 0, 0);
  EXPECT_TRUE(r.implausible);
  EXPECT_FALSE(r.tag);
}

TEST_F(ClientCoreTest, LauncherHoldDelaysDrivingAndIsNotedOnce) {
  auto d = std::make_unique<ListDriver>();
  d->first = {{InputKind::key_press, 65}};
  auto core = make(std::move(d));
  core->start_waiting(5.0, 0);
  core->app_draws(0.5, 0);
  core->turn(100'000'000, true, false, "none");      // held: the warm-up is forgotten
  core->turn(1'000'000'000, true, false, "none");
  EXPECT_FALSE(core->driving());
  core->turn(1'100'000'000, false, false, "none");   // let go: wait for a frame again
  EXPECT_FALSE(core->driving());
  core->app_draws(0.5, 1'200'000'000);
  core->turn(1'800'000'000, false, false, "none");
  EXPECT_TRUE(core->driving());
  EXPECT_EQ(transport_.tracked.size(), 1u);
  ASSERT_EQ(core->stats().notes.size(), 1u);
  EXPECT_EQ(core->stats().notes[0], "inputs held for 1.0 s while pictor-launch started the game");
}

TEST_F(ClientCoreTest, AWindowOffScreenIsAnErrorUnlessALauncherHoldsTheInputs) {
  auto core = make(std::make_unique<ListDriver>());
  transport_.problem = "the app window is off screen";
  // No launcher: the client cannot read the marker, and says so at once.
  try {
    core->check_window(false);
    FAIL() << "no error for a window off screen";
  } catch (const RunError& e) {
    EXPECT_STREQ(e.what(), "the app window is off screen");
  }
  // A launcher holds: it may still move the window, so the check waits for it to let go.
  core->check_window(true);
  core->start_waiting(5.0, 0);
  core->turn(100'000'000, true, false, "none");
  core->turn(200'000'000, true, false, "none");
  transport_.problem_checks = 0;
  transport_.problem.clear();  // the launcher moved it on screen
  core->turn(300'000'000, false, false, "none");
  EXPECT_EQ(transport_.problem_checks, 1);
  core->turn(400'000'000, false, false, "none");
  EXPECT_EQ(transport_.problem_checks, 1) << "checked once, when the launcher let go";

  // The launcher let go with the window still off screen: the first cause, named.
  auto other = make(std::make_unique<ListDriver>());
  transport_.problem = "the app window is off screen";
  other->check_window(true);
  other->start_waiting(5.0, 0);
  other->turn(100'000'000, true, false, "none");
  try {
    other->turn(200'000'000, false, false, "none");
    FAIL() << "no error when the launcher let go with the window off screen";
  } catch (const RunError& e) {
    EXPECT_STREQ(e.what(), "the app window is off screen when pictor-launch let go of the inputs");
  }
}

TEST_F(ClientCoreTest, NoFirstFrameStartsInputsAtTheDeadlineWithANote) {
  auto core = make(std::make_unique<ListDriver>());
  core->start_waiting(2.0, 0);
  core->turn(1'000'000'000, false, false, "no frame");
  EXPECT_FALSE(core->driving());
  EXPECT_EQ(core->wait_ns(1'000'000'000, 5'000'000'000), 1'000'000'000);
  core->turn(2'000'000'000, false, false, "no frame");
  EXPECT_TRUE(core->driving());
  EXPECT_EQ(core->stats().notes, std::vector<std::string>{"no frame"});
}

TEST_F(ClientCoreTest, ImageOnlyForDriversThatWantItAfterAFrame) {
  auto d = std::make_unique<ListDriver>();
  d->image = true;
  auto core = make(std::move(d));
  core->start_waiting(0.0, 0);
  core->turn(1, false, false, "x");  // driving at once, no frame yet: no image
  EXPECT_EQ(transport_.images, 0);
  ASSERT_EQ(driver_->views.size(), 1u);
  EXPECT_EQ(driver_->views[0].image, nullptr);
  core->frame_seen(std::nullopt, 5, 0, 0);
  core->drive_now(10);
  EXPECT_EQ(transport_.images, 1);
  ASSERT_EQ(driver_->views.size(), 2u);
  EXPECT_EQ(driver_->views[1].frames_seen, 1u);
  core->detach_driver();
  EXPECT_TRUE(driver_->detached);
  EXPECT_EQ(core->stats().driver_report["steps"], 2);
}

}  // namespace
}  // namespace pictor::client
