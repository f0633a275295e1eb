#include "client/local_client.h"

#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <fmt/format.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "client/client_core.h"
#include "core/csv_files.h"
#include "client/client_files.h"
#include "client/x_capture.h"
#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"

namespace pictor::client {

namespace {

// Longest sleep of the client loop: bounds how late buffered rows reach the files.
constexpr std::int64_t kMaxWaitNs = 100'000'000;

using drivers::Input;
using drivers::InputKind;

}  // namespace

// client_colours.csv: without a marker the client cannot tell frames apart by tag, so it records
// the mean colour of each capture instead. An app whose response to an input is a colour change
// of the corner (the `latency` scene flips its background on every event) can then be timed by
// pixels: this is how the RTT of a session without the marker is measured (docs/client.md).
// Not in the unnamed namespace: LocalClient::State holds one.
class ColourLog {
 public:
  explicit ColourLog(const std::string& dir)
      : file_(files::RowFile::create(dir + "/client_colours.csv", csv_files::kClientColours.header)), dir_(dir) {}
  void add(std::int64_t seen_ns, const MeanColour& c) {
    fmt::format_to(std::back_inserter(file_.rows()), "{},{:.1f},{:.1f},{:.1f}\n", seen_ns, c.r, c.g, c.b);
  }
  // Writes what is buffered (rows whole; a full disk's are kept for the next flush); the last
  // flush closes the file. False once rows were lost; the error then says how many.
  bool flush(bool last = false) { return last ? file_.close() : file_.flush(); }
  std::string error() const { return dir_ + ": " + file_.loss_note(); }

 private:
  files::RowFile file_;
  std::string dir_;
};

struct LocalClient::State : ClientTransport {
  LocalClientOptions options;
  std::unique_ptr<ClientCore> core;
  std::unique_ptr<XConnection> x;
  WindowInfo window;
  bool mapped = true;
  int damage_event = 0;
  Damage damage = 0;
  std::unique_ptr<XCapture> capture;  // the marker corner, or the whole window for image drivers
  tag::WindowRect window_in_capture;  // where the window lies relative to the captured region
  std::unique_ptr<ColourLog> colours;  // only without a marker
  std::map<unsigned, unsigned> keycodes;   // keysym → keycode on this display
  std::uint64_t unreadable_updates = 0;

  std::thread thread;
  int wake_fd = -1;
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> finish_requested{false};
  std::atomic<bool> running{false};
  std::mutex stop_mutex;
  bool stopped = false;

  std::int64_t last_colour_flush_ns = 0;
  LauncherHold launcher;            // pictor-launch's hold while it starts a game

  ~State() override {
    if (wake_fd >= 0) ::close(wake_fd);
  }

