// What a person does on an X display, recorded with the RECORD extension (libXtst's XRecord):
// key and button presses and releases and pointer motion from every client, as recording inputs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "ic/recording.h"

namespace pictor::ic {

class HumanRecorder {
 public:
  // Starts recording core device events on `display`; throws RunError naming the cause (no
  // display, no RECORD extension).
  static std::unique_ptr<HumanRecorder> start(const std::string& display);
  ~HumanRecorder();
  HumanRecorder(const HumanRecorder&) = delete;
  HumanRecorder& operator=(const HumanRecorder&) = delete;

  // The inputs recorded since the last call, in order; t_ns is CLOCK_MONOTONIC when the event
  // reached Pictor, x/y are root-window pixels (the app's window at 0,0 on Pictor's displays).
  std::vector<RecInput> take();

  struct State;

 private:
  explicit HumanRecorder(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// human[:display=:N] — sends nothing; records what a person does (RecordingDriver asks it for
// its inputs with take()). Without a display it records the session's own display, which a
// person reaches through the remote adapter's VNC server (a viewer on the printed port); the
// local adapter's private Xvfb cannot be seen, so it is refused there. With display=:N it records
// that display instead, wherever the app runs.
class HumanDriver : public drivers::Driver {
 public:
  explicit HumanDriver(std::string display = {});
  std::string spec() const override { return named_ ? "human:display=" + display_ : std::string("human"); }
  std::vector<drivers::InputCode> vocabulary() const override { return {}; }
  void attach(const drivers::SessionContext& session) override;
  drivers::Step step(const drivers::ClientView& view) override;
  // Ends recording before the display goes away (an Xlib connection to a dead server ends the
  // process); take() still returns what was recorded until then.
  void detach() override;
  std::vector<RecInput> take();
  const std::string& display() const { return display_; }

 private:
  std::string display_;
  std::vector<RecInput> remaining_;
  bool named_ = false;
  std::unique_ptr<HumanRecorder> recorder_;
};

}  // namespace pictor::ic
