#include "apps/scenes/strategy/strategy_view.h"

#include <cmath>

#include "apps/game/overlay.h"
#include "apps/game/renderer.h"
#include "apps/scenes/strategy/strategy_models.h"
#include "apps/scenes/strategy/strategy_sim.h"

namespace pictor::strategy {

using game::Instance;
using game::Vec3;

namespace {

const Vec3 kHaze{0.55f, 0.62f, 0.7f};

class StrategyView final : public game::GameView {
 public:
  explicit StrategyView(const StrategySim& sim) : sim_(sim) {}

  void setup() override {
    renderer_.setup();
    overlay_.setup();
    const float detail = sim_.setup().detail;
    renderer_.add_model_meshes(detail);
    box_ = renderer_.add_mesh(game::box_mesh());
    cylinder_ = renderer_.add_mesh(game::cylinder_mesh(game::segments_for(detail, 12)));
    cone_ = renderer_.add_mesh(game::cone_mesh(game::segments_for(detail, 10)));
    sphere_ = renderer_.add_mesh(game::sphere_mesh(game::segments_for(detail, 12), game::segments_for(detail, 8)));
    plane_ = renderer_.add_mesh(game::plane_mesh());
    Instance ground;
    ground.scale = {StrategySim::kMapHalf + 60, 1, StrategySim::kMapHalf + 60};
    ground.colour = {0.36f, 0.5f, 0.27f};
    ground.pattern = 10;
    ground_ = {ground};
    const float m = StrategySim::kMapHalf + 1;
    for (const Vec3& c : {Vec3{0, 0.5f, m}, Vec3{0, 0.5f, -m}})
      static_boxes_.push_back(game::make_instance(c, 0, {m + 1, 0.5f, 0.5f}, {0.3f, 0.28f, 0.25f}));
    for (const Vec3& c : {Vec3{m, 0.5f, 0}, Vec3{-m, 0.5f, 0}})
      static_boxes_.push_back(game::make_instance(c, 0, {0.5f, 0.5f, m + 1}, {0.3f, 0.28f, 0.25f}));
    for (const auto& p : sim_.props()) {
      if (p.rock) {
        static_spheres_.push_back(game::make_instance(p.position + Vec3{0, p.size * 0.3f, 0}, p.size,
                                       {p.size, p.size * 0.6f, p.size * 0.8f}, {0.5f, 0.48f, 0.45f}));
      } else {
        static_cylinders_.push_back(game::make_instance(p.position + Vec3{0, p.size, 0}, 0, {0.25f, p.size, 0.25f}, {0.4f, 0.28f, 0.15f}));
        static_cones_.push_back(game::make_instance(p.position + Vec3{0, p.size * 2.6f, 0}, 0, {p.size * 1.1f, p.size * 1.3f, p.size * 1.1f},
                                     {0.15f, 0.42f, 0.18f}));
      }
    }
  }