  // The app's window in the found window's pixels (all of it unless options.app_in_window).
  tag::WindowRect app_rect() const {
    return options.app_in_window ? *options.app_in_window : tag::WindowRect{0, 0, window.width, window.height};
  }
  void setup_capture();
  unsigned keycode_for(unsigned keysym);
  void send_motion(const Input& in) override;
  Sent send_tracked(const Input& in, bool button, bool press) override;
  std::optional<tag::ImageView> window_image() override;
  void grab_frame();
  void handle_events();
  std::string window_problem() override;
  void loop();
  void run();
};

std::string LocalClient::State::window_problem() {
  // Where the window is now: a move may not have reached handle_events yet.
  if (const auto info = window_info(*x, window.id);
      info && (info->x != window.x || info->y != window.y || info->width != window.width || info->height != window.height)) {
    window = *info;
    setup_capture();
  }
  if (capture) return "";
  return fmt::format("client: the app window ({}x{} at {},{}) does not show its {} corner on the {}x{} screen",
                     window.width, window.height, window.x, window.y, tag::corner_name(options.corner),
                     window.screen_width, window.screen_height);
}

// The region to read: just the marker's 64 x 32 px when the driver does not look at pixels.
// Its cost hardly depends on the window size (8 KiB per read, ~20x less server copying than a
// 720p window), and the marker is all the client needs to time the frame.
void LocalClient::State::setup_capture() {
  capture.reset();
  const WindowInfo& w = window;
  const tag::WindowRect a = app_rect();
  Region r;
  if (core->driver().wants_image()) {
    // The part of the app on screen: reading outside the screen is a BadMatch.
    const int x0 = std::max(a.x, -w.x), y0 = std::max(a.y, -w.y);
    const int x1 = std::min(a.x + a.width, w.screen_width - w.x), y1 = std::min(a.y + a.height, w.screen_height - w.y);
    r = Region{x0, y0, x1 - x0, y1 - y0};
  } else {
    const tag::PixelPoint m = tag::marker_origin_in_image(a.width, a.height, options.corner);
    r = Region{a.x + m.x, a.y + m.y, tag::kMarkerWidth, tag::kMarkerHeight};
  }
  const bool on_screen = a.width >= tag::kMarkerWidth && a.height >= tag::kMarkerHeight &&
                         r.width > 0 && r.height > 0 && r.x >= 0 && r.y >= 0 && r.x + r.width <= w.width &&
                         r.y + r.height <= w.height && w.x + r.x >= 0 && w.y + r.y >= 0 &&
                         w.x + r.x + r.width <= w.screen_width && w.y + r.y + r.height <= w.screen_height;
  if (!on_screen) return;  // counted as unreadable updates until the window is back on screen
  capture = std::make_unique<XCapture>(*x, w, r);
  window_in_capture = tag::WindowRect{a.x - r.x, a.y - r.y, a.width, a.height};
}

unsigned LocalClient::State::keycode_for(unsigned keysym) {
  const auto it = keycodes.find(keysym);
  if (it != keycodes.end()) return it->second;
  const KeyCode code = XKeysymToKeycode(x->display(), keysym);
  if (code == 0) {
    throw RunError(fmt::format("client: key '{}' has no keycode on display '{}'",
                               drivers::input_code_name(false, keysym), x->name()));
  }
  keycodes[keysym] = code;
  return code;
}

void LocalClient::State::send_motion(const Input& in) {
  Display* dpy = x->display();
  const tag::WindowRect a = app_rect();
  if (in.x >= 0 && in.y >= 0)
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), window.x + a.x + in.x, window.y + a.y + in.y, CurrentTime);
  XFlush(dpy);
}

ClientTransport::Sent LocalClient::State::send_tracked(const Input& in, bool button, bool press) {
  Display* dpy = x->display();
  // The pointer moves first (XTest motion is in screen coordinates).
  const tag::WindowRect a = app_rect();
  if (in.x >= 0 && in.y >= 0)
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), window.x + a.x + in.x, window.y + a.y + in.y, CurrentTime);
  unsigned detail = in.code;
  if (button) {
    XTestFakeButtonEvent(dpy, in.code, press, CurrentTime);
  } else {
    detail = keycode_for(in.code);
    XTestFakeKeyEvent(dpy, detail, press, CurrentTime);
  }
  // The send time is taken just before the flush that writes the request to the X server: the
  // app cannot read the event earlier, so PS is never negative. Stamped after the flush, a
  // client thread preempted between the write and the clock read made PS negative in tests.
  const std::int64_t sent_ns = monotonic_ns();
  XFlush(dpy);
  return {detail, sent_ns};
}

std::optional<tag::ImageView> LocalClient::State::window_image() {
  if (!capture) return std::nullopt;
  return capture->view();
}

void LocalClient::State::grab_frame() {
  Display* dpy = x->display();
  // Subtract before reading: damage the app does after this point raises a new notification,
  // so no frame is missed (a frame drawn during the read may be read twice: a repeat).
  XDamageSubtract(dpy, damage, None, None);
  if (!capture || !mapped) {
    ++unreadable_updates;
    return;
  }
  const std::int64_t t0 = monotonic_ns();
  const bool ok = capture->grab();
  const std::int64_t seen_ns = monotonic_ns();
  if (!ok) {
    ++core->stats().capture_failures;
    x->take_error();
    return;
  }
  const auto payload = tag::decode(capture->view(), window_in_capture, options.corner);
  const std::int64_t decoded_ns = monotonic_ns();
  if (colours) colours->add(seen_ns, mean_colour(capture->view()));
  core->frame_seen(payload, seen_ns, static_cast<double>(decoded_ns - seen_ns) / 1e3,
                   static_cast<double>(seen_ns - t0) / 1e3);
}

