#include "drivers/scripted_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace pictor::drivers {

namespace {

// Keys are listed with '|' or '+' ("space|Left", "space+Left"): ',' and ':' already separate the
// driver's options, and no X keysym name contains '|' or '+' (they are "bar" and "plus").
std::vector<std::string> split_keys(const std::string& text) {
  std::vector<std::string> keys;
  std::string current;
  for (char c : text) {
    if (c == '|' || c == '+') {
      keys.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  keys.push_back(current);
  for (const auto& k : keys) {
    if (k.empty()) throw UsageError("driver 'scripted': keys='" + text + "' has an empty entry");
  }
  return keys;
}

std::string join_keys(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : "|") + k;
  return out;
}

}  // namespace

const options::OptionSet& scripted_option_set() {
  static const options::OptionSet set(
      "driver 'scripted'",
      {options::number("rate", "taps a second, on average")
           .within(ScriptedDriver::kMinRateHz, ScriptedDriver::kMaxRateHz)
           .or_default("5"),
       options::text("keys", "the keys and buttons it taps, '|' or '+' between (space|Left|button1)")
           .or_default("space|Left|Right"),
       options::count("seed", "the generator's seed: the same seed, the same taps").or_default("1"),
       options::duration("hold", "press to release (default: a quarter of the mean tap period)")});
  return set;
}

ScriptedOptions scripted_options(const options::Values& values) {
  ScriptedOptions o;
  o.rate_hz = values.number("rate");
  o.keys = split_keys(values.text("keys"));
  o.seed = values.count("seed");
  o.hold_s = values.optional_number("hold");
  return o;
}

ScriptedDriver::ScriptedDriver(ScriptedOptions options)
    : options_(std::move(options)), rng_(options_.seed) {
  if (!(options_.rate_hz >= kMinRateHz) || options_.rate_hz > kMaxRateHz) {
    throw UsageError(fmt::format("driver 'scripted': rate={} Hz is outside {}..{} Hz", options_.rate_hz,
                                 kMinRateHz, kMaxRateHz));
  }
  if (options_.keys.empty()) throw UsageError("driver 'scripted': keys= lists no key");
  for (const auto& k : options_.keys) codes_.push_back(parse_input_code(k));
  const double period_s = 1.0 / options_.rate_hz;
  if (!options_.hold_s) options_.hold_s = period_s / 4;
  // The release must come before the earliest next tap, so taps never overlap.
  const double hold_s = *options_.hold_s;
  if (!(hold_s > 0) || hold_s >= kMinGapShare * period_s) {
    throw UsageError(fmt::format(
        "driver 'scripted': hold={:g}ms must be above 0 and below {:g}ms (half the mean tap period at "
        "rate={:g})",
        hold_s * 1e3, kMinGapShare * period_s * 1e3, options_.rate_hz));
  }
  hold_ns_ = static_cast<std::int64_t>(std::llround(hold_s * 1e9));
}

std::string ScriptedDriver::spec() const {
  return fmt::format("scripted:rate={:g},keys={},seed={},hold={:g}ms", options_.rate_hz,
                     join_keys(options_.keys), options_.seed, *options_.hold_s * 1e3);
}

std::uint64_t ScriptedDriver::draw_below(std::uint64_t n) {
  // Rejection sampling: exact and independent of the library's distribution classes, whose
  // algorithms the standard leaves open (so seeds would not reproduce across toolchains).
  const std::uint64_t limit = rng_.max() - rng_.max() % n;
  std::uint64_t x = 0;
  do {
    x = rng_();
  } while (x >= limit);
  return x % n;
}

double ScriptedDriver::draw_unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }

Step ScriptedDriver::step(const ClientView& view) {
  Step out;
  const std::int64_t now = view.now_ns;
  const double period_ns = 1e9 / options_.rate_hz;
  if (!started_) {
    started_ = true;
    next_tap_ns_ = now;
  }
  if (release_pending_ && now >= release_ns_) {
    out.send.push_back(release_);
    release_pending_ = false;
  }
  if (!release_pending_ && now >= next_tap_ns_) {
    const InputCode& code = codes_[draw_below(codes_.size())];
    const InputKind press = code.button ? InputKind::button_press : InputKind::key_press;
    out.send.push_back(Input{press, code.code});
    release_ = Input{release_of(press), code.code};
    release_pending_ = true;
    // Times follow the schedule, not the moment the client called, so a late call does not slow
    // the mean rate; after a long stall the schedule restarts rather than sending a burst.
    const std::int64_t tap = now - next_tap_ns_ > static_cast<std::int64_t>(period_ns) ? now : next_tap_ns_;
    release_ns_ = tap + hold_ns_;
    const double gap = (kMinGapShare + (kMaxGapShare - kMinGapShare) * draw_unit()) * period_ns;
    next_tap_ns_ = tap + static_cast<std::int64_t>(std::llround(gap));
  }
  out.next_ns = release_pending_ ? std::min(release_ns_, next_tap_ns_) : next_tap_ns_;
  return out;
}

}  // namespace pictor::drivers
