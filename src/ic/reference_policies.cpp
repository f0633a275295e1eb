// The reference player's three game policies. Each is deliberately simple — a person's first
// plan for the game — and noisy; what makes them human-like is mostly ReferencePlayer's
// reaction delay between looking and acting.
#include <X11/keysym.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "ic/frame_image.h"
#include "ic/reference_player.h"

namespace pictor::ic {

namespace {

using drivers::Input;
using drivers::InputKind;

constexpr std::int64_t kMs = 1'000'000;

bool is_held(const PolicyContext& ctx, unsigned key) {
  return std::find(ctx.held_keys.begin(), ctx.held_keys.end(), key) != ctx.held_keys.end();
}

// Presses or releases `key` so that it ends up `down`; nothing when it already is.
void set_key(const PolicyContext& ctx, std::vector<PlannedInput>& plan, unsigned key, bool down, std::int64_t at) {
  if (is_held(ctx, key) == down) return;
  plan.push_back({at, Input{down ? InputKind::key_press : InputKind::key_release, key}});
}

int clamp_to(double v, int lo, int hi) { return std::clamp(static_cast<int>(std::lround(v)), lo, hi); }

// Racing: hold Up; steer toward the middle of the road a little ahead (found on screen: the
// road is the grey band, the grass green), away from an obstacle or car close ahead.
class RacingPolicy : public GamePolicy {
 public:
  std::vector<std::string> vocabulary() const override { return {"Up", "Left", "Right", "Down"}; }

  std::vector<PlannedInput> decide(PolicyContext& ctx, std::int64_t& look_again) override {
    look_again = 70 * kMs;
    const double W = ctx.width, H = ctx.height;
    // The farthest row below the horizon where the road is a band narrower than the window:
    // far rows show where the road goes; a row the road fills edge to edge says nothing.
    double target = NAN;
    for (double share = 0.42; share <= 0.74 && std::isnan(target); share += 0.04) target = road_centre(ctx, share);
    double error = std::isnan(target) ? last_error_ : (target - W / 2) / W;
    for (const auto& o : *ctx.objects) {
      if (o.cls != "obstacle" && o.cls != "car") continue;
      const bool close = o.y1 > 0.58 * H && o.y1 < 0.97 * H;
      const bool in_path = std::abs(o.cx() - W / 2) < o.w() / 2 + 0.07 * W;
      if (close && in_path) error += (o.cx() < W / 2 ? 0.12 : -0.12);
    }
    last_error_ = error;
    error += ctx.normal(0.015);
    std::vector<PlannedInput> plan;
    set_key(ctx, plan, XK_Up, true, 0);
    set_key(ctx, plan, XK_Right, error > kDeadband, 0);
    set_key(ctx, plan, XK_Left, error < -kDeadband, 0);
    return plan;
  }

 private:
  static constexpr double kDeadband = 0.03;

  // Mean x of road-coloured pixels on the row at `share` of the height; NaN when none.
  static double road_centre(const PolicyContext& ctx, double share) {
    if (!ctx.image) return NAN;
    const int y = clamp_to(share * ctx.height, 0, ctx.height - 1);
    double sum = 0;
    int n = 0, samples = 0;
    for (int x = ctx.width / 20; x < ctx.width - ctx.width / 20; x += 4, ++samples) {
      const Rgb p = pixel_rgb(*ctx.image, x, y);
      const int hi = std::max({p.r, p.g, p.b}), lo = std::min({p.r, p.g, p.b});
      if (hi - lo < 24 && hi > 40 && hi < 150) {
        sum += x;
        ++n;
      }
    }
    return n >= 4 && n < samples * 7 / 10 ? sum / n : NAN;
  }

  double last_error_ = 0;
};

// Shooter: turn toward the nearest (largest) visible enemy by moving the pointer, fire when the
// crosshair is on it; with no enemy in view, sweep the view and walk forward now and then.
class ShooterPolicy : public GamePolicy {
 public:
  std::vector<std::string> vocabulary() const override { return {"button1", "w"}; }

  std::vector<PlannedInput> decide(PolicyContext& ctx, std::int64_t& look_again) override {
    const int W = ctx.width, H = ctx.height;
    std::vector<PlannedInput> plan;
    if (ctx.pointer_x < 0) {
      plan.push_back({0, Input{InputKind::pointer_motion, 0, W / 2, H / 2}});
      look_again = 50 * kMs;
      return plan;
    }
    const SeenObject* target = nullptr;
    for (const auto& o : *ctx.objects)
      if (o.cls == "enemy" && (!target || o.h() > target->h())) target = &o;
    if (!target) {
      // Sweep: small pointer steps turn the view; reverse at the sides of the window.
      if (ctx.pointer_x > 0.85 * W) sweep_ = -1;
      if (ctx.pointer_x < 0.15 * W) sweep_ = 1;
      plan.push_back({0, Input{InputKind::pointer_motion, 0, clamp_to(ctx.pointer_x + sweep_ * 30, 0, W - 1), H / 2}});
      if (ctx.unit() < 0.15) {
        plan.push_back({10 * kMs, Input{InputKind::key_press, XK_w}});
        plan.push_back({static_cast<std::int64_t>((250 + 200 * ctx.unit()) * kMs), Input{InputKind::key_release, XK_w}});
      }
      look_again = 120 * kMs;
      return plan;
    }
    // Aim and fire only on a frame that shows what the last aim did (a person watches the
    // crosshair land before correcting again or pulling the trigger).
    if (!ctx.settled) {
      look_again = 15 * kMs;
      return plan;
    }
    const double ex = target->cx() - W / 2.0, ey = (target->y0 + 0.45 * target->h()) - H / 2.0;
    if (std::abs(ex) < std::max(4.0, 0.25 * target->w()) && std::abs(ey) < std::max(4.0, 0.3 * target->h())) {
      plan.push_back({0, Input{InputKind::button_press, 1}});
      plan.push_back({static_cast<std::int64_t>((60 + 40 * ctx.unit()) * kMs), Input{InputKind::button_release, 1}});
      look_again = 140 * kMs;
      return plan;
    }
    // The game turns 0.005 rad per pixel of pointer motion and its vertical field of view is
    // 1.2 rad, so a screen offset of e px needs e / (H/2 / tan 0.6 · 0.005) px of motion (0.38 at
    // 720 rows). The player moves 90 % of that (people undershoot rather than overshoot), with
    // ±12 % noise, and looks again once the frame shows where the view ended.
    const double gain = kAimShare * std::tan(0.6) / (0.005 * H / 2.0) * (1 + ctx.normal(0.12));
    plan.push_back({0, Input{InputKind::pointer_motion, 0, clamp_to(ctx.pointer_x + ex * gain, 0, W - 1),
                             clamp_to(ctx.pointer_y + ey * gain, H / 4, 3 * H / 4)}});
    look_again = 15 * kMs;
    return plan;
  }

