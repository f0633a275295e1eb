// The reference player's closed loop on a constructed timeline: the shooter aims by the game's
// own geometry, waits to see where the view ended before it corrects again, and fires only on a
// settled frame with the crosshair on the enemy.
#include "ic/reference_player.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace pictor::ic {
namespace {

namespace fs = std::filesystem;
using drivers::ClientView;
using drivers::InputKind;

constexpr std::int64_t kMs = 1'000'000;
constexpr int kW = 1280, kH = 720;

struct Sent {
  std::int64_t t;
  drivers::Input input;
};

// Runs a shooter reference player for `duration` in 5 ms steps against a view that never changes:
// frame 1, captured just now, whose truth has one enemy box (normalised YOLO centre and size).
std::vector<Sent> play_against_still_enemy(const std::string& name, double cx, double cy, std::int64_t duration,
                                           std::int64_t settle_ns = 100 * kMs) {
  const fs::path truth = fs::path(::testing::TempDir()) / ("pictor_ref_" + name);
  fs::remove_all(truth);
  fs::create_directories(truth / "labels");
  std::ofstream(truth / "classes.txt") << "enemy\npickup\n";
  std::ofstream(truth / "labels" / "frame_000001.txt") << "0 " << cx << ' ' << cy << " 0.05 0.2\n";

  ReferenceOptions o;
  o.game = "shooter";
  o.seed = 11;
  o.truth_dir = truth.string();
  o.settle_ns = settle_ns;
  ReferencePlayer player(o);
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(kW) * kH * 4, 0);
  const tag::ImageView image{pixels.data(), kW, kH, kW * 4, tag::PixelFormat::bgrx};
  std::vector<Sent> sent;
  for (std::int64_t t = 0; t <= duration; t += 5 * kMs) {
    ClientView v;
    v.now_ns = t;
    v.frame = 1;
    v.frame_seen_ns = t;
    v.frames_seen = static_cast<std::uint64_t>(t / (5 * kMs)) + 1;
    v.image = &image;
    for (const auto& in : player.step(v).send) sent.push_back({t, in});
  }
  return sent;
}

TEST(ReferenceShooter, AimsByTheGamesGeometryAndWaitsToSeeEachCorrection) {
  // The enemy stands 256 px right of the crosshair and never moves on screen, so every look asks
  // for another correction; a player that does not wait for its last one queues them back to back.
  const auto sent = play_against_still_enemy("aim", 0.7, 0.5, 3'000 * kMs);
  std::vector<Sent> motions;
  for (const auto& s : sent)
    if (s.input.kind == InputKind::pointer_motion) motions.push_back(s);
  ASSERT_GE(motions.size(), 4u);
  EXPECT_EQ(motions[0].input.x, kW / 2);  // first it takes the pointer to the crosshair
  // 0.9 of the 0.38 px of motion per px of offset the game's turn rate and field of view need
  // (88 px for 256 px), with ±12 % noise.
  const int first_aim = motions[1].input.x - motions[0].input.x;
  EXPECT_GT(first_aim, 60);
  EXPECT_LT(first_aim, 115);
  EXPECT_NEAR(motions[1].input.y, kH / 2, 4);  // the aim point is 7 px above the centre
  // Each correction waits for a frame captured 100 ms after the previous one went out, and then
  // for a reaction time (at least 120 ms).
  for (std::size_t i = 2; i < motions.size(); ++i)
    EXPECT_GE(motions[i].t - motions[i - 1].t, 220 * kMs) << "correction " << i;
  for (const auto& s : sent) EXPECT_NE(s.input.kind, InputKind::button_press) << "fired while off target";
}

TEST(ReferenceShooter, FiresOnlyWhenTheCrosshairIsOnTheEnemy) {
  // y: the player aims at 45 % of the box height from its top, 2 px above the box centre here.
  const auto sent = play_against_still_enemy("fire", 0.5, 0.5 + 0.05 * 0.2, 2'000 * kMs);
  int presses = 0, releases = 0;
  for (const auto& s : sent) {
    presses += s.input.kind == InputKind::button_press;
    releases += s.input.kind == InputKind::button_release;
    if (s.input.kind == InputKind::button_press) {
      EXPECT_EQ(s.input.code, 1u);
    }
  }
  EXPECT_GE(presses, 2);
  EXPECT_GE(releases, presses - 1);
}

TEST(ReferenceShooter, SettleIsAnOptionAndShowsInTheSpec) {
  const auto o = parse_reference_options("game=shooter,truth=/t,settle=40ms");
  EXPECT_EQ(o.settle_ns, 40 * kMs);
  EXPECT_NE(ReferencePlayer(o).spec().find("settle=40ms"), std::string::npos);
  EXPECT_THROW(parse_reference_options("game=shooter,truth=/t,settle=-1ms"), UsageError);
}

}  // namespace
}  // namespace pictor::ic
