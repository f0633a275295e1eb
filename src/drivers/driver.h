// The input-driver interface (DESIGN §4): what decides which input the client sends next and when.
// scripted is the first; replay, gated-replay, slow-motion and ic implement the same interface.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"
#include "drivers/input.h"
#include "tag/marker_decode.h"

namespace pictor::drivers {

// What the client knows when it asks its driver for the next step. Times are CLOCK_MONOTONIC ns.
struct ClientView {
  std::int64_t now_ns = 0;
  // Tracked inputs sent so far; the n-th one sent carries tag n, so this is also the last tag sent.
  std::uint64_t sent = 0;
  // The newest frame the client has: its tag (the latest input the app had read when it swapped)
  // and app frame number, both unwrapped from the marker; nullopt when no frame decoded yet.
  std::optional<std::uint64_t> tag;
  std::optional<std::uint64_t> frame;
  std::int64_t frame_seen_ns = -1;   // when that frame was captured; -1 before the first
  std::uint64_t frames_seen = 0;     // captures so far (with or without a readable marker)
  // The whole window as last captured; set only for a driver whose wants_image() is true.
  const tag::ImageView* image = nullptr;
};

// Where the session runs, told to the driver once its display exists and before the first step.
struct SessionContext {
  std::string display;        // the app's X display (":7")
  std::string adapter;        // local, xvnc, x11vnc
  std::optional<int> rfb_port;  // the VNC server's loopback port, for a remote adapter
};

// A driver's answer: inputs to send now, in order, and when to ask again.
struct Step {
  std::vector<Input> send;
  // Ask again no later than this; the client also asks after every new frame it captures.
  std::int64_t next_ns = 0;
  // True once the driver will send nothing more; the client keeps watching frames until stopped.
  bool finished = false;
};

class Driver {
 public:
  virtual ~Driver() = default;
  // The driver's spec with every option resolved ("scripted:rate=5,keys=space|Left,..."), for run.json.
  virtual std::string spec() const = 0;
  // Every key and button it may send, so the client can check them against the display at start.
  virtual std::vector<InputCode> vocabulary() const = 0;
  // True when the driver looks at pixels: the client then captures the whole window, not just
  // the marker corner, and passes it in ClientView::image.
  virtual bool wants_image() const { return false; }
  // Called once, on the session's thread, when the app's display is up and before step(). A driver
  // that watches what a person does there (human) starts from this; it may throw UsageError
  // when the session cannot serve it.
  virtual void attach(const SessionContext& /*session*/) {}
  // Called on the client's thread only; must not block.
  virtual Step step(const ClientView& view) = 0;
  // Called once when the client stops, after the last step and while the display is still up: a
  // driver holding its own connection to the display lets go of it here (the server goes next).
  virtual void detach() {}
  // What the driver measured about itself (inference times, actions per minute, ...), asked once
  // after the client stopped; stored in run.json as client.driver_report. null: nothing to say.
  virtual nlohmann::json report() const { return nullptr; }
};

// Builds a driver from its spec, "NAME[:OPTIONS]": the options are parsed against the driver's
// declarations (core/options.h) before its factory runs. Built in: scripted. Others register
// themselves (register_driver). Throws UsageError naming the bad part.
std::unique_ptr<Driver> make_driver(std::string_view spec);

// A factory gets the options already checked against the declarations and the whole spec (for
// messages).
using DriverFactory = std::function<std::unique_ptr<Driver>(const options::Values& values, std::string_view spec)>;

// A driver as data: its name, one line on what it does, its options and its factory.
struct DriverInfo {
  std::string name;
  std::string summary;
  options::OptionSet options;  // owner "driver 'NAME'"
  DriverFactory make;
};

// Every driver make_driver() knows, scripted first, for --help and `pictor list`.
std::vector<DriverInfo> driver_infos();
std::vector<std::string> driver_names();

// Areas that cannot be linked into pictor::drivers (the intelligent client links libtorch)
// register theirs at program start; a second registration of a name replaces the first.
void register_driver(DriverInfo info);

}  // namespace pictor::drivers
