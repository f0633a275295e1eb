// The reference player: a seeded, scripted policy per built-in game that plays from the game's
// live ground truth with human-like reaction times and noise. Synthetic: it stands in for a person.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/options.h"
#include "drivers/driver.h"
#include "ic/labels.h"

namespace pictor::ic {

struct ReferenceOptions {
  std::string game;          // racing, shooter, strategy
  std::uint64_t seed = 1;
  std::string truth_dir;     // the game's truth=DIR (absolute)
  // Reaction time: log-normal with this median and log-sd, clamped to [min, max] (a simple
  // choice-reaction model: most draws fall in 150..300 ms).
  double reaction_median_ms = 215;
  double reaction_log_sd = 0.22;
  double reaction_min_ms = 120, reaction_max_ms = 450;
  // A key held longer than this is released and pressed again 25 ms later. X auto-repeat on the
  // session's X server turns a longer hold into release/press pairs the client never sent,
  // which puts the app's input count ahead of the client's and loses RTT tracking; 0 = off.
  std::int64_t max_hold_ns = 450'000'000;
  // How long after its last input the player trusts a captured frame to show that input's effect
  // (the policy's `settled`); covers the round trip locally and over Xvnc with a few ms of delay.
  std::int64_t settle_ns = 100'000'000;
};

// The options of "reference:game=racing,seed=3,truth=/abs/dir[,rt=215ms]", declared
// (core/options.h): game and truth are required.
const options::OptionSet& reference_option_set();
ReferenceOptions reference_options(const options::Values& values);
// Both: the text after "reference:" parsed and read. Throws UsageError for a bad part.
ReferenceOptions parse_reference_options(std::string_view args);

// A built-in scene spec's name: "racing:seed=3" -> "racing".
std::string scene_name(const std::string& builtin);
// The built-in games the reference player plays: they write ground truth (truth=DIR, which it
// reads) and a state log (state=FILE). `game` is a scene name.
bool plays_reference_game(const std::string& game);
// `spec` names the reference player: "reference" or "reference:OPTIONS".
bool is_reference_spec(const std::string& spec);
// The reference player's spec completed for a session: game, seed and truth directory first, the
// spec's own options after ("reference:rt=300ms" -> "reference:game=G,seed=S,truth=DIR,rt=300ms").
std::string complete_reference_spec(const std::string& spec, const std::string& game, std::uint64_t seed,
                                    const std::string& truth_dir);

// What one policy decision looks at: the newest frame's boxes (window pixels) by class name.
struct SeenObject {
  std::string cls;
  double x0, y0, x1, y1;  // window pixels
  double cx() const { return (x0 + x1) / 2; }
  double cy() const { return (y0 + y1) / 2; }
  double w() const { return x1 - x0; }
  double h() const { return y1 - y0; }
};

// A planned input, `offset_ns` after the decision's reaction time has passed.
struct PlannedInput {
  std::int64_t offset_ns = 0;
  drivers::Input input;
};

// The shared state every game policy gets: the window size, the keys it believes are down
// after everything already planned, the pointer position, a noise source and the screen.
struct PolicyContext {
  int width = 0, height = 0;
  const std::vector<SeenObject>* objects = nullptr;
  const tag::ImageView* image = nullptr;  // whole window (racing reads the road from it)
  std::vector<unsigned> held_keys;        // after the planned inputs
  int pointer_x = -1, pointer_y = -1;     // after the planned inputs
  // Nothing planned is still to be sent, and the frame looked at was captured at least `settle`
  // after the last input went out: it shows what the player's own actions did. A closed-loop
  // correction (aiming) waits for this; without it every look during the reaction time queues
  // another correction for the same error, and the aim overshoots.
  bool settled = true;
  std::mt19937_64* rng = nullptr;
  double normal(double sd);               // N(0, sd) by Box–Muller on rng (portable)
  double unit();                          // uniform [0, 1)
};

// One game's policy: given what is on screen, the inputs to make (empty: nothing now) and how
// long until it looks again.
class GamePolicy {
 public:
  virtual ~GamePolicy() = default;
  virtual std::vector<std::string> vocabulary() const = 0;
  virtual std::vector<PlannedInput> decide(PolicyContext& ctx, std::int64_t& look_again_ns) = 0;
};
std::unique_ptr<GamePolicy> make_game_policy(const std::string& game);

class ReferencePlayer : public drivers::Driver {
 public:
  explicit ReferencePlayer(ReferenceOptions options);
  std::string spec() const override;
  std::vector<drivers::InputCode> vocabulary() const override;
  // Always: the window size maps the normalised truth boxes to pixels, and racing reads the road.
  bool wants_image() const override { return true; }
  drivers::Step step(const drivers::ClientView& view) override;
  nlohmann::json report() const override;

  // Reads the truth labels of app frame `frame` (nullopt: not written yet).
  std::optional<std::vector<SeenObject>> read_truth(std::uint64_t frame, int width, int height);

 private:
  double draw_reaction_ms();

  ReferenceOptions options_;
  std::unique_ptr<GamePolicy> policy_;
  std::mt19937_64 rng_;
  std::vector<std::string> classes_;
  std::deque<std::pair<std::int64_t, drivers::Input>> planned_;
  std::vector<unsigned> planned_keys_;
  std::map<unsigned, std::int64_t> pressed_at_;  // keys down as sent, and since when
  std::uint64_t re_presses_ = 0;
  int planned_x_ = -1, planned_y_ = -1;
  std::int64_t next_look_ns_ = 0;
  std::vector<SeenObject> last_objects_;
  std::optional<std::uint64_t> last_frame_;
  std::uint64_t decisions_ = 0, frames_without_truth_ = 0, inputs_sent_ = 0;
  std::vector<double> reactions_ms_;
  std::int64_t first_ns_ = -1, last_ns_ = -1;
  std::int64_t last_sent_ns_ = -1;
};

}  // namespace pictor::ic
