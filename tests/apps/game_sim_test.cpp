// The built-in games' simulations without GL: reaction to input, determinism, replay of a state
// log, and ground truth that lies in the window and fits what is drawn.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "apps/game/game_registry.h"
#include "apps/game/state_log.h"
#include "apps/scene.h"
#include "apps/scenes/racing/racing_models.h"
#include "apps/scenes/shooter/shooter_models.h"
#include "apps/scenes/strategy/strategy_models.h"
#include "core/error.h"
#include "game_scripts.h"

using namespace pictor;
using namespace pictor::test;

namespace {

class GameTest : public ::testing::TestWithParam<std::string> {};

std::unique_ptr<game::GameSim> make(const std::string& name, std::uint64_t seed = 7) {
  game::GameSetup setup;
  setup.seed = seed;
  return game::make_game_sim(name, setup);
}

// Steps a simulation through the script, calling `visit` after each step.
template <class Visit>
void play(game::GameSim& sim, const std::vector<ScriptedInput>& script, std::int64_t end, Visit visit) {
  std::size_t next = 0;
  for (std::int64_t step = 0; step < end; ++step) {
    while (next < script.size() && script[next].step == step) sim.input(script[next++].event);
    sim.step();
    visit(step);
  }
}

}  // namespace

TEST_P(GameTest, StateLogHasHeaderColumnsAndRows) {
  const std::string log = run_script(GetParam(), 7, script_for(GetParam()), 600);
  // The header row comes first (any CSV reader opens the log); the setup is in the start row.
  EXPECT_EQ(log.rfind("step,event,detail,", 0), 0u) << log.substr(0, 200);
  EXPECT_NE(log.find("\n0,start,game=" + GetParam() + " seed=7 detail=1 size=1280x720 step_s=1/60 schema=1,"),
            std::string::npos)
      << log.substr(0, 300);
  EXPECT_GE(column(log, "score"), 3);
  EXPECT_NE(log.find("\n60,tick,,"), std::string::npos);
  EXPECT_NE(log.find("\n600,end,,"), std::string::npos);
  EXPECT_NE(log.find(",input,"), std::string::npos);
}

TEST_P(GameTest, InputsChangeTheGame) {
  const std::string played = run_script(GetParam(), 7, script_for(GetParam()), 600);
  const std::string idle = run_script(GetParam(), 7, {}, 600);
  EXPECT_NE(last_row(played), last_row(idle));
}

TEST_P(GameTest, SameSeedAndInputsGiveTheSameLog) {
  const auto script = script_for(GetParam());
  const std::string a = run_script(GetParam(), 11, script, 900);
  const std::string b = run_script(GetParam(), 11, script, 900);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, run_script(GetParam(), 12, script, 900)) << "the seed should change the world";
}

TEST_P(GameTest, ReplayOfALogReproducesIt) {
  const std::string log = run_script(GetParam(), 5, script_for(GetParam()), 700, 0.5f);
  std::istringstream in(log);
  const game::StateLog parsed = game::parse_state_log(in, "log.csv");
  EXPECT_EQ(parsed.game, GetParam());
  EXPECT_EQ(parsed.setup.seed, 5u);
  EXPECT_EQ(parsed.setup.detail, 0.5f);
  EXPECT_EQ(parsed.end_step, 700);
  EXPECT_EQ(parsed.inputs.size(), script_for(GetParam()).size());
  EXPECT_EQ(game::replay_state_log(parsed), log);
}

TEST_P(GameTest, DetailScalesTheWorldButNotTheRules) {
  // Different detail levels are different worlds; each is still deterministic.
  const auto script = script_for(GetParam());
  EXPECT_EQ(run_script(GetParam(), 3, script, 300, 2.0f), run_script(GetParam(), 3, script, 300, 2.0f));
  EXPECT_NE(run_script(GetParam(), 3, script, 300, 2.0f), run_script(GetParam(), 3, script, 300, 0.25f));
}