 private:
  static constexpr double kAimShare = 0.9;
  int sweep_ = 1;
};

// Strategy: alternately send a worker to the nearest crystal and a soldier to the nearest
// enemy (click the unit, then right-click the target); scroll when nothing useful is in view.
class StrategyPolicy : public GamePolicy {
 public:
  std::vector<std::string> vocabulary() const override {
    return {"button1", "button3", "Up", "Down", "Left", "Right"};
  }

  std::vector<PlannedInput> decide(PolicyContext& ctx, std::int64_t& look_again) override {
    const int W = ctx.width, H = ctx.height;
    const auto& objs = *ctx.objects;
    auto pick = [&](const char* cls) {
      std::vector<const SeenObject*> out;
      for (const auto& o : objs)
        if (o.cls == cls && o.cx() > 0.05 * W && o.cx() < 0.95 * W && o.cy() > 0.08 * H && o.cy() < 0.92 * H)
          out.push_back(&o);
      return out;
    };
    const auto workers = pick("worker"), soldiers = pick("soldier"), crystals = pick("resource"), enemies = pick("enemy");
    std::vector<PlannedInput> plan;
    look_again = static_cast<std::int64_t>((700 + 500 * ctx.unit()) * kMs);
    for (int attempt = 0; attempt < 2; ++attempt, turn_ = !turn_) {
      const auto& units = turn_ ? soldiers : workers;
      const auto& targets = turn_ ? enemies : crystals;
      if (units.empty() || targets.empty()) continue;
      const SeenObject* unit = units[static_cast<std::size_t>(ctx.unit() * static_cast<double>(units.size()))];
      const SeenObject* best = targets.front();
      for (const auto* t : targets)
        if (std::hypot(t->cx() - unit->cx(), t->cy() - unit->cy()) < std::hypot(best->cx() - unit->cx(), best->cy() - unit->cy()))
          best = t;
      // Click near the bottom of a box: the game maps clicks to the ground under the pointer.
      const int ux = clamp_to(unit->cx() + ctx.normal(2), 0, W - 1), uy = clamp_to(unit->y0 + 0.7 * unit->h(), 0, H - 1);
      const int tx = clamp_to(best->cx() + ctx.normal(3), 0, W - 1), ty = clamp_to(best->y0 + 0.75 * best->h(), 0, H - 1);
      const std::int64_t move = static_cast<std::int64_t>((250 + 150 * ctx.unit()) * kMs);
      plan.push_back({0, Input{InputKind::pointer_motion, 0, ux, uy}});
      plan.push_back({40 * kMs, Input{InputKind::button_press, 1, ux, uy}});
      plan.push_back({110 * kMs, Input{InputKind::button_release, 1, ux, uy}});
      plan.push_back({110 * kMs + move, Input{InputKind::pointer_motion, 0, tx, ty}});
      plan.push_back({150 * kMs + move, Input{InputKind::button_press, 3, tx, ty}});
      plan.push_back({220 * kMs + move, Input{InputKind::button_release, 3, tx, ty}});
      turn_ = !turn_;
      return plan;
    }
    // Nothing to do here: scroll a while, never straight back the way it came.
    static constexpr unsigned kArrows[4] = {XK_Up, XK_Right, XK_Down, XK_Left};
    int dir = static_cast<int>(ctx.unit() * 4) % 4;
    if (dir == (last_scroll_ + 2) % 4) dir = (dir + 1) % 4;
    last_scroll_ = dir;
    const std::int64_t hold = static_cast<std::int64_t>((300 + 400 * ctx.unit()) * kMs);
    plan.push_back({0, Input{InputKind::key_press, kArrows[dir]}});
    plan.push_back({hold, Input{InputKind::key_release, kArrows[dir]}});
    look_again = hold + 300 * kMs;
    return plan;
  }

 private:
  bool turn_ = false;
  int last_scroll_ = -10;
};

}  // namespace

std::unique_ptr<GamePolicy> make_game_policy(const std::string& game) {
  if (game == "racing") return std::make_unique<RacingPolicy>();
  if (game == "shooter") return std::make_unique<ShooterPolicy>();
  if (game == "strategy") return std::make_unique<StrategyPolicy>();
  throw UsageError("reference player: no policy for game '" + game + "' (racing, shooter, strategy)");
}

}  // namespace pictor::ic
