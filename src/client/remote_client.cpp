#include "client/remote_client.h"

#include <X11/Xlib.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "client/client_files.h"
#include "client/marker_tracker.h"
#include "client/rfb_connection.h"
#include "client/rfb_updates_file.h"
#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"
#include "tag/marker_code.h"

namespace pictor::client {

namespace {

// Longest sleep of the client loop: bounds how late buffered rows reach the files.
constexpr std::int64_t kMaxWaitNs = 100'000'000;
// Shortest time a driver may ask to be called again after an empty answer (as the local client).
constexpr std::int64_t kMinDriverPeriodNs = 100'000;
// How long stop() lets the thread finish a message before cutting the read.
constexpr auto kStopGrace = std::chrono::milliseconds(250);
constexpr unsigned kRfbButtons = 8;  // the PointerEvent mask has 8 bits

using drivers::Input;
using drivers::InputKind;

bool overlaps(const tag::WindowRect& a, const tag::WindowRect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

}  // namespace

struct RemoteClient::State {
  RemoteClientOptions options;
  std::unique_ptr<drivers::Driver> driver;
  std::unique_ptr<RfbConnection> conn;
  std::unique_ptr<ClientFiles> files;
  std::unique_ptr<RfbUpdatesFile> updates;
  MarkerTracker tracker;
  tag::WindowRect window;         // in framebuffer coordinates
  tag::WindowRect marker_region;  // the marker's 64 x 32 px, in framebuffer coordinates
  std::map<unsigned, unsigned> keycodes;  // keysym → X keycode behind the server (may be empty)
  std::set<std::pair<bool, unsigned>> held;
  int pointer_x = 0, pointer_y = 0, button_mask = 0;
  ClientStats stats;
  RemoteClientStats rfb;
  std::uint64_t implausible = 0, skipped_inputs = 0, keysym_details = 0;
  // Tracked events the app read before this client sent anything (a profile's start-up clicks
  // and keys, sent by pictor-launch): the app's tags run this far ahead of the client's numbering.
  std::uint64_t foreign_reads = 0;
  std::optional<std::uint32_t> last_idle_tag;  // the previous marker reading before driving
  // The X display behind the server, to see whether pictor-launch still holds the inputs (its
  // selection _PICTOR_LAUNCH_STARTING, docs/client.md); null when there is none.
  std::unique_ptr<XConnection> launcher_x;
  Atom launch_starting = None;
  std::int64_t held_since_ns = -1;

  std::thread thread;
  int wake_fd = -1;
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> finish_requested{false};
  std::atomic<bool> running{false};
  std::mutex stop_mutex;
  bool stopped = false;
  mutable std::mutex info_mutex;
  nlohmann::json info;  // the connection's info, refreshed by the thread at each flush

  bool driving = false;
  bool driver_finished = false;
  std::int64_t next_step_ns = 0;
  std::int64_t first_frame_deadline_ns = 0;
  std::int64_t warmup_until_ns = -1;
  std::int64_t last_seen_ns = -1;
  std::int64_t last_message_end_ns = 0;
  std::int64_t last_info_ns = 0;

  ~State() {
    if (wake_fd >= 0) ::close(wake_fd);
  }