TEST_P(GameTest, TruthBoxesLieInTheWindowAndHoldTheObjectCentres) {
  auto sim = make(GetParam());
  const float w = 1280, h = 720;
  std::size_t labelled = 0;
  play(*sim, script_for(GetParam()), 600, [&](std::int64_t step) {
    if (step % 50 != 0) return;
    const auto boxes = game::screen_boxes(*sim);
    labelled += boxes.size();
    for (const auto& b : boxes) {
      EXPECT_GE(b.box.x0, 0.0f);
      EXPECT_GE(b.box.y0, 0.0f);
      EXPECT_LE(b.box.x1, w);
      EXPECT_LE(b.box.y1, h);
      EXPECT_GE(b.box.width(), 2.0f);
      EXPECT_GE(b.box.height(), 2.0f);
      EXPECT_LT(static_cast<std::size_t>(b.class_id), sim->classes().size());
    }
    // Every object whose centre projects into the window has a box holding that point.
    const game::Mat4 vp = sim->view_projection();
    for (const auto& o : sim->truth_objects()) {
      const auto c = game::project_point(vp, o.box.centre, w, h);
      if (!c || c->x < 0 || c->x > w || c->y < 0 || c->y > h) continue;
      const auto b = game::project_box(vp, o.box, w, h, 0.0f);
      ASSERT_TRUE(b.has_value());
      EXPECT_TRUE(c->x >= b->x0 - 1e-3f && c->x <= b->x1 + 1e-3f && c->y >= b->y0 - 1e-3f && c->y <= b->y1 + 1e-3f);
    }
  });
  EXPECT_GT(labelled, 0u) << "a game with nothing to label on screen";
}

INSTANTIATE_TEST_SUITE_P(Games, GameTest, ::testing::Values("racing", "shooter", "strategy"));

// ---- What each game draws fits its ground-truth box, tightly. ----

namespace {

// Every corner of every part lies inside the box (1 mm tolerance), and the parts reach each
// face of the box to within `slack` metres (so the box is not loose).
void expect_model_fits(const game::Model& model, const game::OrientedBox& box, float slack, const std::string& what) {
  float reach[6] = {-1e9f, -1e9f, -1e9f, -1e9f, -1e9f, -1e9f};  // +x −x +y −y +z −z in box frame
  for (const auto& part : model) {
    const game::OrientedBox pb = game::part_box(part);
    for (int i = 0; i < 8; ++i) {
      const game::Vec3 local{(i & 1) ? pb.half.x : -pb.half.x, (i & 2) ? pb.half.y : -pb.half.y,
                             (i & 4) ? pb.half.z : -pb.half.z};
      const game::Vec3 world = pb.centre + game::rotate_yaw(local, pb.yaw);
      const game::Vec3 in = game::rotate_yaw(world - box.centre, -box.yaw);
      EXPECT_LE(std::fabs(in.x), box.half.x + 1e-3f) << what;
      EXPECT_LE(std::fabs(in.y), box.half.y + 1e-3f) << what;
      EXPECT_LE(std::fabs(in.z), box.half.z + 1e-3f) << what;
      const float v[6] = {in.x, -in.x, in.y, -in.y, in.z, -in.z};
      for (int k = 0; k < 6; ++k) reach[k] = std::max(reach[k], v[k]);
    }
  }
  const float half[6] = {box.half.x, box.half.x, box.half.y, box.half.y, box.half.z, box.half.z};
  for (int k = 0; k < 6; ++k) EXPECT_GE(reach[k], half[k] - slack) << what << " face " << k;
}

}  // namespace

TEST(GameModels, RacingCarsAndObstaclesFitTheirBoxes) {
  game::GameSetup setup;
  racing::RacingSim sim(setup);
  for (float steer : {-1.0f, 0.0f, 1.0f})
    expect_model_fits(racing::car_model(sim.player(), steer, true, true), racing::RacingSim::car_box(sim.player()),
                      0.15f, "player car");
  for (const auto& o : sim.obstacles()) expect_model_fits(racing::obstacle_model(o), {o.position, o.half, o.yaw}, 0.01f, "obstacle");
}