void LocalClient::State::handle_events() {
  Display* dpy = x->display();
  bool changed = false;
  while (!x->lost() && XPending(dpy) > 0) {
    XEvent ev;
    XNextEvent(dpy, &ev);
    if (ev.type == damage_event + XDamageNotify) {
      changed = true;
    } else if (ev.type == ConfigureNotify && ev.xconfigure.window == window.id) {
      if (auto info = window_info(*x, window.id)) {
        if (info->width != window.width || info->height != window.height || info->x != window.x ||
            info->y != window.y) {
          window = *info;
          setup_capture();
        }
      }
    } else if (ev.type == UnmapNotify && ev.xunmap.window == window.id) {
      mapped = false;
    } else if (ev.type == MapNotify && ev.xmap.window == window.id) {
      mapped = true;
      if (auto info = window_info(*x, window.id)) {
        window = *info;
        setup_capture();
      }
    } else if (ev.type == DestroyNotify && ev.xdestroywindow.window == window.id) {
      core->stats().notes.push_back("the app window was destroyed; the client stopped watching");
      stop_requested.store(true);
      return;
    }
  }
  if (changed) {
    grab_frame();
    // The app has drawn a frame: its loop runs. Start after the warm-up.
    if (core->stats().markers_read > 0 || !options.expect_marker) core->app_draws(options.warmup_s, monotonic_ns());
    core->drive_now(monotonic_ns());
  }
}