  void send(const Input& in);
  void drive(std::int64_t now);
  void on_update(const RfbUpdate& u);
  void on_message(std::int64_t start_ns);
  void flush(std::int64_t now, bool force);
  void loop();
  void run();
  void release_held();
  bool launcher_holds();
};

bool RemoteClient::State::launcher_holds() {
  if (!launcher_x || launcher_x->lost()) return false;
  Display* dpy = launcher_x->display();
  if (launch_starting == None) launch_starting = XInternAtom(dpy, "_PICTOR_LAUNCH_STARTING", False);
  return XGetSelectionOwner(dpy, launch_starting) != None;
}

void RemoteClient::State::send(const Input& in) {
  if (in.x >= 0 && in.y >= 0) {
    pointer_x = window.x + in.x;
    pointer_y = window.y + in.y;
  }
  if (!drivers::is_tracked(in.kind)) {
    if (!conn->send_pointer(pointer_x, pointer_y, button_mask))
      throw RunError("rfb: writing a pointer event to the server failed (connection lost)");
    ++stats.motions_sent;
    return;
  }
  const bool button = !drivers::is_key(in.kind);
  const bool press = drivers::is_press(in.kind);
  const auto key = std::make_pair(button, in.code);
  // As in the local client: the X server behind would not turn these into the events the app
  // counts, and the tag count would drift.
  if (press == held.contains(key)) {
    ++skipped_inputs;
    return;
  }
  unsigned detail = in.code;
  bool ok = false;
  std::int64_t sent_ns = 0;
  if (button) {
    const int bit = 1 << (in.code - 1);
    const int mask = press ? (button_mask | bit) : (button_mask & ~bit);
    // Stamped just before the write, so the app cannot have read the input earlier.
    sent_ns = monotonic_ns();
    ok = conn->send_pointer(pointer_x, pointer_y, mask);
    button_mask = mask;
  } else {
    if (const auto it = keycodes.find(in.code); it != keycodes.end()) {
      detail = it->second;
    } else {
      ++keysym_details;
    }
    sent_ns = monotonic_ns();
    ok = conn->send_key(in.code, press);
  }
  if (!ok) throw RunError("rfb: writing an input event to the server failed (connection lost)");
  ++stats.inputs_sent;
  files->input(stats.inputs_sent, drivers::input_kind_name(in.kind), detail, sent_ns,
               drivers::input_code_name(button, in.code));
  if (press) {
    held.insert(key);
  } else {
    held.erase(key);
  }
}

void RemoteClient::State::drive(std::int64_t now) {
  if (driver_finished) return;
  drivers::ClientView view;
  view.now_ns = now;
  view.sent = stats.inputs_sent;
  view.tag = tracker.tag();
  view.frame = tracker.frame();
  view.frame_seen_ns = last_seen_ns;
  view.frames_seen = stats.captures;
  tag::ImageView image;
  if (driver->wants_image() && last_seen_ns >= 0) {
    // The window's part of the client's framebuffer, without a copy.
    const tag::ImageView fb = conn->framebuffer();
    image = fb;
    image.pixels = fb.pixels + static_cast<std::ptrdiff_t>(window.y) * fb.stride + window.x * 4;
    image.width = window.width;
    image.height = window.height;
    view.image = &image;
  }
  const drivers::Step step = driver->step(view);
  for (const Input& in : step.send) send(in);
  next_step_ns = std::max(step.next_ns, now + kMinDriverPeriodNs);
  driver_finished = step.finished;
}

void RemoteClient::State::on_update(const RfbUpdate& u) {
  ++rfb.updates;
  if (u.bytes) {
    rfb.bytes += static_cast<std::uint64_t>(*u.bytes);
  } else {
    ++rfb.updates_without_bytes;
  }
  if (rfb.first_update_ns < 0) rfb.first_update_ns = u.end_ns;
  rfb.last_update_ns = u.end_ns;
  const bool marker = std::any_of(u.rect_list.begin(), u.rect_list.end(),
                                  [&](const tag::WindowRect& r) { return overlaps(r, marker_region); });
  updates->update(rfb.updates, u, marker);
  const bool window_changed = std::any_of(u.rect_list.begin(), u.rect_list.end(),
                                          [&](const tag::WindowRect& r) { return overlaps(r, window); });
  if (marker) {
    ++rfb.marker_updates;
    // The update is in the framebuffer: the marker is read from the client's copy, no capture.
    const std::int64_t t0 = monotonic_ns();
    const auto payload = tag::decode(conn->framebuffer(), window, options.corner);
    const std::int64_t t1 = monotonic_ns();
    if (stats.inputs_sent == 0) {
      // Before the first input, a tag the app shows counts reads of someone else's inputs; taken
      // when two readings in a row agree, so one false read (probability 2^-12) cannot set it.
      if (payload && last_idle_tag == payload->tag) foreign_reads = tag::unwrap_counter(payload->tag, tag::kTagBits, 0);
      last_idle_tag = payload ? std::optional<std::uint32_t>(payload->tag) : std::nullopt;
    }
    // A tag beyond what the app can have read is a false read: it can have read every input this
    // client sent plus the foreign ones.
    const MarkerTracker::Reading r = tracker.update(payload, stats.inputs_sent + foreign_reads);
    if (r.implausible) ++implausible;
    ++stats.captures;
    if (r.tag) ++stats.markers_read;
    files->frame(u.end_ns, r.tag, r.frame, static_cast<double>(t1 - t0) / 1e3,
                 static_cast<double>(u.end_ns - u.start_ns) / 1e3);
    last_seen_ns = u.end_ns;
  }
  if (!driving && warmup_until_ns < 0 &&
      (stats.markers_read > 0 || (!options.expect_marker && window_changed))) {
    // The app's frames reach the client: start after the warm-up.
    warmup_until_ns = monotonic_ns() + static_cast<std::int64_t>(options.warmup_s * 1e9);
  }
  if (driving && marker) drive(monotonic_ns());
}

void RemoteClient::State::on_message(std::int64_t start_ns) {
  const std::optional<RfbUpdate> u = conn->handle_message(start_ns);
  last_message_end_ns = monotonic_ns();
  if (u) on_update(*u);
}

void RemoteClient::State::flush(std::int64_t now, bool force) {
  if (!files->flush(now, force)) throw RunError("client: " + files->error());
  if (!updates->flush(now, force)) throw RunError("client: " + updates->error());
  // server_info() is asked from other threads: a snapshot, refreshed as often as the files.
  if (!force && now - last_info_ns < kMaxWaitNs) return;
  last_info_ns = now;
  nlohmann::json fresh = conn->info();
  std::lock_guard lock(info_mutex);
  info = std::move(fresh);
}

void RemoteClient::State::loop() {
  const int fd = conn->fd();
  first_frame_deadline_ns = monotonic_ns() + static_cast<std::int64_t>(options.first_frame_timeout_s * 1e9);
  last_message_end_ns = monotonic_ns();
  while (!stop_requested.load()) {
    std::int64_t now = monotonic_ns();
    if (!driving && launcher_holds()) {
      // Start afresh once the launcher lets go: the next readable marker, then the warm-up.
      if (held_since_ns < 0) held_since_ns = now;
      warmup_until_ns = -1;
      first_frame_deadline_ns = now + static_cast<std::int64_t>(options.first_frame_timeout_s * 1e9);
    } else if (held_since_ns >= 0) {
      stats.notes.push_back(fmt::format("inputs held for {:.1f} s while pictor-launch started the game",
                                        static_cast<double>(now - held_since_ns) * 1e-9));
      held_since_ns = -2;  // noted once
    }
    if (!driving && warmup_until_ns >= 0 && now >= warmup_until_ns) {
      driving = true;
      next_step_ns = now;
    }
    if (!driving && warmup_until_ns < 0) {
      if (options.app_running && !options.app_running())
        throw RunError("client: the app exited before its first frame reached the client");
      if (now >= first_frame_deadline_ns) {
        driving = true;
        next_step_ns = now;
        stats.notes.push_back(fmt::format(
            "{} within {:g} s; inputs started anyway",
            options.expect_marker ? "no update with a readable marker" : "no update of the app window",
            options.first_frame_timeout_s));
      }
    }
    if (finish_requested.load() && !driver_finished) {
      release_held();
      driver_finished = true;
    }
    if (driving && !driver_finished && now >= next_step_ns) drive(now);
    flush(now, false);

    // A message (partly) in libvncclient's buffer does not make the socket readable: handle it
    // now; its first byte was there when the previous message ended.
    if (conn->has_buffered()) {
      on_message(last_message_end_ns);
      continue;
    }
    now = monotonic_ns();
    std::int64_t wait_ns = kMaxWaitNs;
    if (driving && !driver_finished) wait_ns = std::min(wait_ns, next_step_ns - now);
    if (!driving) wait_ns = std::min(wait_ns, (warmup_until_ns >= 0 ? warmup_until_ns : first_frame_deadline_ns) - now);
    wait_ns = std::max<std::int64_t>(wait_ns, 0);
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
    const timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
    if (::ppoll(fds, 2, &ts, nullptr) > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      on_message(monotonic_ns());
    }
    if (fds[1].revents & POLLIN) {
      std::uint64_t v = 0;
      [[maybe_unused]] const auto r = ::read(wake_fd, &v, sizeof v);
    }
  }
}

void RemoteClient::State::run() {
  try {
    loop();
  } catch (const std::exception& e) {
    // A read cut by stop() is the end asked for, not a failure.
    if (!stop_requested.load()) stats.failure = e.what();
  }
  running.store(false);
}

void RemoteClient::State::release_held() {
  const auto still_held = held;
  for (const auto& [button, code] : still_held) {
    const InputKind kind = button ? InputKind::button_release : InputKind::key_release;
    send(Input{kind, code});
  }
}

std::unique_ptr<RemoteClient> RemoteClient::start(const RemoteClientOptions& options,
                                                  std::unique_ptr<drivers::Driver> driver) {
  if (!driver) throw UsageError("client: no input driver given");
  RfbConnectionOptions co;
  co.host = options.host;
  co.port = options.port;
  co.encodings.jpeg_quality = options.jpeg_quality;
  co.encodings.subsampling = rfb::parse_subsampling(options.subsampling);
  co.encodings.compress_level = options.compress_level;
  co.encodings.continuous_updates = options.continuous_updates;
  co.connect_timeout_s = options.connect_timeout_s;

  std::unique_ptr<RemoteClient> client(new RemoteClient());
  client->state_ = std::make_unique<State>();
  State& s = *client->state_;
  s.options = options;
  s.driver = std::move(driver);
  s.stats.driver = s.driver->spec();
  for (const drivers::InputCode& c : s.driver->vocabulary()) {
    if (c.button && (c.code < 1 || c.code > kRfbButtons))
      throw RunError(fmt::format("rfb: button{} cannot be sent over RFB (buttons 1..{})", c.code, kRfbButtons));
  }
  if (!options.keycode_display.empty()) {
    // The keycodes the app will read, for the `detail` column the matcher aligns on.
    s.launcher_x = XConnection::open(options.keycode_display);
    const auto& x = s.launcher_x;
    for (const drivers::InputCode& c : s.driver->vocabulary()) {
      if (c.button) continue;
      const KeyCode code = XKeysymToKeycode(x->display(), c.code);
      if (code == 0)
        throw RunError(fmt::format("client: key '{}' has no keycode on display '{}'",
                                   drivers::input_code_name(false, c.code), options.keycode_display));
      s.keycodes[c.code] = code;
    }
  }

  s.conn = RfbConnection::open(co);
  const int fb_w = s.conn->width(), fb_h = s.conn->height();
  s.window = options.window.width > 0 ? options.window : tag::WindowRect{0, 0, fb_w, fb_h};
  const tag::WindowRect& w = s.window;
  if (w.x < 0 || w.y < 0 || w.height <= 0 || w.x + w.width > fb_w || w.y + w.height > fb_h)
    throw RunError(fmt::format("rfb: the app window {}x{} at {},{} is not inside the {}x{} framebuffer of {}:{}",
                               w.width, w.height, w.x, w.y, fb_w, fb_h, options.host, options.port));
  if (w.width < tag::kMarkerWidth || w.height < tag::kMarkerHeight)
    throw RunError(fmt::format("rfb: the app window {}x{} is smaller than the {}x{} marker", w.width,
                               w.height, tag::kMarkerWidth, tag::kMarkerHeight));
  const tag::PixelPoint m = tag::marker_origin_in_image(w.width, w.height, options.corner);
  s.marker_region = tag::WindowRect{w.x + m.x, w.y + m.y, tag::kMarkerWidth, tag::kMarkerHeight};
  s.pointer_x = w.x + w.width / 2;
  s.pointer_y = w.y + w.height / 2;
  if (!s.conn->send_pointer(s.pointer_x, s.pointer_y, 0))
    throw RunError("rfb: writing to the server failed right after the handshake");
  s.files = std::make_unique<ClientFiles>(options.out_dir);
  s.updates = std::make_unique<RfbUpdatesFile>(options.out_dir);
  s.info = s.conn->info();

  s.wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s.wake_fd < 0) throw RunError("client: eventfd failed");
  s.running.store(true);
  State* raw = &s;
  s.thread = std::thread([raw] { raw->run(); });
  return client;
}

bool RemoteClient::running() const { return state_ && state_->running.load(); }

nlohmann::json RemoteClient::server_info() const {
  std::lock_guard lock(state_->info_mutex);
  return state_->info;
}

RemoteClientStats RemoteClient::rfb_stats() const { return state_->rfb; }

void RemoteClient::finish_inputs() {
  if (!state_) return;
  state_->finish_requested.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(state_->wake_fd, &one, sizeof one);
}

ClientStats RemoteClient::stop() {
  State& s = *state_;
  std::lock_guard lock(s.stop_mutex);
  if (s.stopped) return s.stats;
  s.stopped = true;
  if (!s.thread.joinable()) return s.stats;
  s.stop_requested.store(true);
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(s.wake_fd, &one, sizeof one);
  // The loop ends within one turn unless it is inside a message the server stopped sending.
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  while (s.running.load() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const bool cut = s.running.load();
  if (cut) s.conn->shutdown_reading();
  s.thread.join();
  if (cut) s.stats.notes.push_back("rfb: stop cut a server message short (the server stalled mid-message)");
  if (s.stats.failure.empty()) {
    try {
      s.release_held();
    } catch (const std::exception& e) {
      s.stats.failure = e.what();
    }
  }
  try {
    s.driver->detach();
    s.stats.driver_report = s.driver->report();
  } catch (const std::exception& e) {
    s.stats.notes.push_back(std::string("the driver's report failed: ") + e.what());
  }
  {
    std::lock_guard info_lock(s.info_mutex);
    s.info = s.conn->info();
    s.rfb.server = s.info;
  }
  try {
    s.flush(0, true);
  } catch (const std::exception& e) {
    if (s.stats.failure.empty()) s.stats.failure = e.what();
  }
  s.files.reset();
  s.updates.reset();
  // libvncclient's own log lines, kept out of stdout/stderr.
  if (std::ofstream log(s.options.out_dir + "/rfb_client.log"); log) {
    for (const std::string& line : s.conn->log_lines()) log << line << '\n';
  }
  const bool cu = s.conn->continuous_updates();
  s.conn.reset();

  s.stats.notes.push_back(fmt::format(
      "rfb: {} framebuffer update(s), {} touched the marker; {} byte(s) on the wire{}", s.rfb.updates,
      s.rfb.marker_updates, s.rfb.bytes,
      s.rfb.updates_without_bytes > 0 ? fmt::format(" ({} update(s) of unknown size)", s.rfb.updates_without_bytes)
                                      : std::string()));
  s.stats.notes.push_back(cu ? "rfb: continuous updates (the server sends without being asked)"
                             : "rfb: no continuous updates; an incremental request after each update");
  if (s.keysym_details > 0)
    s.stats.notes.push_back(fmt::format(
        "{} key input(s) written with their keysym as detail (no X display to look up keycodes): "
        "the matcher cannot align them with the app's reads",
        s.keysym_details));
  if (s.skipped_inputs > 0)
    s.stats.notes.push_back(fmt::format(
        "{} driver input(s) not sent: a press of what was held or a release of what was not", s.skipped_inputs));
  if (s.foreign_reads > 0) {
    s.stats.notes.push_back(fmt::format(
        "the app had read {} tracked event(s) before the first input (start-up inputs): its tags run "
        "that far ahead of the inputs sent",
        s.foreign_reads));
  }
  if (s.implausible > 0)
    s.stats.notes.push_back(fmt::format(
        "{} marker read(s) rejected: tag beyond the inputs sent (a false read of unmarked content)",
        s.implausible));
  return s.stats;
}

RemoteClient::~RemoteClient() {
  if (state_) stop();
}

}  // namespace pictor::client