TEST(GameModels, ShooterEnemiesAndPickupsFitTheirBoxes) {
  game::GameSetup setup;
  shooter::ShooterSim sim(setup);
  for (const auto& e : sim.enemies()) expect_model_fits(shooter::enemy_model(e), shooter::ShooterSim::enemy_box(e), 0.06f, "enemy");
  for (long long steps : {0LL, 17LL, 31LL})
    for (const auto& p : sim.pickups())
      expect_model_fits(shooter::pickup_model(p, steps), shooter::ShooterSim::pickup_box(p, steps), 0.01f, "pickup");
}

TEST(GameModels, StrategyObjectsFitTheirBoxes) {
  game::GameSetup setup;
  strategy::StrategySim sim(setup);
  for (auto u : sim.units()) {
    expect_model_fits(strategy::unit_model(u), strategy::StrategySim::unit_box(u), 0.06f, "unit");
    u.carried = 3;
    expect_model_fits(strategy::unit_model(u), strategy::StrategySim::unit_box(u), 0.06f, "unit carrying");
  }
  for (const auto& e : sim.enemies()) expect_model_fits(strategy::enemy_model(e), strategy::StrategySim::enemy_box(e), 0.01f, "enemy");
  for (const auto& c : sim.crystals())
    expect_model_fits(strategy::crystal_model(c), strategy::StrategySim::crystal_box(c), 0.11f, "crystal");
  expect_model_fits(strategy::base_model(sim.base()), sim.base_box(), 0.01f, "base");
}

// ---- Each input shows in the next frame, before any step runs. ----

TEST(GameInput, RacingKeysShowAtOnce) {
  game::GameSetup setup;
  racing::RacingSim sim(setup);
  sim.input(key(Kind::key_down, XK_Left));
  EXPECT_EQ(sim.steer(), 1);
  EXPECT_TRUE(sim.left_held());
  sim.input(key(Kind::key_down, XK_Down));
  EXPECT_TRUE(sim.braking());
  sim.input(key(Kind::key_down, XK_Up));
  EXPECT_TRUE(sim.throttle());
  sim.input(key(Kind::key_up, XK_Left));
  EXPECT_EQ(sim.steer(), 0);
  sim.input(key(Kind::key_up, XK_Down));
  EXPECT_FALSE(sim.braking());
  for (int i = 0; i < 120; ++i) sim.step();
  EXPECT_NEAR(sim.player().speed, 2 * 14.0f * 0.9f, 4.0f) << "2 s of throttle at 14 m/s², less drag";
}

TEST(GameInput, ShooterAimAndFireShowAtOnce) {
  game::GameSetup setup;
  shooter::ShooterSim sim(setup);
  sim.input(pointer(Kind::motion, 0, 640, 360));
  const game::Vec3 before = sim.camera().target;
  sim.input(pointer(Kind::motion, 0, 700, 330));
  const game::Vec3 after = sim.camera().target;
  EXPECT_GT(game::length(after - before), 0.1f) << "the view turns with the pointer";
  EXPECT_EQ(sim.muzzle_flash(), 0);
  sim.input(pointer(Kind::button_down, 1, 700, 330));
  EXPECT_GT(sim.muzzle_flash(), 0);
  sim.input(key(Kind::key_down, XK_a));
  EXPECT_TRUE(sim.held(1));
}