void LocalClient::State::loop() {
  Display* dpy = x->display();
  const int xfd = ConnectionNumber(dpy);
  core->start_waiting(options.first_frame_timeout_s, monotonic_ns());
  const std::string no_first_frame =
      fmt::format("the app window did not change within {:g} s; inputs started anyway", options.first_frame_timeout_s);
  grab_frame();  // what the window shows already (damage only reports changes from now on)
  while (!stop_requested.load()) {
    handle_events();
    if (x->lost()) throw RunError("client: lost the connection to X display '" + x->name() + "'");
    std::int64_t now = monotonic_ns();
    core->turn(now, !core->driving() && launcher.holds(), finish_requested.load(), no_first_frame);
    if (!core->files->flush(now)) throw RunError("client: " + core->files->error());
    if (colours && (now - last_colour_flush_ns >= kMaxWaitNs)) {
      last_colour_flush_ns = now;
      if (!colours->flush()) throw RunError("client: " + colours->error());
    }

    now = monotonic_ns();
    const std::int64_t wait_ns = core->wait_ns(now, kMaxWaitNs);
    XFlush(dpy);
    if (XPending(dpy) > 0 || wait_ns <= 0) continue;
    pollfd fds[2] = {{xfd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
    const timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
    ::ppoll(fds, 2, &ts, nullptr);
  }
}

void LocalClient::State::run() {
  try {
    loop();
  } catch (const std::exception& e) {
    core->stats().failure = e.what();
  }
  running.store(false);
}

std::unique_ptr<LocalClient> LocalClient::start(const LocalClientOptions& options,
                                                std::unique_ptr<drivers::Driver> driver) {
  if (!driver) throw UsageError("client: no input driver given");
  std::unique_ptr<LocalClient> client(new LocalClient());
  client->state_ = std::make_unique<State>();
  State& s = *client->state_;
  s.options = options;
  s.core = std::make_unique<ClientCore>(std::move(driver), s);
  s.x = XConnection::open(options.display);
  Display* dpy = s.x->display();

  int ev = 0, err = 0, major = 0, minor = 0;
  if (!XTestQueryExtension(dpy, &ev, &err, &major, &minor))
    throw RunError("client: the XTEST extension is missing on display '" + options.display + "'");
  if (!XDamageQueryExtension(dpy, &s.damage_event, &err))
    throw RunError("client: the DAMAGE extension is missing on display '" + options.display + "'");
  if (!XDamageQueryVersion(dpy, &major, &minor))
    throw RunError("client: DAMAGE version query failed on display '" + options.display + "'");
  // Every key the driver may press must exist on this keyboard; checked now, not mid-run.
  unsigned char map[32];
  const int buttons = XGetPointerMapping(dpy, map, sizeof map);
  for (const drivers::InputCode& c : s.core->driver().vocabulary()) {
    if (!c.button) {
      s.keycode_for(c.code);
    } else if (static_cast<int>(c.code) > buttons) {
      throw RunError(fmt::format("client: the pointer on display '{}' has {} buttons; button{} "
                                 "does not exist",
                                 options.display, buttons, c.code));
    }
  }

  if (options.window != 0) {
    const auto info = window_info(*s.x, options.window);
    if (!info) throw RunError(fmt::format("client: window {:#x} is not mapped on display '{}'", options.window, options.display));
    s.window = *info;
  } else {
    s.window = wait_for_app_window(*s.x, options.window_timeout_s, options.app_running, options.ignore_windows);
  }
  s.core->stats().window = s.window.id;
  XSelectInput(dpy, s.window.id, StructureNotifyMask);
  s.damage = XDamageCreate(dpy, s.window.id, XDamageReportNonEmpty);
  // No window manager gives focus: keys go to the focus window, buttons to the one under the
  // pointer, so both are pointed at the app's window.
  XSetInputFocus(dpy, s.window.id, RevertToPointerRoot, CurrentTime);
  const tag::WindowRect app = s.app_rect();
  XTestFakeMotionEvent(dpy, DefaultScreen(dpy), s.window.x + app.x + app.width / 2,
                       s.window.y + app.y + app.height / 2, CurrentTime);
  XSync(dpy, False);
  if (std::string e = s.x->take_error(); !e.empty())
    throw RunError("client: setting up the app window on display '" + options.display + "' failed: " + e);
  s.setup_capture();
  // A launcher still starting the game may yet move the window on screen (pictor-launch does
  // when it is not): the capture is set up again when the window moves.
  s.launcher = LauncherHold(s.x.get());
  s.core->check_window(s.launcher.holds());
  if (s.capture && !s.capture->shared_memory())
    s.core->stats().notes.push_back("MIT-SHM unavailable: captures use XGetImage");
  s.core->files = std::make_unique<ClientFiles>(options.out_dir);
  if (!options.expect_marker) s.colours = std::make_unique<ColourLog>(options.out_dir);

  s.wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s.wake_fd < 0) throw RunError("client: eventfd failed");
  s.running.store(true);
  State* raw = &s;
  s.thread = std::thread([raw] { raw->run(); });
  return client;
}

bool LocalClient::running() const { return state_ && state_->running.load(); }

void LocalClient::finish_inputs() {
  if (!state_) return;
  state_->finish_requested.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(state_->wake_fd, &one, sizeof one);
}

ClientStats LocalClient::stop() {
  State& s = *state_;
  ClientStats& stats = s.core->stats();
  std::lock_guard lock(s.stop_mutex);
  if (s.stopped) return stats;
  s.stopped = true;
  if (!s.thread.joinable()) return stats;  // start() failed part way: nothing runs
  s.stop_requested.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(s.wake_fd, &one, sizeof one);
  if (s.thread.joinable()) s.thread.join();
  try {
    if (!s.x->lost()) {
      s.core->release_held();
      XDamageDestroy(s.x->display(), s.damage);
      XSync(s.x->display(), False);
    }
  } catch (const std::exception& e) {
    if (stats.failure.empty()) stats.failure = e.what();
  }
  s.capture.reset();
  s.core->detach_driver();
  if (s.core->files) {
    if (!s.core->files->flush(0, true) && stats.failure.empty()) stats.failure = "client: " + s.core->files->error();
    s.core->files.reset();
  }
  if (s.colours) {
    if (!s.colours->flush(/*last=*/true) && stats.failure.empty()) stats.failure = "client: " + s.colours->error();
    s.colours.reset();
  }
  s.x.reset();
  s.core->add_stop_notes();
  if (s.unreadable_updates > 0) {
    stats.notes.push_back(fmt::format(
        "{} window update(s) not read: window unmapped or its marker corner off screen",
        s.unreadable_updates));
  }
  if (stats.capture_failures > 0) {
    stats.notes.push_back(fmt::format("{} capture(s) refused by the X server", stats.capture_failures));
  }
  return stats;
}

LocalClient::~LocalClient() {
  if (state_) stop();
}

}  // namespace pictor::client
