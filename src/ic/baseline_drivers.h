// The baseline drivers of paper table 3, all replaying a recording's inputs: replay (recorded
// times), gated-replay (DeskBench: wait for a similar frame first), slow-motion (one at a time).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "ic/frame_image.h"
#include "ic/recording.h"

namespace pictor::ic {

// An input at its offset from the recording's first input.
struct TimedInput {
  std::int64_t offset_ns = 0;
  drivers::Input input;
};
std::vector<TimedInput> relative_inputs(const std::vector<RecInput>& inputs);
// The recording's vocabulary plus every key and button its inputs use.
std::vector<drivers::InputCode> replay_vocabulary(const Recording& rec);

// The shared schedule: input i is due at start + offset_i + shift, where shift is the delay the
// driver added so far (a wait postpones everything after it, keeping the recorded gaps).
// Subclasses say whether a due input may go now (gate()); the base sends it when it may.
class ScheduledReplay : public drivers::Driver {
 public:
  ScheduledReplay(std::string spec, std::vector<TimedInput> inputs, std::vector<drivers::InputCode> vocabulary);
  std::string spec() const override { return spec_; }
  std::vector<drivers::InputCode> vocabulary() const override { return vocabulary_; }
  drivers::Step step(const drivers::ClientView& view) override;
  nlohmann::json report() const override;

  std::size_t sent() const { return next_; }
  std::int64_t shift_ns() const { return shift_ns_; }

 protected:
  enum class Gate { send, wait };
  // Called when input `i` is due (at or after its scheduled time); `due_since_ns` is when it
  // became due. The default sends at once.
  virtual Gate gate(std::size_t i, const drivers::ClientView& view, std::int64_t due_since_ns) {
    (void)i, (void)view, (void)due_since_ns;
    return Gate::send;
  }
  // How soon to ask again while gate() says wait.
  static constexpr std::int64_t kPollNs = 5'000'000;
  const std::vector<TimedInput>& inputs() const { return inputs_; }
  virtual void add_report(nlohmann::json& report) const { (void)report; }

 private:
  std::string spec_;
  std::vector<TimedInput> inputs_;
  std::vector<drivers::InputCode> vocabulary_;
  std::int64_t start_ns_ = -1;
  std::int64_t shift_ns_ = 0;
  std::size_t next_ = 0;
  std::vector<double> waits_ms_;  // per sent input: how long after its schedule it went
};

// replay:REC — every input at its recorded offset from the first.
class ReplayDriver : public ScheduledReplay {
 public:
  ReplayDriver(std::string spec, std::vector<TimedInput> inputs, std::vector<drivers::InputCode> vocabulary)
      : ScheduledReplay(std::move(spec), std::move(inputs), std::move(vocabulary)) {}
};

// gated-replay:REC[,threshold=X,timeout=D] — DeskBench's rule. Each input has a reference frame:
// the last frame recorded at or before the input was made. When an input is due and its
// reference frame differs from the one the previous gate waited for, the driver waits until the
// current frame is similar to it: the mean absolute difference of the two 64×36 grayscale
// thumbnails (0..255) is at most `threshold`. After `timeout` it sends anyway (counted).
// Inputs sharing a reference frame with the previous input go as replay does.
struct GateOptions {
  double threshold = 12.0;
  std::int64_t timeout_ns = 1'000'000'000;
};
class GatedReplayDriver : public ScheduledReplay {
 public:
  // references[i]: input i's reference frame index into `thumbs` (nullopt: none, not gated).
  GatedReplayDriver(std::string spec, std::vector<TimedInput> inputs, std::vector<drivers::InputCode> vocabulary,
                    std::vector<std::optional<std::size_t>> references, std::vector<GrayThumb> thumbs,
                    GateOptions options);
  bool wants_image() const override { return true; }

 protected:
  Gate gate(std::size_t i, const drivers::ClientView& view, std::int64_t due_since_ns) override;
  void add_report(nlohmann::json& report) const override;

 private:
  std::vector<std::optional<std::size_t>> references_;
  std::vector<GrayThumb> thumbs_;
  GateOptions options_;
  std::optional<std::size_t> last_gated_reference_;
  std::uint64_t gated_ = 0, timeouts_ = 0;
  std::vector<double> final_differences_;
  // The thumbnail of the newest capture, recomputed only when a new capture arrives.
  std::uint64_t thumb_of_capture_ = 0;
  GrayThumb current_;
};

// slow-motion:REC[,timeout=D] — one tracked input in flight at a time: the next key or button
// input goes only once the client has seen the previous one's response frame
// (ClientView::tag >= sent). Pointer motion (not tracked) waits its turn like the others.
// After `timeout` without a response it goes anyway (counted).
class SlowMotionDriver : public ScheduledReplay {
 public:
  SlowMotionDriver(std::string spec, std::vector<TimedInput> inputs, std::vector<drivers::InputCode> vocabulary,
                   std::int64_t timeout_ns = 2'000'000'000);

 protected:
  Gate gate(std::size_t i, const drivers::ClientView& view, std::int64_t due_since_ns) override;
  void add_report(nlohmann::json& report) const override;

 private:
  std::int64_t timeout_ns_;
  std::uint64_t timeouts_ = 0;
};

// The registry's entries: "replay:REC", "gated-replay:REC[,threshold=X][,timeout=D]",
// "slow-motion:REC[,timeout=D]". REC is the first item; the rest are options (core/options.h).
drivers::DriverInfo replay_driver_info();
drivers::DriverInfo gated_replay_driver_info();
drivers::DriverInfo slow_motion_driver_info();

}  // namespace pictor::ic
