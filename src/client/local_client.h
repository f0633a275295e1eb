// The local client (adapter `local`): sends a driver's inputs into the app's window with XTest and
// watches the window with XDamage, reading the marker corner with MIT-SHM only when it changed.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "tag/marker_decode.h"  // WindowRect
#include "tag/marker_layout.h"

namespace pictor::client {

struct LocalClientOptions {
  std::string display;                 // the app's X display, e.g. ":7"
  std::string out_dir;                 // client_inputs.csv and client_frames.csv are written here
  tag::Corner corner = tag::kDefaultCorner;  // where the interposer draws the marker
  double window_timeout_s = 10.0;      // longest wait for the app to map its window
  // Inputs start after the app's first frame, so startup time is not counted as latency; an app
  // that draws nothing until it gets input is driven anyway after this long.
  double first_frame_timeout_s = 5.0;
  // After the first frame that carries a readable marker (or the first change of the window when
  // none does), wait this long before the first input: an app's first frames are start-up
  // (shader compiles, first-use allocations), and inputs answered then would measure start-up.
  double warmup_s = 0.5;
  // Whether the interposer draws the marker (PICTOR_MARKER=1); without it any change of the
  // window counts as the first frame.
  bool expect_marker = true;
  // Optional: polled while waiting for the window; returning false ends the wait (app died).
  std::function<bool()> app_running;
  // Where the app's window lies inside the window found on `display`, in that window's pixels,
  // when the found window is a viewer's showing the remote desktop 1:1 (runner/viewer_adapter.h):
  // inputs then land on the app and the marker is read from the app's corner. nullopt: the found
  // window is the app's own.
  std::optional<tag::WindowRect> app_in_window;
  // Nonzero: the window to drive, found by the caller (a viewer's window), instead of waiting for
  // the largest top-level one.
  unsigned long window = 0;
  // Top-level windows that are not the app's (those a display Pictor did not start had before the
  // app ran): passed over while waiting for the app's window.
  std::vector<unsigned long> ignore_windows;
};

// What the client did; complete once stop() returned.
struct ClientStats {
  std::uint64_t inputs_sent = 0;       // tracked inputs (tagged), rows in client_inputs.csv
  std::uint64_t motions_sent = 0;      // pointer motions (not tagged)
  std::uint64_t captures = 0;          // rows in client_frames.csv
  std::uint64_t markers_read = 0;      // captures whose marker decoded
  std::uint64_t capture_failures = 0;  // captures the X server refused (window moving/unmapping)
  unsigned long window = 0;            // the app window the client drove
  std::string driver;                  // the driver's spec, for run.json
  std::vector<std::string> notes;      // things the reader of the results should know
  std::string failure;                 // why the client stopped early; empty when it did not
  nlohmann::json driver_report;        // the driver's report() after it stopped (null: none)
};

class LocalClient {
 public:
  // Connects to the display, waits for the app's window, checks XTest, XDamage and the driver's
  // keys, creates the two files and starts the client thread. Throws RunError (no display, no
  // window in time, app gone, extension missing, key not on the keyboard, files not writable).
  static std::unique_ptr<LocalClient> start(const LocalClientOptions& options,
                                            std::unique_ptr<drivers::Driver> driver);
  ~LocalClient();  // stop()
  LocalClient(const LocalClient&) = delete;
  LocalClient& operator=(const LocalClient&) = delete;

  // Ends the thread (within one loop turn, ≤ 100 ms), releases keys and buttons still held (as
  // tracked inputs, so the tag count stays exact), flushes the files and closes the connection.
  // Safe from any thread and more than once; every call returns the same stats.
  ClientStats stop();
  // Asks the driver for nothing more and releases what is held, but keeps watching frames, so
  // the last inputs' responses are still seen before stop(). Safe from any thread.
  void finish_inputs();
  // False once the thread ended by itself (lost X connection, window destroyed, write error).
  bool running() const;

  struct State;

 private:
  LocalClient() = default;
  std::unique_ptr<State> state_;
};

}  // namespace pictor::client
