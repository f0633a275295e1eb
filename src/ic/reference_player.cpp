#include "ic/reference_player.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/stats.h"
#include "core/error.h"
#include "core/units.h"

namespace pictor::ic {

namespace fs = std::filesystem;

double PolicyContext::unit() { return static_cast<double>((*rng)() >> 11) * 0x1.0p-53; }

double PolicyContext::normal(double sd) {
  // Box–Muller on our own uniform draws: std::normal_distribution differs between libraries,
  // and the reference player must replay the same for the same seed everywhere.
  double u1 = unit();
  if (u1 < 1e-300) u1 = 1e-300;
  const double u2 = unit();
  return sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

std::string scene_name(const std::string& builtin) { return builtin.substr(0, builtin.find(':')); }

bool plays_reference_game(const std::string& game) {
  return game == "racing" || game == "shooter" || game == "strategy";
}

bool is_reference_spec(const std::string& spec) { return spec == "reference" || spec.rfind("reference:", 0) == 0; }

std::string complete_reference_spec(const std::string& spec, const std::string& game, std::uint64_t seed,
                                    const std::string& truth_dir) {
  const std::string extra = spec.size() > 10 ? "," + spec.substr(10) : "";
  return fmt::format("reference:game={},seed={},truth={}{}", game, seed, truth_dir, extra);
}

const options::OptionSet& reference_option_set() {
  static const options::OptionSet set(
      "driver 'reference'",
      {options::word("game", {"racing", "shooter", "strategy"}, "the built-in game it plays").must_be_given(),
       options::count("seed", "the noise generator's seed").or_default("1"),
       options::text("truth", "the game's ground-truth directory (`pictor record` sets it)").must_be_given(),
       options::duration("rt", "median reaction time").within(1e-6, kMaxDurationS).or_default("215ms"),
       options::duration("max_hold", "a key held longer is released and pressed again (0: off)").or_default("450ms"),
       options::duration("settle", "how long after its last input a frame shows that input's effect")
           .or_default("100ms")});
  return set;
}

ReferenceOptions reference_options(const options::Values& values) {
  auto ns = [&](const char* name) { return static_cast<std::int64_t>(std::llround(values.number(name) * 1e9)); };
  ReferenceOptions o;
  o.game = values.text("game");
  o.seed = values.count("seed");
  o.truth_dir = values.text("truth");
  o.max_hold_ns = ns("max_hold");
  o.settle_ns = ns("settle");
  o.reaction_median_ms = values.number("rt") * 1e3;
  // A slower or faster median widens the clamp so that it stays around the median.
  o.reaction_min_ms = std::min(o.reaction_min_ms, o.reaction_median_ms / 2);
  o.reaction_max_ms = std::max(o.reaction_max_ms, o.reaction_median_ms * 2);
  return o;
}

ReferenceOptions parse_reference_options(std::string_view args) {
  return reference_options(options::parse(reference_option_set(), args));
}

ReferencePlayer::ReferencePlayer(ReferenceOptions options)
    : options_(std::move(options)), policy_(make_game_policy(options_.game)), rng_(options_.seed) {}

std::string ReferencePlayer::spec() const {
  return fmt::format("reference:game={},seed={},rt={:g}ms,max_hold={:g}ms,settle={:g}ms,truth={}", options_.game,
                     options_.seed, options_.reaction_median_ms, static_cast<double>(options_.max_hold_ns) * 1e-6,
                     static_cast<double>(options_.settle_ns) * 1e-6, options_.truth_dir);
}

std::vector<drivers::InputCode> ReferencePlayer::vocabulary() const {
  std::vector<drivers::InputCode> v;
  for (const auto& name : policy_->vocabulary()) v.push_back(drivers::parse_input_code(name));
  return v;
}

double ReferencePlayer::draw_reaction_ms() {
  PolicyContext c;
  c.rng = &rng_;
  const double rt = options_.reaction_median_ms * std::exp(c.normal(options_.reaction_log_sd));
  return std::clamp(rt, options_.reaction_min_ms, options_.reaction_max_ms);
}

std::optional<std::vector<SeenObject>> ReferencePlayer::read_truth(std::uint64_t frame, int width, int height) {
  if (classes_.empty()) {
    const fs::path p = fs::path(options_.truth_dir) / "classes.txt";
    if (!fs::exists(p)) return std::nullopt;
    classes_ = read_classes_txt(p.string());
  }
  const fs::path p = fs::path(options_.truth_dir) / "labels" / fmt::format("frame_{:06d}.txt", frame);
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  std::vector<LabelBox> boxes;
  try {
    boxes = parse_yolo_text(s.str(), p.string(), static_cast<int>(classes_.size()));
  } catch (const UsageError&) {
    return std::nullopt;  // caught mid-write by the game: use the previous frame's view
  }
  std::vector<SeenObject> out;
  for (const auto& b : boxes) {
    out.push_back({classes_[static_cast<std::size_t>(b.class_id)], (b.cx - b.w / 2) * width, (b.cy - b.h / 2) * height,
                   (b.cx + b.w / 2) * width, (b.cy + b.h / 2) * height});
  }
  return out;
}

drivers::Step ReferencePlayer::step(const drivers::ClientView& view) {
  drivers::Step out;
  const std::int64_t now = view.now_ns;
  if (first_ns_ < 0) first_ns_ = now;
  last_ns_ = now;
  while (!planned_.empty() && planned_.front().first <= now) {
    const drivers::Input& in = planned_.front().second;
    if (drivers::is_key(in.kind)) {
      if (drivers::is_press(in.kind)) pressed_at_[in.code] = now;
      else pressed_at_.erase(in.code);
    }
    out.send.push_back(in);
    last_sent_ns_ = now;
    planned_.pop_front();
    ++inputs_sent_;
  }
  if (options_.max_hold_ns > 0 && planned_.empty()) {
    for (auto& [key, since] : pressed_at_) {
      if (now - since < options_.max_hold_ns) continue;
      out.send.push_back(drivers::Input{drivers::InputKind::key_release, key});
      planned_.emplace_back(now + 25'000'000, drivers::Input{drivers::InputKind::key_press, key});
      since = now;
      ++re_presses_;
      ++inputs_sent_;
      break;  // one at a time keeps the queue in time order
    }
  }
  if (now >= next_look_ns_ && view.frame && view.image) {
    const int w = view.image->width, h = view.image->height;
    if (view.frame != last_frame_) {
      if (auto objects = read_truth(*view.frame, w, h)) {
        last_objects_ = std::move(*objects);
      } else {
        ++frames_without_truth_;
      }
      last_frame_ = view.frame;
    }
    PolicyContext ctx;
    ctx.width = w;
    ctx.height = h;
    ctx.objects = &last_objects_;
    ctx.image = view.image;
    ctx.held_keys = planned_keys_;
    ctx.pointer_x = planned_x_;
    ctx.pointer_y = planned_y_;
    ctx.settled = planned_.empty() && (last_sent_ns_ < 0 || view.frame_seen_ns >= last_sent_ns_ + options_.settle_ns);
    ctx.rng = &rng_;
    std::int64_t look_again = 100'000'000;
    const std::vector<PlannedInput> plan = policy_->decide(ctx, look_again);
    ++decisions_;
    if (!plan.empty()) {
      const double rt = draw_reaction_ms();
      reactions_ms_.push_back(rt);
      // Inputs keep their order: a decision made while an earlier one is still pending waits.
      std::int64_t base = now + static_cast<std::int64_t>(rt * 1e6);
      if (!planned_.empty()) base = std::max(base, planned_.back().first + 1'000'000);
      for (const auto& p : plan) {
        planned_.emplace_back(base + p.offset_ns, p.input);
        const auto& in = p.input;
        if (in.x >= 0) {
          planned_x_ = in.x;
          planned_y_ = in.y;
        }
        if (drivers::is_key(in.kind)) {
          auto it = std::find(planned_keys_.begin(), planned_keys_.end(), in.code);
          if (drivers::is_press(in.kind) && it == planned_keys_.end()) planned_keys_.push_back(in.code);
          if (!drivers::is_press(in.kind) && it != planned_keys_.end()) planned_keys_.erase(it);
        }
      }
    }
    next_look_ns_ = now + std::max<std::int64_t>(look_again, 10'000'000);
  }
  out.next_ns = planned_.empty() ? next_look_ns_ : std::min(next_look_ns_, planned_.front().first);
  return out;
}

nlohmann::json ReferencePlayer::report() const {
  const double minutes = last_ns_ > first_ns_ ? static_cast<double>(last_ns_ - first_ns_) / 60e9 : 0;
  return {{"synthetic", true},
          {"decisions", decisions_},
          {"inputs", inputs_sent_},
          {"actions_per_minute", minutes > 0 ? nlohmann::json(static_cast<double>(inputs_sent_) / minutes) : nlohmann::json(nullptr)},
          {"reaction_ms_median", reactions_ms_.empty() ? nlohmann::json(nullptr)
                                                       : nlohmann::json(analysis::stats::percentile(reactions_ms_, 50))},
          {"frames_without_truth", frames_without_truth_},
          {"re_presses", re_presses_},
          {"max_hold_ms", static_cast<double>(options_.max_hold_ns) * 1e-6},
          {"settle_ms", static_cast<double>(options_.settle_ns) * 1e-6}};
}

}  // namespace pictor::ic