  void draw() override {
    glClearColor(kHaze.x, kHaze.y, kHaze.z, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    game::Lighting lighting;
    lighting.fog_colour = kHaze;
    lighting.fog_start = 120;
    lighting.fog_end = 260;
    lighting.light_direction = {-0.4f, 0.85f, 0.35f};
    renderer_.begin(sim_.view_projection(), sim_.camera().eye, lighting);

    renderer_.add(base_model(sim_.base()));
    for (const auto& u : sim_.units()) {
      if (!u.alive) continue;
      if (u.selected)
        renderer_.add(game::part(game::MeshKind::cylinder, u.position, 0, {0, 0.04f, 0}, {1.1f, 0.03f, 1.1f},
                                 {0.2f, 1, 0.3f}, 1));
      renderer_.add(unit_model(u));
    }
    for (const auto& e : sim_.enemies())
      if (e.alive) renderer_.add(enemy_model(e));
    for (const auto& c : sim_.crystals())
      if (c.amount > 0) renderer_.add(crystal_model(c));
    const Marker& mk = sim_.marker();
    if (mk.steps > 0) {
      const Vec3 colour = mk.order == OrderKind::attack   ? Vec3{1, 0.2f, 0.1f}
                          : mk.order == OrderKind::gather ? Vec3{0.3f, 0.9f, 1}
                                                          : Vec3{0.3f, 1, 0.3f};
      const float r = 0.6f + 0.03f * static_cast<float>(mk.steps);
      renderer_.add(game::part(game::MeshKind::cylinder, mk.position, 0, {0, 0.05f, 0}, {r, 0.04f, r}, colour, 1));
    }
    renderer_.draw_models();
    renderer_.draw(box_, static_boxes_);
    renderer_.draw(cylinder_, static_cylinders_);
    renderer_.draw(cone_, static_cones_);
    renderer_.draw(sphere_, static_spheres_);
    renderer_.draw(plane_, ground_);
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
    overlay_.rect(20 * u, 20 * u, 210 * u, 70 * u, panel);
    overlay_.number(sim_.resources(), 215 * u, 30 * u, 50 * u, {0.4f, 0.9f, 1, 1});
    overlay_.rect(w - 230 * u, 20 * u, 210 * u, 70 * u, panel);
    overlay_.number(sim_.score(), w - 35 * u, 30 * u, 50 * u, {1, 1, 1, 0.95f});
    overlay_.rect(250 * u, 20 * u, 100 * u, 70 * u, panel);
    overlay_.number(sim_.selected_count(), 335 * u, 30 * u, 50 * u, {0.3f, 1, 0.4f, 1});
    // Minimap: the whole map in a corner, with the camera's spot.
    const float size = 180 * u, mx = w - size - 20 * u, my = h - size - 20 * u;
    const float half = StrategySim::kMapHalf;
    overlay_.rect(mx, my, size, size, {0.1f, 0.2f, 0.1f, 0.8f});
    auto dot = [&](Vec3 p, float r, game::Rgba c) {
      overlay_.rect(mx + (p.x + half) / (2 * half) * size - r, my + (p.z + half) / (2 * half) * size - r, 2 * r, 2 * r, c);
    };
    for (const auto& c : sim_.crystals())
      if (c.amount > 0) dot(c.position, 1.5f * u, {0.3f, 0.9f, 1, 1});
    for (const auto& e : sim_.enemies())
      if (e.alive) dot(e.position, 2 * u, {1, 0.2f, 0.2f, 1});
    for (const auto& un : sim_.units())
      if (un.alive) dot(un.position, 2 * u, un.selected ? game::Rgba{0.3f, 1, 0.4f, 1} : game::Rgba{0.9f, 0.9f, 0.3f, 1});
    dot(sim_.base(), 4 * u, {1, 1, 1, 1});
    const Vec3 v = sim_.camera_target();
    overlay_.frame(mx + (v.x - 40 + half) / (2 * half) * size, my + (v.z - 30 + half) / (2 * half) * size,
                   80 / (2 * half) * size, 50 / (2 * half) * size, 1.5f * u, {1, 1, 1, 0.8f});
    // Held arrows (left, right, up, down), the drag box, and the echo of the last click.
    for (int k = 0; k < 4; ++k)
      overlay_.rect(20 * u + static_cast<float>(k) * 34 * u, h - 50 * u, 28 * u, 28 * u,
                    sim_.scrolling(k) ? game::Rgba{1, 0.8f, 0.1f, 0.95f} : panel);
    if (sim_.dragging()) {
      const game::ScreenBox b = sim_.drag_box();
      overlay_.rect(b.x0, b.y0, b.width(), b.height(), {0.3f, 1, 0.4f, 0.12f});
      overlay_.frame(b.x0, b.y0, b.width() + 1, b.height() + 1, 1.5f * u, {0.3f, 1, 0.4f, 0.9f});
    }
    if (sim_.click_pulse() > 0) {
      const game::Vec2 c = sim_.click_position();
      const float r = (6.0f + 1.5f * static_cast<float>(sim_.click_pulse())) * u;
      overlay_.frame(c.x - r, c.y - r, 2 * r, 2 * r, 2 * u, {1, 1, 1, 0.9f});
    }
    overlay_.flush(sim_.setup().width, sim_.setup().height);
  }

  const StrategySim& sim_;
  game::MeshRenderer renderer_;
  game::Overlay overlay_;
  game::MeshRenderer::MeshId box_ = -1, cylinder_ = -1, cone_ = -1, sphere_ = -1, plane_ = -1;
  std::vector<Instance> ground_, static_boxes_, static_cylinders_, static_cones_, static_spheres_;
};

}  // namespace

std::unique_ptr<game::GameView> make_strategy_view(const StrategySim& sim) { return std::make_unique<StrategyView>(sim); }

}  // namespace pictor::strategy
