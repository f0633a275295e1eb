#include "apps/scenes/racing/racing_view.h"

#include <cmath>

#include "apps/game/overlay.h"
#include "apps/game/renderer.h"
#include "apps/scenes/racing/racing_models.h"
#include "apps/scenes/racing/racing_sim.h"

namespace pictor::racing {

using game::Instance;
using game::Vec3;

namespace {

const Vec3 kSky{0.62f, 0.75f, 0.9f};

// A part of a compound object: local offset and half extents, turned with the object.
Instance static_part(Vec3 position, float yaw, Vec3 offset, Vec3 half, Vec3 colour, float emissive = 0) {
  return game::make_instance(position + game::rotate_yaw(offset, yaw), yaw, half, colour, emissive);
}

class RacingView final : public game::GameView {
 public:
  explicit RacingView(const RacingSim& sim) : sim_(sim) {}

  void setup() override {
    renderer_.setup();
    overlay_.setup();
    const float detail = sim_.setup().detail;
    renderer_.add_model_meshes(detail);
    box_ = renderer_.add_mesh(game::box_mesh());
    cylinder_ = renderer_.add_mesh(game::cylinder_mesh(game::segments_for(detail, 10)));
    cone_ = renderer_.add_mesh(game::cone_mesh(game::segments_for(detail, 12)));
    plane_ = renderer_.add_mesh(game::plane_mesh());
    road_ = renderer_.add_mesh(road_mesh());
    build_static_instances();
  }

