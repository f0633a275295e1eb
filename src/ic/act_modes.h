// The `ic:MODEL` driver's options and its act modes as small pure functions: how the policy's
// per-frame probabilities become presses and releases of one key. No libtorch here.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/options.h"

namespace pictor::ic {

// How the policy's outputs become key states (act=...):
//   hybrid (default): the state follows the hold thresholds, and a key that stays down is
//     re-pressed on onsets sampled at the calibrated re-press rate; pointer buttons are clicked
//     on sampled onsets. It played racing best of the three in docs/performance.md (table 3).
//   onsets: presses are sampled from the calibrated onset probabilities (a press of a key
//     already down is a release and a press); releases follow the release thresholds.
//   held: the state follows the hold thresholds alone (a key changes at most once per frame
//     looked at, so short taps and re-presses are never made); pointer motion every frame.
enum class ActMode { hybrid, onsets, held };  // in the order of the option's words
// Crosshair models whose teacher fired only with a box under the crosshair (fire=...):
//   drawn: button presses are drawn from the policy and wait up to 500 ms for a box;
//   box: a button is clicked on every settled frame with a box under the crosshair.
enum class FireMode { drawn, box };

struct IcDriverOptions {
  std::string model;
  std::optional<double> hold;       // one held threshold for every key; nullopt: the calibrated ones
  std::optional<double> fps;        // frames looked at per second; nullopt: the recordings' rate
  bool motion = true;
  ActMode act = ActMode::hybrid;
  bool target = true;
  // Keep each key's held share and press rate at the teacher's on the frames played
  // (live_calibration.h); off: the thresholds and re-press scales calibrated offline alone.
  bool live = true;
  std::optional<double> settle_ms;  // crosshair turns' cadence; nullopt: the model's aim.interval_ms
  std::optional<FireMode> fire;     // nullopt: box for a model that settles and fired only at boxes
  std::uint64_t seed = 1;
  // The client thread's nice value while the IC plays (setpriority on the thread, once, before
  // its first frame); 0 leaves it as it is. A negative one needs CAP_SYS_NICE: refused, the
  // thread keeps its priority and the driver report says why.
  int nice = 0;
};

// The options of "ic:MODEL[,k=v...]", declared (core/options.h); `pictor list` shows their help.
const options::OptionSet& ic_driver_option_set();
IcDriverOptions ic_driver_options(const options::Values& values);
// "PATH[,k=v...]": the path runs to the first ',' (it may hold '/' and ':'). Throws UsageError
// for a missing path or a bad option.
IcDriverOptions parse_ic_driver_args(std::string_view args);
std::string_view act_mode_name(ActMode mode);

// ---- one key on one frame looked at

// What the mode is told about the key: a pointer button or not, down now, and whether the held
// probability reaches its threshold.
struct KeyView {
  bool button = false;
  bool held = false;
  bool want = false;
};

// Which sampled onset the mode asks for: a press (onset scales) or a re-press of a key that stays
// down (re-press scales).
enum class Onset { press, re_press };
// One Bernoulli draw of that onset. A mode asks only for the draws it needs, in a fixed order, so
// the generator's sequence depends only on the frames looked at and the keys' states.
using OnsetDraw = std::function<bool(Onset)>;

// What to do with the key, in this order: release it, then press it.
struct KeyActs {
  bool release = false;
  bool press = false;
  bool re_press = false;  // the pair re-presses a key the mode keeps down (counted in the report)
  bool operator==(const KeyActs&) const = default;
};

KeyActs act_hybrid(const KeyView& key, const OnsetDraw& draw);
KeyActs act_onsets(const KeyView& key, const OnsetDraw& draw);
KeyActs act_held(const KeyView& key);
KeyActs act(ActMode mode, const KeyView& key, const OnsetDraw& draw);

// The modes that sample onsets also sample when to make a pointer move; held moves every frame.
bool samples_moves(ActMode mode);
// act=onsets releases on the release thresholds (calibrated for onset presses); the others
// follow the hold thresholds.
bool uses_release_thresholds(ActMode mode);
// fire=box in effect: asked for, or by default when the model fired only at boxes and settles.
bool fires_at_boxes(std::optional<FireMode> asked, bool fired_only_at_boxes, std::int64_t settle_ns);

}  // namespace pictor::ic
