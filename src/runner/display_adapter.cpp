#include "runner/display_adapter.h"

#include <X11/Xlib.h>

#include <fmt/format.h>

#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"

namespace pictor::runner {

namespace {

// How often dead() asks the server for a reply: not at every 20 ms turn of the measurement loop
// (round trips to a busy desktop's server are load Pictor would add to what it measures), but
// within the 200 ms the loop waits for a dead server once the app has exited, so a server that
// took the app with it is named as the cause.
constexpr std::int64_t kPingIntervalNs = 100'000'000;

class DisplayAdapter final : public Adapter {
 public:
  explicit DisplayAdapter(const AdapterOptions& o) : display_(o.display) {
    if (display_.empty()) throw UsageError("--adapter display needs the X display: display:DISPLAY (display::0 for :0)");
    try {
      x_ = client::XConnection::open(display_);
    } catch (const RunError&) {
      throw RunError(fmt::format("cannot open X display '{}' for --adapter display (no X server there, or this user "
                                 "may not connect to it: check the name and XAUTHORITY)",
                                 display_));
    }
    Display* dpy = x_->display();
    XKeyboardState keyboard{};
    XGetKeyboardControl(dpy, &keyboard);
    auto_repeat_was_on_ = keyboard.global_auto_repeat == AutoRepeatModeOn;
    vendor_ = ServerVendor(dpy) ? ServerVendor(dpy) : "";
    release_ = VendorRelease(dpy);
    screen_ = fmt::format("{}x{}", DisplayWidth(dpy, DefaultScreen(dpy)), DisplayHeight(dpy, DefaultScreen(dpy)));
  }
  std::string name() const override { return "display"; }
  std::string display() const override { return display_; }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    if (end_) return end_;
    const std::int64_t now = monotonic_ns();
    if (!x_->lost() && now - last_ping_ns_ < kPingIntervalNs) return std::nullopt;
    last_ping_ns_ = now;
    XNoOp(x_->display());
    XSync(x_->display(), False);
    if (!x_->lost()) return std::nullopt;
    end_ = ServerEnd{"X server " + display_, "",
                     "its connection to Pictor closed: it ended or dropped its clients; Pictor had not started it", now, {}};
    return end_;
  }
  // Not Pictor's process: whether it is stopped is not Pictor's to see.
  std::vector<std::string> suspended() const override { return {}; }
  std::vector<nlohmann::json> running_processes() const override { return {}; }
  nlohmann::json describe() const override {
    nlohmann::json j{{"display", display_},
                     {"started_by_pictor", false},
                     {"vendor", vendor_},
                     {"vendor_release", release_},
                     {"screen", screen_},
                     {"keyboard_auto_repeat_at_start", auto_repeat_was_on_}};
    // Whether the setting the session turned off was put back (null: not yet, or nothing to put back).
    j["keyboard_auto_repeat_restored"] = restored_ ? nlohmann::json(*restored_) : nlohmann::json(nullptr);
    return j;
  }
  // Stops nothing: the server runs on as it was found, with auto-repeat put back if it was on.
  std::vector<nlohmann::json> stop(const StopContext&) override {
    if (stopped_) return {};
    stopped_ = true;
    if (auto_repeat_was_on_ && !x_->lost()) {
      XAutoRepeatOn(x_->display());
      XSync(x_->display(), False);
      restored_ = !x_->lost() && x_->take_error().empty();
    }
    x_.reset();
    return {};
  }

 private:
  std::string display_;
  std::unique_ptr<client::XConnection> x_;
  bool auto_repeat_was_on_ = false;
  std::optional<bool> restored_;
  std::string vendor_, screen_;
  int release_ = 0;
  std::int64_t last_ping_ns_ = 0;
  std::optional<ServerEnd> end_;
  bool stopped_ = false;
};

}  // namespace

std::unique_ptr<Adapter> start_display_adapter(const AdapterOptions& options) {
  return std::make_unique<DisplayAdapter>(options);
}

}  // namespace pictor::runner