TEST(GameInput, ShooterHitsWhatIsUnderTheCrosshair) {
  game::GameSetup setup;
  shooter::ShooterSim sim(setup);
  // Aim at the first enemy: turn until it is straight ahead, then fire.
  const auto& e = sim.enemies()[0];
  const game::Vec3 eye = sim.camera().eye;
  const float want = std::atan2(e.position.x - eye.x, e.position.z - eye.z);
  sim.input(pointer(Kind::motion, 0, 640, 360));
  // yaw −= dx · 0.005: move the pointer by −want / 0.005 pixels (the start yaw is 0).
  sim.input(pointer(Kind::motion, 0, 640 - static_cast<int>(std::lround(want / 0.005f)), 360));
  const float dist = game::ground_distance(eye, e.position);
  const bool blocked = sim.obstacle_distance(eye, game::normalize(e.position + game::Vec3{0, 1.0f, 0} - eye)) < dist;
  sim.input(pointer(Kind::button_down, 1, 640, 360));
  const auto events = sim.take_events();
  if (blocked) GTEST_SKIP() << "seed places a pillar between the player and the first enemy";
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, "hit");
  EXPECT_FALSE(sim.enemies()[0].alive);
  EXPECT_GT(sim.hit_marker(), 0);
}

TEST(GameInput, StrategyScrollSelectAndCommandShowAtOnce) {
  game::GameSetup setup;
  strategy::StrategySim sim(setup);
  const game::Vec3 view = sim.camera_target();
  sim.input(key(Kind::key_down, XK_Right));
  EXPECT_GT(sim.camera_target().x, view.x) << "the view moves on the key press";
  sim.input(key(Kind::key_up, XK_Right));
  sim.input(pointer(Kind::button_down, 1, 10, 10));
  EXPECT_GT(sim.click_pulse(), 0);
  EXPECT_TRUE(sim.dragging());
  sim.input(pointer(Kind::motion, 0, 1270, 710));
  EXPECT_EQ(sim.drag_box().x1, 1270.0f);
  sim.input(pointer(Kind::button_up, 1, 1270, 710));
  EXPECT_EQ(sim.selected_count(), static_cast<int>(sim.units().size())) << "all units start around the base, in view";
  sim.input(pointer(Kind::button_down, 3, 640, 200));
  EXPECT_GT(sim.marker().steps, 0);
  const auto events = sim.take_events();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind, "command");
  // A click on empty ground clears the selection.
  sim.input(pointer(Kind::button_down, 1, 3, 3));
  sim.input(pointer(Kind::button_up, 1, 3, 3));
  EXPECT_EQ(sim.selected_count(), 0);
}

TEST(GameInput, StrategyWorkersGatherAndDeliver) {
  game::GameSetup setup;
  strategy::StrategySim sim(setup);
  // Select everything, then send it to the nearest crystal by clicking on its projection.
  sim.input(pointer(Kind::button_down, 1, 0, 0));
  sim.input(pointer(Kind::button_up, 1, 1279, 719));
  const auto& crystal = sim.crystals()[0];
  for (int i = 0; i < 4 && game::ground_distance(sim.camera_target(), crystal.position) > 1.0f; ++i) {
    // Scroll there: hold the arrow keys for the steps the distance needs at 40 m/s.
    const game::Vec3 d = crystal.position - sim.camera_target();
    const unsigned kx = d.x > 0 ? XK_Right : XK_Left, kz = d.z > 0 ? XK_Down : XK_Up;
    sim.input(key(Kind::key_down, kx));
    for (int s = 0; s < static_cast<int>(std::fabs(d.x) / 40.0f * 60.0f) - 1; ++s) sim.step();
    sim.input(key(Kind::key_up, kx));
    sim.input(key(Kind::key_down, kz));
    for (int s = 0; s < static_cast<int>(std::fabs(d.z) / 40.0f * 60.0f) - 1; ++s) sim.step();
    sim.input(key(Kind::key_up, kz));
  }
  const auto at = game::project_point(sim.view_projection(), crystal.position, 1280, 720);
  ASSERT_TRUE(at.has_value());
  sim.input(pointer(Kind::button_down, 3, static_cast<int>(at->x), static_cast<int>(at->y)));
  EXPECT_EQ(sim.marker().order, strategy::OrderKind::gather);
  for (int s = 0; s < 60 * 60 && sim.resources() == 0; ++s) sim.step();
  EXPECT_GT(sim.resources(), 0) << "workers should mine and bring crystal home within a minute";
}

