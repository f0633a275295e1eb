// What the local and the remote client share: driving the driver, the press/release bookkeeping
// that keeps the client's count of tracked inputs in step with the app's, marker readings with
// the start-up offset, the launcher hold and warm-up before the first input, and the closing notes.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "client/client_files.h"
#include "client/local_client.h"
#include "client/marker_tracker.h"
#include "drivers/driver.h"
#include "tag/marker_decode.h"

namespace pictor::client {

class XConnection;

// How a client puts inputs on its wire (XTest or RFB) and shows the driver its pixels.
class ClientTransport {
 public:
  struct Sent {
    unsigned detail = 0;       // what the app will read as the event's detail (X keycode or button)
    std::int64_t sent_ns = 0;  // stamped just before the write: the app cannot read it earlier
  };
  virtual ~ClientTransport() = default;
  // Pointer motion alone (carries no tag); moves to in.x, in.y (window pixels).
  virtual void send_motion(const drivers::Input& in) = 0;
  // A key or button press or release (after moving the pointer when in.x, in.y ≥ 0); throws
  // RunError when the wire is gone.
  virtual Sent send_tracked(const drivers::Input& in, bool button, bool press) = 0;
  // The app window as last seen, for drivers that look at pixels; nullopt when there is none.
  virtual std::optional<tag::ImageView> window_image() = 0;
  // Why the client cannot read the app window's marker where the window is now (off the screen,
  // outside the framebuffer, smaller than the marker); empty when it can. Looks at the window's
  // current place, not a cached one.
  virtual std::string window_problem() = 0;
};

// pictor-launch's hold on the inputs (docs/client.md, "Held by a launcher"): while it starts a
// game it owns the X selection _PICTOR_LAUNCH_STARTING on the game's display. Both clients ask
// through this, on a connection to that display.
class LauncherHold {
 public:
  explicit LauncherHold(XConnection* x = nullptr) : x_(x) {}  // null: no display, never held
  bool holds();

 private:
  XConnection* x_;
  unsigned long selection_ = 0;  // the Atom, interned on first use
};

class ClientCore {
 public:
  ClientCore(std::unique_ptr<drivers::Driver> driver, ClientTransport& transport);

  drivers::Driver& driver() { return *driver_; }
  ClientStats& stats() { return stats_; }
  // client_inputs.csv and client_frames.csv; set by the client once its wire is up.
  std::unique_ptr<ClientFiles> files;

  // Sends one input, or counts it as skipped when X would not turn it into the event the app
  // counts (a press of what is held, a release of what is not: the tag count would drift).
  void send(const drivers::Input& in);
  // Releases what is still held, as tracked inputs (the app reads and counts them too).
  void release_held();

  // A capture or update that carried the marker region: its reading (nullopt: unreadable),
  // written to client_frames.csv with its timings. Before the first input, two equal readings in
  // a row set the start-up offset (tracked events the app read from someone else, e.g. a
  // profile's start-up clicks), so one false read (probability 2^-12) cannot.
  MarkerTracker::Reading frame_seen(const std::optional<tag::MarkerPayload>& payload, std::int64_t seen_ns,
                                    double decode_us, double capture_us);
  std::int64_t last_seen_ns() const { return last_seen_ns_; }

  // The app's frames reach the client: the warm-up starts (once).
  void app_draws(double warmup_s, std::int64_t now);
  bool driving() const { return driving_; }
  bool awaiting_first_frame() const { return !driving_ && warmup_until_ns_ < 0; }
  // Arms the first-frame deadline; called when the loop starts.
  void start_waiting(double first_frame_timeout_s, std::int64_t now);
  // The app window must show its marker to the client; throws RunError with the transport's
  // window_problem() when it does not. While a launcher holds the inputs it may still move the
  // window there (pictor-launch moves a window that hangs off the screen), so the check then
  // waits until it lets go (the next turn() without the hold makes it).
  void check_window(bool launcher_holds);
  // One turn of the client loop: the launcher hold (inputs wait while pictor-launch starts a game,
  // then start afresh; the window check when it lets go), the end of the warm-up, the first-frame
  // deadline (`no_first_frame` is the note, "... within N s; inputs started anyway"), a finish
  // request, and the driver's step when due. Throws RunError when the window check fails.
  void turn(std::int64_t now, bool launcher_holds, bool finish_requested, const std::string& no_first_frame);
  // Asks the driver now (after a new frame) when it is driving.
  void drive_now(std::int64_t now);
  // How long the loop may sleep, at most `max_ns`.
  std::int64_t wait_ns(std::int64_t now, std::int64_t max_ns) const;

  // After the loop: the driver lets go of the display and reports (its failure is a note).
  void detach_driver();
  // The notes both clients give at stop (skipped inputs, start-up offset, rejected markers).
  void add_stop_notes();

 private:
  void drive(std::int64_t now);

  std::unique_ptr<drivers::Driver> driver_;
  ClientTransport& transport_;
  ClientStats stats_;
  MarkerTracker tracker_;
  std::set<std::pair<bool, unsigned>> held_;  // (button?, keysym or button) pressed, not released
  std::uint64_t skipped_inputs_ = 0, implausible_ = 0;
  std::uint64_t foreign_reads_ = 0;
  std::optional<std::uint32_t> last_idle_tag_;
  bool wants_image_ = false;
  bool driving_ = false;
  bool driver_finished_ = false;
  bool window_check_pending_ = false;  // deferred while a launcher held the inputs
  std::int64_t next_step_ns_ = 0;
  std::int64_t warmup_until_ns_ = -1;
  std::int64_t first_frame_deadline_ns_ = 0;
  std::int64_t first_frame_timeout_ns_ = 0;
  std::int64_t held_since_ns_ = -1;  // when a launcher was first seen holding the inputs
  std::int64_t last_seen_ns_ = -1;
};

}  // namespace pictor::client
