// The scripted driver: seeded, rate-controlled taps (press, hold, release) of keys and buttons
// drawn from a list. Reproducible: the same seed and options give the same inputs at the same offsets.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "drivers/driver.h"

namespace pictor::drivers {

struct ScriptedOptions {
  double rate_hz = 5.0;      // taps per second on average
  std::vector<std::string> keys = {"space", "Left", "Right"};
  std::uint64_t seed = 1;
  std::optional<double> hold_s;  // press → release; nullopt: a quarter of the mean tap period
};

// The options of "scripted:rate=10,keys=a|b,seed=3,hold=20ms", declared (core/options.h).
const options::OptionSet& scripted_option_set();
// The values parse() read against scripted_option_set(). Throws UsageError for a key list with an
// empty entry.
ScriptedOptions scripted_options(const options::Values& values);

class ScriptedDriver : public Driver {
 public:
  // Throws UsageError for a non-positive or too high rate, an unknown key, or a hold that does
  // not end before the next tap can start.
  explicit ScriptedDriver(ScriptedOptions options);

  std::string spec() const override;
  std::vector<InputCode> vocabulary() const override { return codes_; }
  Step step(const ClientView& view) override;

  // The gap from one tap to the next is drawn uniformly from [0.5, 1.5] / rate: the mean rate is
  // `rate`, and taps do not phase-lock with the app's frame clock, so RTT samples fall at every
  // point of the frame interval rather than always at the same one.
  static constexpr double kMinGapShare = 0.5;
  static constexpr double kMaxGapShare = 1.5;
  static constexpr double kMaxRateHz = 1000.0;
  // One tap in ~17 minutes: slower rates are no benchmark, and below ~1e-9 Hz the tap period in
  // ns no longer fits int64 (rate=1e-300 was undefined behaviour, found by fuzz/fuzz_specs).
  static constexpr double kMinRateHz = 0.001;

 private:
  std::uint64_t draw_below(std::uint64_t n);  // uniform 0..n-1
  double draw_unit();                         // uniform [0, 1)

  ScriptedOptions options_;
  std::vector<InputCode> codes_;
  std::int64_t hold_ns_ = 0;
  std::mt19937_64 rng_;  // fully specified by the standard: the same sequence everywhere
  bool started_ = false;
  std::int64_t next_tap_ns_ = 0;
  bool release_pending_ = false;
  Input release_{};
  std::int64_t release_ns_ = 0;
};

}  // namespace pictor::drivers