// ---- The state log's parser names the file and line of what is wrong. ----

TEST(StateLog, ParserErrorsNameTheLine) {
  auto parse = [](const std::string& text) {
    std::istringstream in(text);
    return game::parse_state_log(in, "s.csv");
  };
  const std::string head = "# pictor game state log, schema 1\n# game=racing seed=1 detail=1 size=1280x720 step_s=1/60\n"
                           "step,event,detail,score\n";
  EXPECT_NO_THROW(parse(head + "0,start,,0\n3,input,key_down Up 1 2,0\n9,end,,0\n"));
  try {
    parse(head + "0,start,,0\nx,input,key_down Up 1 2,0\n");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "s.csv:5: bad step 'x'");
  }
  try {
    parse(head + "4,input,key_sideways Up 1 2,0\n");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("s.csv:4: bad input event 'key_sideways Up 1 2'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse("step,event,detail\n"), UsageError);  // no setup
  // The current form: header row first, the setup in the start row.
  const game::StateLog current = parse("step,event,detail,score\n0,start,game=shooter seed=4 detail=0.5 size=64x32 "
                                       "step_s=1/60 schema=1,0\n5,input,key_down Up 1 2,0\n9,end,,0\n");
  EXPECT_EQ(current.game, "shooter");
  EXPECT_EQ(current.setup.seed, 4u);
  EXPECT_EQ(current.setup.width, 64);
  EXPECT_EQ(current.inputs.size(), 1u);
  EXPECT_EQ(current.end_step, 9);
  try {
    parse("step,event,detail\n0,start,game=racing seed=1 detail=1 size=8x8 step_s=1/60 schema=9,\n");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "s.csv:2: state log schema 9 is newer than this Pictor reads (1)");
  }
  std::istringstream unknown("# game=chess seed=1 detail=1 size=10x10\nstep,event,detail\n0,end,,\n");
  EXPECT_THROW(game::replay_state_log(game::parse_state_log(unknown, "c.csv")), UsageError);
}

TEST(StateLog, InputTextRoundTrips) {
  for (const auto& e : {key(Kind::key_down, XK_Left), key(Kind::key_up, 0x1008ff11u), pointer(Kind::motion, 0, -3, 9),
                        pointer(Kind::button_down, 3, 100, 200), pointer(Kind::button_up, 1, 0, 0)}) {
    const auto back = game::parse_input_text(game::input_text(e));
    EXPECT_EQ(back.kind, e.kind);
    EXPECT_EQ(back.code, e.code);
    EXPECT_EQ(back.x, e.x);
    EXPECT_EQ(back.y, e.y);
  }
  EXPECT_EQ(game::input_text(key(Kind::key_down, XK_Up)), "key_down Up 640 360");
}

namespace {

TEST(CommonSceneOptions, EverySceneTakesMaxFpsAndChecksIt) {
  for (const auto& info : apps::scene_registry()) {
    const apps::SceneOptions given(info.make()->options(), {{"max_fps", "60"}}, info.name);
    EXPECT_DOUBLE_EQ(given.number("max_fps"), 60.0) << info.name;
    const apps::SceneOptions defaults(info.make()->options(), {}, info.name);
    EXPECT_DOUBLE_EQ(defaults.number("max_fps"), 0.0) << info.name;  // no limit
    // A bad value is refused where the options are read, before any window or GL context.
    EXPECT_THROW(apps::SceneOptions(info.make()->options(), {{"max_fps", "fast"}}, info.name), UsageError)
        << info.name;
    EXPECT_THROW(apps::SceneOptions(info.make()->options(), {{"max_fps", "-1"}}, info.name), UsageError)
        << info.name;
  }
}

}  // namespace
