#include "ic/act_modes.h"

namespace pictor::ic {

const options::OptionSet& ic_driver_option_set() {
  namespace o = options;
  static const o::OptionSet set(
      "driver 'ic'",
      {o::number("hold", "one held-probability threshold for every key (default: the model's calibrated ones)")
           .within(0, 1),
       o::number("fps", "at most this many frames looked at a second (default: the recordings' frame rate)")
           .within(0.1, 1000),
       o::flag("motion", "send the learnt pointer motion").or_default("on"),
       o::word("act", {"hybrid", "onsets", "held"}, "how probabilities become key states (docs/intelligent-client.md)")
           .or_default("hybrid"),
       o::flag("target", "aim presses and moves at the box the pointer-target head picks").or_default("on"),
       o::flag("live", "keep each key's held share and press rate at the teacher's while playing (act=hybrid, held)")
           .or_default("on"),
       o::number("settle", "crosshair models: ms after an input before a turn or press (default: the model's)")
           .within(0, 5000),
       o::word("fire", {"drawn", "box"}, "crosshair models: presses drawn, or clicked at boxes (default: box if settling)"),
       o::count("seed", "the sampling generator's seed: same seed, same frames, same actions").or_default("1"),
       o::integer("nice", "the client thread's nice value while the IC plays (negative needs CAP_SYS_NICE)")
           .within(-20, 19)
           .or_default("0")},
      ":,", "MODEL", "the model directory (`pictor train` wrote it)");
  return set;
}

IcDriverOptions ic_driver_options(const options::Values& values) {
  IcDriverOptions o;
  o.model = values.leading();
  o.hold = values.optional_number("hold");
  o.fps = values.optional_number("fps");
  o.motion = values.flag("motion");
  o.act = values.choice_as<ActMode>("act");
  o.target = values.flag("target");
  o.live = values.flag("live");
  o.settle_ms = values.optional_number("settle");
  o.fire = values.optional_choice_as<FireMode>("fire");
  o.seed = values.count("seed");
  o.nice = static_cast<int>(values.integer("nice"));
  return o;
}

IcDriverOptions parse_ic_driver_args(std::string_view args) {
  return ic_driver_options(options::parse(ic_driver_option_set(), args));
}

std::string_view act_mode_name(ActMode mode) {
  switch (mode) {
    case ActMode::hybrid: return "hybrid";
    case ActMode::onsets: return "onsets";
    case ActMode::held: return "held";
  }
  return "hybrid";
}

namespace {

// The key's state made to follow the held threshold.
KeyActs follow(const KeyView& key) {
  KeyActs a;
  if (key.want != key.held) (key.want ? a.press : a.release) = true;
  return a;
}

}  // namespace

KeyActs act_hybrid(const KeyView& key, const OnsetDraw& draw) {
  // Pointer buttons are clicked: pressed on a sampled onset, released on the next frame looked
  // at. A click is down on ~2 % of the recorded frames: a held threshold calibrated on so rare a
  // state never fired live, and a release threshold let buttons stay down for seconds over Xvnc.
  if (key.button) return {key.held, draw(Onset::press), false};
  if (key.want != key.held) return follow(key);
  if (key.want && draw(Onset::re_press)) return {true, true, true};
  return {};
}

KeyActs act_onsets(const KeyView& key, const OnsetDraw& draw) {
  // A press onset: a key already down is released and pressed again (as the teacher's
  // re-presses and repeated taps are). Releases follow the held probability.
  if (draw(Onset::press)) return {key.held, true, key.held};
  return {key.held && !key.want, false, false};
}

KeyActs act_held(const KeyView& key) { return follow(key); }

KeyActs act(ActMode mode, const KeyView& key, const OnsetDraw& draw) {
  switch (mode) {
    case ActMode::hybrid: return act_hybrid(key, draw);
    case ActMode::onsets: return act_onsets(key, draw);
    case ActMode::held: return act_held(key);
  }
  return {};
}

bool samples_moves(ActMode mode) { return mode != ActMode::held; }

bool uses_release_thresholds(ActMode mode) { return mode == ActMode::onsets; }

bool fires_at_boxes(std::optional<FireMode> asked, bool fired_only_at_boxes, std::int64_t settle_ns) {
  return fired_only_at_boxes && (asked ? *asked == FireMode::box : settle_ns > 0);
}

}  // namespace pictor::ic