  void draw() override {
    glClearColor(kSky.x, kSky.y, kSky.z, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const game::Camera camera = sim_.camera();
    game::Lighting lighting;
    lighting.fog_colour = kSky;
    lighting.fog_start = 90;
    lighting.fog_end = 230;
    renderer_.begin(sim_.view_projection(), camera.eye, lighting);

    renderer_.add(car_model(sim_.player(), static_cast<float>(sim_.steer()), sim_.braking(), sim_.throttle()));
    for (const auto& o : sim_.opponents()) renderer_.add(car_model(o.car, 0, false, false));
    for (const auto& o : sim_.obstacles())
      if (o.knocked_steps == 0) renderer_.add(obstacle_model(o));
    renderer_.draw_models();
    renderer_.draw(box_, static_boxes_);
    renderer_.draw(cylinder_, trunks_);
    renderer_.draw(cone_, crowns_);
    renderer_.draw(road_, road_instance_);
    renderer_.draw(plane_, ground_);
    draw_hud();
  }

  void teardown() override {
    overlay_.teardown();
    renderer_.teardown();
  }

 private:
  game::MeshData road_mesh() const {
    game::MeshData m;
    const Track& t = sim_.track();
    const Vec3 up{0, 1, 0}, lift{0, 0.02f, 0};
    for (int i = 0; i < Track::kSamples; ++i) {
      const TrackSample& a = t.sample(i);
      const TrackSample& b = t.sample(i + 1);
      const float w = Track::kHalfWidth;
      const Vec3 al = a.centre + a.left * w + lift, ar = a.centre - a.left * w + lift;
      const Vec3 bl = b.centre + b.left * w + lift, br = b.centre - b.left * w + lift;
      m.triangle(al, ar, br, up);
      m.triangle(al, br, bl, up);
    }
    return m;
  }

  void build_static_instances() {
    Instance g;
    g.scale = {320, 1, 320};
    g.colour = {0.3f, 0.55f, 0.22f};
    g.pattern = 8;
    ground_ = {g};
    Instance r;
    r.colour = {0.3f, 0.3f, 0.33f};
    r.pattern = 2;
    road_instance_ = {r};
    const Track& t = sim_.track();
    for (int i = 0; i < Track::kSamples; i += 2) {
      const TrackSample& s = t.sample(i);
      const float yaw = std::atan2(s.tangent.x, s.tangent.z);
      const Vec3 colour = (i / 2) % 2 ? Vec3{0.85f, 0.1f, 0.1f} : Vec3{0.95f, 0.95f, 0.95f};
      for (float side : {-1.0f, 1.0f})
        static_boxes_.push_back(static_part(s.centre + s.left * (side * (Track::kHalfWidth + 0.4f)), yaw, {0, 0.08f, 0},
                                     {0.45f, 0.08f, 0.75f}, colour));
      if (i % 6 == 0)
        static_boxes_.push_back(static_part(s.centre, yaw, {0, 0.03f, 0}, {0.12f, 0.01f, 1.1f}, {0.95f, 0.95f, 0.9f}, 0.4f));
    }
    // Start gantry.
    const TrackSample& start = t.sample(0);
    const float yaw = std::atan2(start.tangent.x, start.tangent.z);
    for (float side : {-1.0f, 1.0f})
      static_boxes_.push_back(static_part(start.centre + start.left * (side * (Track::kHalfWidth + 1.2f)), yaw, {0, 3, 0},
                                   {0.25f, 3, 0.25f}, {0.8f, 0.8f, 0.8f}));
    static_boxes_.push_back(static_part(start.centre, yaw, {0, 6.2f, 0}, {Track::kHalfWidth + 1.5f, 0.5f, 0.3f},
                                 {0.1f, 0.1f, 0.6f}));
    static_boxes_.push_back(static_part(start.centre, yaw, {0, 0.025f, 0}, {Track::kHalfWidth, 0.01f, 0.6f},
                                 {0.95f, 0.95f, 0.95f}, 0.3f));
    for (const auto& tree : sim_.trees()) {
      Instance trunk;
      trunk.position = tree.position + Vec3{0, tree.height * 0.2f, 0};
      trunk.scale = {0.3f, tree.height * 0.2f, 0.3f};
      trunk.colour = {0.4f, 0.27f, 0.15f};
      trunks_.push_back(trunk);
      Instance crown;
      crown.position = tree.position + Vec3{0, tree.height * 0.65f, 0};
      crown.scale = {tree.radius, tree.height * 0.35f, tree.radius};
      crown.colour = {0.12f, 0.4f, 0.15f};
      crowns_.push_back(crown);
    }
  }

  void draw_hud() {
    const float w = static_cast<float>(sim_.setup().width), h = static_cast<float>(sim_.setup().height);
    const float u = h / 720.0f;  // HUD unit: sizes follow the window height
    const game::Rgba panel{0, 0, 0, 0.45f}, digits{1, 1, 1, 0.95f};
    overlay_.rect(w - 230 * u, h - 90 * u, 210 * u, 70 * u, panel);
    overlay_.number(static_cast<long long>(std::fabs(sim_.player().speed) * 3.6f), w - 35 * u, h - 80 * u, 50 * u, digits);
    overlay_.rect(20 * u, 20 * u, 150 * u, 70 * u, panel);
    overlay_.number(sim_.laps(), 150 * u, 30 * u, 50 * u, {1, 0.85f, 0.2f, 1});
    overlay_.rect(w - 120 * u, 20 * u, 100 * u, 70 * u, panel);
    overlay_.number(sim_.race_position(), w - 40 * u, 30 * u, 50 * u, {0.5f, 0.9f, 1, 1});
    // The held keys, lit: left, up, down, right.
    const bool held[4] = {sim_.left_held(), sim_.throttle(), sim_.braking(), sim_.right_held()};
    const float size = 34 * u, x0 = w / 2 - 2 * size - 12 * u, y0 = h - size - 20 * u;
    for (int k = 0; k < 4; ++k) {
      const float x = x0 + static_cast<float>(k) * (size + 8 * u);
      overlay_.rect(x, y0, size, size, held[k] ? game::Rgba{1, 0.8f, 0.1f, 0.95f} : panel);
    }
    if (sim_.hit_flash() > 0) overlay_.frame(0, 0, w, h, 14 * u, {1, 0.1f, 0.05f, 0.6f});
    overlay_.flush(sim_.setup().width, sim_.setup().height);
  }

  const RacingSim& sim_;
  game::MeshRenderer renderer_;
  game::Overlay overlay_;
  game::MeshRenderer::MeshId box_ = -1, cylinder_ = -1, cone_ = -1, plane_ = -1, road_ = -1;
  std::vector<Instance> ground_, road_instance_, static_boxes_, trunks_, crowns_;
};

}  // namespace

std::unique_ptr<game::GameView> make_racing_view(const RacingSim& sim) { return std::make_unique<RacingView>(sim); }

}  // namespace pictor::racing
