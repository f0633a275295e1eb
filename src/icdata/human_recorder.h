// What a person does on an X display, recorded with the RECORD extension (libXtst's XRecord):
// key and button presses and releases and pointer motion from every client, as recording inputs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "icdata/recording.h"

namespace pictor::icdata {

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

// human:display=:N — sends nothing; records what happens on `display` (RecordingDriver asks it
// for its inputs with take()). The session's own display is not known to drivers yet, so the
// display must be named.
class HumanDriver : public drivers::Driver {
 public:
  explicit HumanDriver(std::string display);
  std::string spec() const override { return "human:display=" + display_; }
  std::vector<drivers::InputCode> vocabulary() const override { return {}; }
  drivers::Step step(const drivers::ClientView& view) override;
  std::vector<RecInput> take();

 private:
  std::string display_;
  std::unique_ptr<HumanRecorder> recorder_;
};

}  // namespace pictor::icdata
