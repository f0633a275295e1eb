#include "apps/scenes/shooter/shooter_view.h"

#include <cmath>

#include "apps/game/overlay.h"
#include "apps/game/renderer.h"
#include "apps/game/rng.h"
#include "apps/scenes/shooter/shooter_models.h"
#include "apps/scenes/shooter/shooter_sim.h"

namespace pictor::shooter {

using game::Instance;
using game::Vec3;

namespace {

const Vec3 kFog{0.1f, 0.11f, 0.16f};

Instance box_instance(const game::OrientedBox& b, Vec3 colour, float pattern = 0, float emissive = 0) {
  return game::make_instance(b.centre, b.yaw, b.half, colour, emissive, pattern);
}

class ShooterView final : public game::GameView {
 public:
  explicit ShooterView(const ShooterSim& sim) : sim_(sim) {}

  void setup() override {
    renderer_.setup();
    overlay_.setup();
    const float detail = sim_.setup().detail;
    renderer_.add_model_meshes(detail);
    box_ = renderer_.add_mesh(game::box_mesh());
    plane_ = renderer_.add_mesh(game::plane_mesh());
    Instance floor;
    floor.scale = {ShooterSim::kArenaHalf + 60, 1, ShooterSim::kArenaHalf + 60};
    floor.colour = {0.35f, 0.36f, 0.42f};
    floor.pattern = 2;
    // A ceiling over the arena (normal turned down by the negative y scale): the whole window is
    // shaded geometry, not clear colour.
    Instance ceiling;
    ceiling.position = {0, 5.0f, 0};
    ceiling.scale = {ShooterSim::kArenaHalf + 1, -1, ShooterSim::kArenaHalf + 1};
    ceiling.colour = {0.28f, 0.27f, 0.3f};
    ceiling.pattern = 4;
    floor_ = {floor, ceiling};
    for (const auto& w : sim_.walls()) static_.push_back(box_instance(w, {0.45f, 0.42f, 0.4f}, 1.5f));
    for (const auto& p : sim_.pillars()) static_.push_back(box_instance(p, {0.55f, 0.5f, 0.45f}, 1.0f));
    // Crates stacked along the walls and lamps on them: scenery whose count follows detail.
    game::Rng rng(sim_.setup().seed ^ 0xC0A7Eull);
    const int crates = std::max(8, static_cast<int>(std::lround(60 * detail)));
    const float a = ShooterSim::kArenaHalf - 1.0f;
    for (int i = 0; i < crates; ++i) {
      const float along = rng.range(-a, a);
      const int side = rng.below(4);
      const float size = rng.range(0.4f, 0.8f);
      const Vec3 c = side == 0 ? Vec3{along, size, a} : side == 1 ? Vec3{along, size, -a}
                   : side == 2 ? Vec3{a, size, along} : Vec3{-a, size, along};
      static_.push_back(box_instance({c, {size, size, size}, rng.range(0.0f, 1.5f)}, {0.5f, 0.36f, 0.2f}));
    }
    for (int i = -3; i <= 3; ++i) {
      const float along = static_cast<float>(i) * 10.0f;
      for (const Vec3& c : {Vec3{along, 4.2f, a + 0.9f}, Vec3{along, 4.2f, -a - 0.9f},
                            Vec3{a + 0.9f, 4.2f, along}, Vec3{-a - 0.9f, 4.2f, along}})
        static_.push_back(box_instance({c, {0.6f, 0.25f, 0.6f}, 0}, {1.0f, 0.9f, 0.6f}, 0, 1.0f));
    }
  }

  void draw() override {
    glClearColor(kFog.x, kFog.y, kFog.z, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    game::Lighting lighting;
    lighting.fog_colour = kFog;
    lighting.fog_start = 25;
    lighting.fog_end = 100;
    lighting.light_direction = {0.3f, 0.9f, 0.5f};
    renderer_.begin(sim_.view_projection(), sim_.camera().eye, lighting);
    for (const auto& e : sim_.enemies())
      if (e.alive) renderer_.add(enemy_model(e));
    for (const auto& p : sim_.pickups()) renderer_.add(pickup_model(p, sim_.steps()));
    renderer_.draw_models();
    renderer_.draw(box_, static_);
    renderer_.draw(plane_, floor_);
    draw_hud();
  }

  void teardown() override {
    overlay_.teardown();
    renderer_.teardown();
  }

 private:
  void draw_hud() {
    const float w = static_cast<float>(sim_.setup().width), h = static_cast<float>(sim_.setup().height);
    const float u = h / 720.0f;
    const game::Rgba panel{0, 0, 0, 0.45f};
    // The gun, and its flash when button 1 was pressed: visible in the next frame.
    overlay_.rect(w * 0.62f, h - 150 * u, 70 * u, 150 * u, {0.18f, 0.18f, 0.2f, 1});
    overlay_.rect(w * 0.62f + 20 * u, h - 190 * u, 30 * u, 60 * u, {0.25f, 0.25f, 0.28f, 1});
    if (sim_.muzzle_flash() > 0) {
      overlay_.rect(w * 0.62f - 5 * u, h - 250 * u, 80 * u, 70 * u, {1, 0.85f, 0.3f, 0.95f});
      overlay_.rect(0, 0, w, h, {1, 0.9f, 0.6f, 0.12f});
    }
    // Crosshair: red while a hit is confirmed.
    const game::Rgba cross = sim_.hit_marker() > 0 ? game::Rgba{1, 0.15f, 0.1f, 1} : game::Rgba{1, 1, 1, 0.9f};
    const float cx = w / 2, cy = h / 2, arm = 12 * u, t = 2 * u, gap = 5 * u;
    overlay_.rect(cx - gap - arm, cy - t / 2, arm, t, cross);
    overlay_.rect(cx + gap, cy - t / 2, arm, t, cross);
    overlay_.rect(cx - t / 2, cy - gap - arm, t, arm, cross);
    overlay_.rect(cx - t / 2, cy + gap, t, arm, cross);
    // Health bar, score, held keys.
    overlay_.rect(20 * u, h - 50 * u, 260 * u, 30 * u, panel);
    overlay_.rect(25 * u, h - 45 * u, 2.5f * u * static_cast<float>(sim_.health()), 20 * u, {0.2f, 0.85f, 0.3f, 0.9f});
    overlay_.rect(w - 230 * u, 20 * u, 210 * u, 70 * u, panel);
    overlay_.number(sim_.score(), w - 35 * u, 30 * u, 50 * u, {1, 1, 1, 0.95f});
    const float size = 26 * u;
    const float kx[4] = {1, 0, 1, 2}, ky[4] = {0, 1, 1, 1};  // w a s d on a keyboard grid
    for (int k = 0; k < 4; ++k)
      overlay_.rect(20 * u + kx[k] * (size + 4 * u), 20 * u + ky[k] * (size + 4 * u), size, size,
                    sim_.held(k) ? game::Rgba{1, 0.8f, 0.1f, 0.95f} : panel);
    if (sim_.hurt_flash() > 0) overlay_.frame(0, 0, w, h, 18 * u, {0.9f, 0.05f, 0.05f, 0.55f});
    overlay_.flush(sim_.setup().width, sim_.setup().height);
  }

  const ShooterSim& sim_;
  game::MeshRenderer renderer_;
  game::Overlay overlay_;
  game::MeshRenderer::MeshId box_ = -1, plane_ = -1;
  std::vector<Instance> floor_, static_;
};

}  // namespace

std::unique_ptr<game::GameView> make_shooter_view(const ShooterSim& sim) { return std::make_unique<ShooterView>(sim); }

}  // namespace pictor::shooter
