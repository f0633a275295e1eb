#include "ic/torch/ic_driver.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <limits>
#include <optional>
#include <cmath>
#include <random>

#include "analysis/stats.h"
#include "core/clock.h"
#include "core/error.h"
#include "ic/calibration.h"
#include "ic/frame_image.h"
#include "ic/live_calibration.h"
#include "ic/model_quality.h"
#include "ic/torch/model.h"
#include "ic/pointer_target.h"

namespace pictor::ic {

namespace {

// Per-stage durations in ns, summarised for the report.
struct StageTimes {
  std::vector<std::int64_t> ns;
  nlohmann::json summary() const {
    if (ns.empty()) return nullptr;
    std::vector<double> ms;
    for (const auto v : ns) ms.push_back(static_cast<double>(v) / 1e6);
    std::sort(ms.begin(), ms.end());
    namespace st = analysis::stats;
    return {{"mean", st::mean(ms)}, {"p50", st::percentile_sorted(ms, 50)}, {"p99", st::percentile_sorted(ms, 99)},
            {"max", ms.back()}};
  }
};

// The calling thread's CPU time, and its involuntary context switches so far (the scheduler
// took the CPU away): what separates work from waiting in a frame's wall time.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
long thread_preemptions() {
  rusage ru{};
  return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

class IcDriver final : public drivers::Driver {
 public:
  IcDriver(IcDriverOptions options, Model model)
      : options_(std::move(options)), model_(std::move(model)), rng_(options_.seed) {
    const ModelManifest& m = model_.manifest();
    frame_ns_ = static_cast<std::int64_t>(std::llround(m.frame_interval_ms * 1e6));
    // The LSTM learnt one step per recorded frame: look at frames at that rate by default.
    if (!options_.fps) options_.fps = frame_ns_ > 0 ? std::min(1e9 / static_cast<double>(frame_ns_), 120.0) : 30.0;
    period_ns_ = static_cast<std::int64_t>(1e9 / *options_.fps);
    for (const std::string& name : m.vocabulary) vocabulary_.push_back(drivers::parse_input_code(name));
    held_.assign(vocabulary_.size(), false);
    key_presses_.assign(vocabulary_.size(), 0);
    aimed_at_.assign(vocabulary_.size(), {-1, -1});
    armed_until_ns_.assign(vocabulary_.size(), -1);
    crosshair_ = m.aim_frame == "crosshair";
    fire_only_at_boxes_ = crosshair_ && m.press_on_box >= 0.5;
    if (crosshair_ && options_.target) {
      const double settle_ms = options_.settle_ms.value_or(m.aim_interval_ms);
      settle_ns_ = static_cast<std::int64_t>(std::llround(settle_ms * 1e6));
    }
    fire_box_ = fires_at_boxes(options_.fire, fire_only_at_boxes_, settle_ns_);
    thresholds_ = uses_release_thresholds(options_.act) ? m.release_thresholds : m.hold_thresholds;
    if (options_.hold) thresholds_.assign(vocabulary_.size(), *options_.hold);
    // Live calibration: keys whose state follows a threshold (not act=onsets, not a fixed hold=).
    live_on_ = options_.live && !options_.hold && options_.act != ActMode::onsets;
    for (std::size_t k = 0; k < vocabulary_.size(); ++k) {
      LiveKeyTarget t;
      if (live_on_ && !vocabulary_[k].button) t = teacher_target(m, m.vocabulary[k]);
      live_.emplace_back(t, k < thresholds_.size() ? thresholds_[k] : 0.5);
    }
    planar_.resize(3 * static_cast<std::size_t>(m.shape.input_width) * static_cast<std::size_t>(m.shape.input_height));
  }

  std::string spec() const override {
    return fmt::format("ic:{},{}fps={:.4g},motion={},act={},target={},live={},{}{}seed={}", options_.model,
                       options_.hold ? fmt::format("hold={},", *options_.hold) : std::string(), *options_.fps,
                       options_.motion ? "on" : "off", act_name(), options_.target ? "on" : "off",
                       live_on_ ? "on" : "off",
                       options_.nice ? fmt::format("nice={},", options_.nice) : std::string(),
                       crosshair_ && options_.target ? fmt::format("settle={:.4g},fire={},", static_cast<double>(settle_ns_) / 1e6, fire_box_ ? "box" : "drawn") : std::string(),
                       options_.seed);
  }
  std::vector<drivers::InputCode> vocabulary() const override { return vocabulary_; }
  bool wants_image() const override { return true; }

  drivers::Step step(const drivers::ClientView& view) override {
    drivers::Step out;
    if (first_ns_ < 0) first_ns_ = view.now_ns;
    last_ns_ = view.now_ns;
    out.next_ns = view.now_ns + period_ns_;
    if (!view.image || view.frames_seen == frames_seen_) return out;
    // Rate limit: a frame newer than the last one looked at waits until the period has passed.
    if (last_decision_ns_ >= 0 && view.now_ns - last_decision_ns_ < period_ns_) {
      out.next_ns = last_decision_ns_ + period_ns_;
      return out;
    }
    frames_skipped_ += frames_seen_ == 0 ? 0 : view.frames_seen - frames_seen_ - 1;
    frames_seen_ = view.frames_seen;
    // The time this decision stands for: since the last one (one recorded frame for the first).
    const std::int64_t step_ns = last_decision_ns_ >= 0 ? view.now_ns - last_decision_ns_ : frame_ns_;
    last_decision_ns_ = view.now_ns;
    now_ns_ = view.now_ns;
    decide(*view.image, step_ns, out.send);
    actions_ += out.send.size();
    return out;
  }

  nlohmann::json report() const override {
    nlohmann::json apm = nullptr;
    const double minutes = static_cast<double>(last_ns_ - first_ns_) / 60e9;
    if (first_ns_ >= 0 && minutes > 0) apm = static_cast<double>(actions_) / minutes;
    return {{"driver", "ic"},
            {"model", options_.model},
            {"frames_processed", frames_processed_},
            {"frames_skipped", frames_skipped_},
            {"actions", actions_},
            {"act", act_name()},
            {"seed", options_.seed},
            {"fps", *options_.fps},
            {"presses", presses_},
            {"re_presses", re_presses_},
            {"hold_thresholds", thresholds_},
            {"target", options_.target},
            {"target_threshold", model_.manifest().target_threshold},
            {"aim_frame", model_.manifest().aim_frame},
            {"lapsed_presses", lapsed_presses_},
            {"aimed_presses", aimed_presses_},
            {"unaimed_presses", unaimed_presses_},
            {"aimed_moves", aimed_moves_},
            {"settle_ms", crosshair_ && options_.target ? nlohmann::json(static_cast<double>(settle_ns_) / 1e6) : nlohmann::json(nullptr)},
            {"settled_turns", settled_turns_},
            {"fire", fire_box_ ? "box" : "drawn"},
            {"actions_per_minute", apm},
            // Its input mix beside the teacher's (the manifest's, from the recordings), and the
            // model's verdict (null: trained before verdicts).
            {"fidelity", fidelity_json({first_ns_ >= 0 ? static_cast<double>(last_ns_ - first_ns_) / 1e9 : 0.0, actions_,
                                        key_presses_},
                                       model_.manifest().info.value("teacher", nlohmann::json()),
                                       model_.manifest().vocabulary)},
            {"model_weak", model_.manifest().weak ? nlohmann::json(*model_.manifest().weak) : nlohmann::json()},
            {"detections_per_frame", frames_processed_ ? nlohmann::json(static_cast<double>(detections_) / static_cast<double>(frames_processed_)) : nlohmann::json(nullptr)},
            {"inference_ms", {{"downscale", downscale_.summary()},
                              {"detect", detect_.summary()},
                              {"policy", policy_.summary()},
                              {"total", total_.summary()},
                              // Attribution of the total's tail: the thread's own CPU time per
                              // frame, and the wall time of the frames the scheduler did not
                              // interrupt (no involuntary context switch during the frame).
                              {"total_cpu", total_cpu_.summary()},
                              {"total_unpreempted", total_unpreempted_.summary()},
                              {"preempted_frames", preempted_frames_}}},
            {"live_calibration", live_report()},
            {"threads", 1},
            {"thread_nice", nice_report()}};
  }

 private:
  // The teacher's held share (the calibration's whole-recording held_fraction) and presses per
  // second (the manifest's teacher mix) of `key`; unknown (< 0) for models without them.
  static LiveKeyTarget teacher_target(const ModelManifest& m, const std::string& key) {
    LiveKeyTarget t;
    const nlohmann::json& info = m.info;
    if (info.contains("metrics") && info["metrics"].contains("calibration")) {
      const nlohmann::json& per_key = info["metrics"]["calibration"].value("per_key", nlohmann::json::object());
      if (per_key.contains(key) && per_key[key].contains("held_fraction") && per_key[key]["held_fraction"].is_number())
        t.held_share = per_key[key]["held_fraction"].get<double>();
    }
    if (info.contains("teacher") && info["teacher"].is_object()) {
      const nlohmann::json& teacher = info["teacher"];
      const double seconds = teacher.value("seconds", 0.0);
      const nlohmann::json presses = teacher.value("presses", nlohmann::json::object());
      if (seconds > 0 && presses.contains(key) && presses[key].is_number())
        t.presses_per_s = presses[key].get<double>() / seconds;
    }
    if (!t.known()) t = LiveKeyTarget{};
    return t;
  }

  double elapsed_s() const { return first_ns_ >= 0 ? static_cast<double>(now_ns_ - first_ns_) / 1e9 : 0.0; }

  nlohmann::json live_report() const {
    if (!live_on_) return nullptr;
    nlohmann::json keys = nlohmann::json::object();
    for (std::size_t k = 0; k < vocabulary_.size(); ++k)
      if (!vocabulary_[k].button) keys[model_.manifest().vocabulary[k]] = live_[k].report(elapsed_s(), key_presses_[k]);
    return {{"keys", keys}};
  }

  // Sets the calling (client) thread's nice value once, before the first frame; the report says
  // what it got.
  void apply_nice() {
    nice_done_ = true;
    if (options_.nice == 0) return;
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    if (setpriority(PRIO_PROCESS, tid, options_.nice) == 0)
      nice_applied_ = options_.nice;
    else
      nice_error_ = fmt::format("setpriority({}): {}", options_.nice, std::strerror(errno));
  }

  nlohmann::json nice_report() const {
    nlohmann::json j = {{"asked", options_.nice},
                        {"applied", nice_applied_ ? nlohmann::json(*nice_applied_) : nlohmann::json(nullptr)}};
    if (!nice_error_.empty()) j["unavailable"] = nice_error_;
    return j;
  }

  void decide(const tag::ImageView& image, std::int64_t step_ns, std::vector<drivers::Input>& send) {
    if (!nice_done_) apply_nice();
    const ModelManifest& m = model_.manifest();
    const long preempted0 = thread_preemptions();
    const std::int64_t cpu0 = thread_cpu_ns();
    const std::int64_t t0 = monotonic_ns();
    downscale_planar(image, m.shape.input_width, m.shape.input_height, planar_.data());
    const std::int64_t t1 = monotonic_ns();
    const std::vector<Detection> objects = model_.detect(planar_.data());
    const std::int64_t t2 = monotonic_ns();
    const std::vector<float> features = frame_features(objects, m.features);
    const PolicyOutput p = model_.policy_step(features);
    const std::int64_t t3 = monotonic_ns();
    downscale_.ns.push_back(t1 - t0);
    detect_.ns.push_back(t2 - t1);
    policy_.ns.push_back(t3 - t2);
    total_.ns.push_back(t3 - t0);
    total_cpu_.ns.push_back(thread_cpu_ns() - cpu0);
    const long preempted1 = thread_preemptions();
    if (preempted0 >= 0 && preempted1 >= 0) {
      if (preempted1 > preempted0)
        ++preempted_frames_;
      else
        total_unpreempted_.ns.push_back(t3 - t0);
    }
    ++frames_processed_;
    detections_ += objects.size();
    frame_ = Frame{&image, &features, &p};
    on_target_ = crosshair_ && box_under_crosshair();
    // A press held back until a box is under the crosshair goes now, or lapses.
    for (std::size_t k = 0; k < armed_until_ns_.size(); ++k) {
      if (armed_until_ns_[k] < 0) continue;
      if (now_ns_ > armed_until_ns_[k]) {
        armed_until_ns_[k] = -1;
        ++lapsed_presses_;
      } else if (!held_[k] && can_fire()) {
        armed_until_ns_[k] = -1;
        set(k, true, send);
      }
    }
    for (std::size_t k = 0; k < vocabulary_.size(); ++k) {
      // fire=box: a button is clicked on every frame it can fire on, released on the next one;
      // the policy's drawn presses of buttons are not used.
      if (fire_box_ && vocabulary_[k].button) {
        if (held_[k]) {
          set(k, false, send);
        } else if (can_fire()) {
          set(k, true, send);
        }
        continue;
      }
      LiveKey* live = live_on_ && live_[k].live() ? &live_[k] : nullptr;
      const bool want = live ? live->want(p.held_probability[k], held_[k], elapsed_s(), key_presses_[k])
                             : p.held_probability[k] >= thresholds_[k];
      const KeyView key{vocabulary_[k].button, held_[k], want};
      const KeyActs a = act(options_.act, key, [&](Onset onset) {
        if (onset == Onset::press) return sample(p.onset_probability[k], m.onset_scales[k], step_ns);
        double scale = m.repress_scales[k];
        if (live) {
          // Behind the teacher the key may be re-pressed even where the offline calibration
          // found the state changes enough (re-press scale 0): from its onset scale.
          if (!(scale > 0)) scale = m.onset_scales[k];
          scale *= live->repress_factor(elapsed_s(), key_presses_[k]);
        }
        return sample(p.onset_probability[k], scale, step_ns);
      });
      if (a.release) set(k, false, send);
      if (a.press) set(k, true, send);
      re_presses_ += a.re_press ? 1 : 0;
      if (live) live->observe(held_[k]);
    }
    // An aimed click holds the pointer still until its release (the teacher never drags: a
    // move with button 1 down would turn the click into a box selection).
    if (!options_.motion || std::any_of(aimed_at_.begin(), aimed_at_.end(), [](const auto& a) { return a.first >= 0; })) return;
    const bool can_move = m.motion_scale > 0 || m.target_threshold <= 1.0;
    if (!can_move) return;
    // The motion head learnt the move made on frames that moved; onsets decides when to make one.
    const bool drawn = !samples_moves(options_.act) || sample(p.move_probability, m.onset_scales.back(), step_ns);
    const auto move = static_cast<int>(vocabulary_.size());
    const auto at = aim(move);
    if (settle_ns_ > 0 && at) {
      // Settled turns (crosshair): with a confident target in view, turn toward it once the frame
      // looked at is settle after the last input (so it shows where the view ended), unless the
      // target is already under the crosshair; the sampled onsets time only the other moves.
      if (settled() && !on_target_) {
        ++aimed_moves_;
        ++settled_turns_;
        send_motion(at->first, at->second, send);
      }
      return;
    }
    if (!drawn) return;
    if (at) {
      ++aimed_moves_;
      send_motion(at->first, at->second, send);
    } else if (m.motion_scale > 0) {
      move_pointer(image, p, send);
    }
  }

  // The pointer target for an event of type `event` (a press of vocabulary entry k, or the move):
  // the box choose_target() picks on this frame, when its posterior reaches the model's calibrated
  // threshold, and the point on it the recordings aimed at (window pixels). nullopt: not
  // confident, no box, target=off or a model without targets: the caller does what it did before.
  std::optional<std::pair<int, int>> aim(int event) const {
    const ModelManifest& m = model_.manifest();
    if (!options_.target || !frame_.policy || frame_.policy->target_probability.empty()) return std::nullopt;
    const TargetChoice c = choose_target(frame_.policy->target_probability, *frame_.features, m.features,
                                         m.event_given_target, event);
    if (c.slot < 0 || c.posterior < m.target_threshold) return std::nullopt;
    const auto box = slot_box(*frame_.features, m.features, c.slot);
    if (!box) return std::nullopt;
    const auto& off = m.aim_offsets[static_cast<std::size_t>(box->cls)];
    const auto [x, y] = aim_point(*box, off[0], off[1]);
    const tag::ImageView& image = *frame_.image;
    double px = x * image.width, py = y * image.height;
    if (crosshair_) {
      // Turn the view so that the aim point comes to the crosshair: move the pointer by the
      // learnt gain times the point's offset from the window centre.
      const double from_x = pointer_x_ >= 0 ? pointer_x_ : image.width / 2.0;
      const double from_y = pointer_y_ >= 0 ? pointer_y_ : image.height / 2.0;
      px = from_x + m.aim_gain * (x - 0.5) * image.width;
      py = from_y + m.aim_gain * (y - 0.5) * image.height;
    }
    return std::pair<int, int>{std::clamp(static_cast<int>(std::lround(px)), 0, image.width - 1),
                               std::clamp(static_cast<int>(std::lround(py)), 0, image.height - 1)};
  }

  // The frame looked at can show where the last input left the view: it is settle after that
  // input (always true without a settle).
  bool settled() const { return settle_ns_ <= 0 || now_ns_ - last_input_ns_ >= settle_ns_; }
  // A crosshair press may go: a box under the crosshair on a settled frame.
  bool can_fire() const { return settled() && on_target_; }

  // A detected box contains the window centre (the crosshair) on the frame looked at.
  bool box_under_crosshair() const {
    const ModelManifest& m = model_.manifest();
    return frame_.features && label_target(*frame_.features, m.features, 0.5, 0.5, m.aspect(), 0.0) != no_target(m.features);
  }

  void send_motion(int x, int y, std::vector<drivers::Input>& send) {
    pointer_x_ = x;
    pointer_y_ = y;
    if (x == sent_x_ && y == sent_y_) return;
    last_input_ns_ = now_ns_;
    send.push_back(drivers::Input{drivers::InputKind::pointer_motion, 0, x, y});
    sent_x_ = x;
    sent_y_ = y;
  }

  // One Bernoulli draw for an onset in this step: the per-frame probability, scaled by the
  // calibration, as a rate over `step_ns` (calibration.h step_probability). Always draws, so the
  // generator's sequence depends only on the frames looked at.
  bool sample(float p, double scale, std::int64_t step_ns) {
    const double q = step_probability(std::min(1.0, static_cast<double>(p) * scale), step_ns, frame_ns_);
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    return u < q;
  }

  std::string act_name() const { return std::string(act_mode_name(options_.act)); }

  void set(std::size_t k, bool down, std::vector<drivers::Input>& send) {
    const drivers::InputCode& c = vocabulary_[k];
    const drivers::InputKind kind = c.button ? (down ? drivers::InputKind::button_press : drivers::InputKind::button_release)
                                             : (down ? drivers::InputKind::key_press : drivers::InputKind::key_release);
    drivers::Input in{kind, c.code, -1, -1};
    // A crosshair game fires where the view points: its presses are never aimed. When its player
    // fired only at something, a press with nothing under the crosshair waits (armed) for one.
    if (c.button && down && fire_only_at_boxes_ && !can_fire()) {
      if (armed_until_ns_[k] < 0) armed_until_ns_[k] = now_ns_ + kFireWaitMs * 1'000'000;
      return;
    }
    if (c.button && down && !crosshair_) {
      // A press aimed at the chosen box: move there first, then press at that point.
      if (const auto at = aim(static_cast<int>(k))) {
        send_motion(at->first, at->second, send);
        in.x = at->first;
        in.y = at->second;
        aimed_at_[k] = *at;
        ++aimed_presses_;
      } else {
        ++unaimed_presses_;
      }
    } else if (c.button && aimed_at_[k].first >= 0) {
      in.x = aimed_at_[k].first;  // released where it was pressed: a click, not a drag
      in.y = aimed_at_[k].second;
      aimed_at_[k] = {-1, -1};
    }
    send.push_back(in);
    last_input_ns_ = now_ns_;
    held_[k] = down;
    presses_ += down ? 1 : 0;
    key_presses_[k] += down ? 1 : 0;
  }

  // The learnt motion is a fraction of the window; whole pixels are sent, the remainder carried.
  void move_pointer(const tag::ImageView& image, const PolicyOutput& p, std::vector<drivers::Input>& send) {
    if (pointer_x_ < 0) {
      pointer_x_ = image.width / 2.0;
      pointer_y_ = image.height / 2.0;
    }
    const double x = std::clamp(pointer_x_ + static_cast<double>(p.dx) * image.width, 0.0, image.width - 1.0);
    const double y = std::clamp(pointer_y_ + static_cast<double>(p.dy) * image.height, 0.0, image.height - 1.0);
    const int ix = static_cast<int>(std::lround(x)), iy = static_cast<int>(std::lround(y));
    pointer_x_ = x;
    pointer_y_ = y;
    if (ix == sent_x_ && iy == sent_y_) return;
    send.push_back(drivers::Input{drivers::InputKind::pointer_motion, 0, ix, iy});
    sent_x_ = ix;
    sent_y_ = iy;
  }

  // What decide() is looking at, for aim() (valid during decide() only).
  struct Frame {
    const tag::ImageView* image = nullptr;
    const std::vector<float>* features = nullptr;
    const PolicyOutput* policy = nullptr;
  };

  IcDriverOptions options_;
  Model model_;
  std::mt19937_64 rng_;
  std::int64_t frame_ns_ = 0;  // the recordings' frame interval (0: unknown)
  std::int64_t period_ns_ = 0;
  std::vector<drivers::InputCode> vocabulary_;
  std::vector<bool> held_;
  std::vector<double> thresholds_;
  bool live_on_ = false;
  std::vector<LiveKey> live_;  // per vocabulary entry (buttons and unknown targets: not live)
  std::uint64_t presses_ = 0, re_presses_ = 0;
  std::vector<std::uint64_t> key_presses_;  // per vocabulary entry
  std::vector<std::uint8_t> planar_;
  std::uint64_t frames_seen_ = 0;
  std::int64_t last_decision_ns_ = -1;
  std::int64_t first_ns_ = -1, last_ns_ = -1;
  double pointer_x_ = -1, pointer_y_ = -1;
  int sent_x_ = -1, sent_y_ = -1;
  Frame frame_;
  // Per vocabulary entry: where an aimed button press not yet released was made; -1, -1: none.
  std::vector<std::pair<int, int>> aimed_at_;
  std::uint64_t aimed_presses_ = 0, unaimed_presses_ = 0, aimed_moves_ = 0;
  // Crosshair: per vocabulary entry, until when a drawn press waits for a box under the
  // crosshair (-1: none waiting); presses that waited in vain.
  static constexpr std::int64_t kFireWaitMs = 500;
  std::vector<std::int64_t> armed_until_ns_;
  bool crosshair_ = false, fire_only_at_boxes_ = false;  // from the manifest's aim
  bool fire_box_ = false;  // fire=box in effect
  bool on_target_ = false;  // crosshair: a detected box contains the centre of the frame looked at
  std::uint64_t lapsed_presses_ = 0;
  // Crosshair cadence: the settle (0: turns are sampled), when the last input (any) went out.
  std::int64_t settle_ns_ = 0;
  std::int64_t last_input_ns_ = std::numeric_limits<std::int64_t>::min() / 2;
  std::uint64_t settled_turns_ = 0;
  std::int64_t now_ns_ = 0;
  std::uint64_t frames_processed_ = 0, frames_skipped_ = 0, actions_ = 0, detections_ = 0;
  StageTimes downscale_, detect_, policy_, total_, total_cpu_, total_unpreempted_;
  std::uint64_t preempted_frames_ = 0;
  bool nice_done_ = false;
  std::optional<int> nice_applied_;
  std::string nice_error_;
};

}  // namespace

std::unique_ptr<drivers::Driver> make_ic_driver(const IcDriverOptions& options) {
  Model model = Model::load(options.model);
  // A weak model (pictor train --accept-weak) plays, with a warning saying why it is weak.
  if (const ModelManifest& m = model.manifest(); m.weak && *m.weak) {
    std::string why;
    for (const std::string& r : m.weak_reasons) why += (why.empty() ? "" : "; ") + r;
    fmt::print(stderr, "pictor: warning: ic:{} is a weak model ({}); it may not play like its teacher\n", options.model,
               why.empty() ? "its manifest says so" : why);
  }
  return std::make_unique<IcDriver>(options, std::move(model));
}

}  // namespace pictor::ic
