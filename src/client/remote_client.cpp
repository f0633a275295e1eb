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

#include "client/client_core.h"
#include "client/client_files.h"
#include "client/rfb_connection.h"
#include "client/rfb_socket.h"
#include "client/rfb_updates_file.h"
#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "tag/marker_code.h"

namespace pictor::client {

namespace {

// Longest sleep of the client loop: bounds how late buffered rows reach the files.
constexpr std::int64_t kRemoteMaxWaitNs = 100'000'000;
// How long stop() lets the thread finish a message before cutting the read.
constexpr auto kStopGrace = std::chrono::milliseconds(250);
constexpr unsigned kRfbButtons = 8;  // the PointerEvent mask has 8 bits

using drivers::Input;
using drivers::InputKind;

bool overlaps(const tag::WindowRect& a, const tag::WindowRect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

}  // namespace

struct RemoteClient::State : ClientTransport {
  RemoteClientOptions options;
  std::unique_ptr<ClientCore> core;
  std::unique_ptr<RfbConnection> conn;
  std::unique_ptr<RfbUpdatesFile> updates;
  tag::WindowRect window;         // in framebuffer coordinates
  tag::WindowRect marker_region;  // the marker's 64 x 32 px, in framebuffer coordinates
  std::map<unsigned, unsigned> keycodes;  // keysym → X keycode behind the server (may be empty)
  int pointer_x = 0, pointer_y = 0, button_mask = 0;
  RemoteClientStats rfb;
  std::uint64_t keysym_details = 0;
  // The X display behind the server (keycodes, the launcher's hold, the window's moves); null
  // when there is none.
  std::unique_ptr<XConnection> server_x;
  LauncherHold launcher;
  std::uint64_t window_moves = 0, unreadable_updates = 0;

  std::thread thread;
  int wake_fd = -1;
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> finish_requested{false};
  std::atomic<bool> running{false};
  mutable std::mutex stop_mutex;
  bool stopped = false;
  mutable std::mutex info_mutex;
  nlohmann::json info;  // the connection's info, refreshed by the thread at each flush

  std::int64_t last_message_end_ns = 0;
  std::int64_t last_info_ns = 0;

  ~State() override {
    if (wake_fd >= 0) ::close(wake_fd);
  }

  void send_motion(const Input& in) override;
  Sent send_tracked(const Input& in, bool button, bool press) override;
  std::optional<tag::ImageView> window_image() override;
  void move_pointer(const Input& in);
  void on_update(const RfbUpdate& u);
  void on_message(std::int64_t start_ns);
  void flush(std::int64_t now, bool force);
  void loop();
  void run();
  std::string window_problem() override;
  bool window_inside() const;
  void place_window(const tag::WindowRect& w);
  void follow_window(bool now);
};

bool RemoteClient::State::window_inside() const {
  const tag::WindowRect& w = window;
  return w.x >= 0 && w.y >= 0 && w.width >= tag::kMarkerWidth && w.height >= tag::kMarkerHeight &&
         w.x + w.width <= conn->width() && w.y + w.height <= conn->height();
}

void RemoteClient::State::place_window(const tag::WindowRect& w) {
  // The pointer keeps its place in the window.
  pointer_x += w.x - window.x;
  pointer_y += w.y - window.y;
  window = w;
  const tag::PixelPoint m = tag::marker_origin_in_image(w.width, w.height, options.corner);
  marker_region = tag::WindowRect{w.x + m.x, w.y + m.y, tag::kMarkerWidth, tag::kMarkerHeight};
}

// The window's moves, from its ConfigureNotify events on the X display behind the server (as the
// local client follows them); `now` also asks the server where it is at once.
void RemoteClient::State::follow_window(bool now) {
  if (!server_x || server_x->lost() || options.window_id == 0) return;
  Display* dpy = server_x->display();
  bool moved = now;
  while (XPending(dpy) > 0) {
    XEvent ev;
    XNextEvent(dpy, &ev);
    if (ev.type == ConfigureNotify && ev.xconfigure.window == options.window_id) moved = true;
  }
  if (!moved) return;
  const auto now_at = window_info(*server_x, options.window_id);
  if (!now_at) return;
  const tag::WindowRect w{now_at->x, now_at->y, now_at->width, now_at->height};
  if (w.x == window.x && w.y == window.y && w.width == window.width && w.height == window.height) return;
  ++window_moves;
  place_window(w);
  // With no window manager keys go to the window under the pointer: it moves with the window.
  if (!conn->send_pointer(std::clamp(pointer_x, 0, conn->width() - 1), std::clamp(pointer_y, 0, conn->height() - 1),
                          button_mask))
    throw RunError("rfb: writing a pointer event to the server failed (connection lost)");
}

std::string RemoteClient::State::window_problem() {
  follow_window(true);
  const tag::WindowRect& w = window;
  if (w.x < 0 || w.y < 0 || w.height <= 0 || w.x + w.width > conn->width() || w.y + w.height > conn->height())
    return fmt::format("rfb: the app window {}x{} at {},{} is not inside the {}x{} framebuffer of {}:{}", w.width,
                       w.height, w.x, w.y, conn->width(), conn->height(), options.host, options.port);
  if (w.width < tag::kMarkerWidth || w.height < tag::kMarkerHeight)
    return fmt::format("rfb: the app window {}x{} is smaller than the {}x{} marker", w.width, w.height,
                       tag::kMarkerWidth, tag::kMarkerHeight);
  return "";
}

void RemoteClient::State::move_pointer(const Input& in) {
  if (in.x >= 0 && in.y >= 0) {
    pointer_x = window.x + in.x;
    pointer_y = window.y + in.y;
  }
}

void RemoteClient::State::send_motion(const Input& in) {
  move_pointer(in);
  if (!conn->send_pointer(pointer_x, pointer_y, button_mask))
    throw RunError("rfb: writing a pointer event to the server failed (connection lost)");
}

ClientTransport::Sent RemoteClient::State::send_tracked(const Input& in, bool button, bool press) {
  move_pointer(in);
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
  return {detail, sent_ns};
}

std::optional<tag::ImageView> RemoteClient::State::window_image() {
  // The window's part of the client's framebuffer, without a copy.
  const tag::ImageView fb = conn->framebuffer();
  tag::ImageView image = fb;
  image.pixels = fb.pixels + static_cast<std::ptrdiff_t>(window.y) * fb.stride + window.x * 4;
  image.width = window.width;
  image.height = window.height;
  return image;
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
  if (marker && !window_inside()) {
    // Not readable where the window is now (a launcher may still move it on screen).
    ++unreadable_updates;
  } else if (marker) {
    ++rfb.marker_updates;
    // The update is in the framebuffer: the marker is read from the client's copy, no capture.
    const std::int64_t t0 = monotonic_ns();
    const auto payload = tag::decode(conn->framebuffer(), window, options.corner);
    const std::int64_t t1 = monotonic_ns();
    core->frame_seen(payload, u.end_ns, static_cast<double>(t1 - t0) / 1e3,
                     static_cast<double>(u.end_ns - u.start_ns) / 1e3);
  }
  // The app's frames reach the client: start after the warm-up.
  if (core->stats().markers_read > 0 || (!options.expect_marker && window_changed))
    core->app_draws(options.warmup_s, monotonic_ns());
  if (marker) core->drive_now(monotonic_ns());
}

void RemoteClient::State::on_message(std::int64_t start_ns) {
  const std::optional<RfbUpdate> u = conn->handle_message(start_ns);
  last_message_end_ns = monotonic_ns();
  if (u) on_update(*u);
}

void RemoteClient::State::flush(std::int64_t now, bool force) {
  if (!core->files->flush(now, force)) throw RunError("client: " + core->files->error());
  if (!updates->flush(now, force)) throw RunError("client: " + updates->error());
  // server_info() is asked from other threads: a snapshot, refreshed as often as the files.
  if (!force && now - last_info_ns < kRemoteMaxWaitNs) return;
  last_info_ns = now;
  nlohmann::json fresh = conn->info();
  std::lock_guard lock(info_mutex);
  info = std::move(fresh);
}

void RemoteClient::State::loop() {
  const int fd = conn->fd();
  core->start_waiting(options.first_frame_timeout_s, monotonic_ns());
  const std::string no_first_frame = fmt::format(
      "{} within {:g} s; inputs started anyway",
      options.expect_marker ? "no update with a readable marker" : "no update of the app window", options.first_frame_timeout_s);
  last_message_end_ns = monotonic_ns();
  while (!stop_requested.load()) {
    std::int64_t now = monotonic_ns();
    if (core->awaiting_first_frame() && options.app_running && !options.app_running())
      throw RunError("client: the app exited before its first frame reached the client");
    follow_window(false);
    core->turn(now, !core->driving() && launcher.holds(), finish_requested.load(), no_first_frame);
    flush(now, false);

    // A message (partly) in libvncclient's buffer does not make the socket readable: handle it
    // now; its first byte was there when the previous message ended.
    if (conn->has_buffered()) {
      on_message(last_message_end_ns);
      continue;
    }
    now = monotonic_ns();
    const std::int64_t wait_ns = core->wait_ns(now, kRemoteMaxWaitNs);
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
    if (!stop_requested.load()) core->stats().failure = e.what();
  }
  running.store(false);
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
  s.core = std::make_unique<ClientCore>(std::move(driver), s);
  for (const drivers::InputCode& c : s.core->driver().vocabulary()) {
    if (c.button && (c.code < 1 || c.code > kRfbButtons))
      throw RunError(fmt::format("rfb: button{} cannot be sent over RFB (buttons 1..{})", c.code, kRfbButtons));
  }
  if (options.keycode_display.empty()) s.keycodes = options.keycodes;
  if (!options.keycode_display.empty()) {
    // The keycodes the app will read, for the `detail` column the matcher aligns on.
    s.server_x = XConnection::open(options.keycode_display);
    const auto& x = s.server_x;
    for (const drivers::InputCode& c : s.core->driver().vocabulary()) {
      if (c.button) continue;
      const KeyCode code = XKeysymToKeycode(x->display(), c.code);
      if (code == 0)
        throw RunError(fmt::format("client: key '{}' has no keycode on display '{}'",
                                   drivers::input_code_name(false, c.code), options.keycode_display));
      s.keycodes[c.code] = code;
    }
    s.launcher = LauncherHold(s.server_x.get());
    if (options.window_id != 0) {
      XSelectInput(x->display(), options.window_id, StructureNotifyMask);
      XSync(x->display(), False);
      x->take_error();  // a window gone already shows as the app's exit, not here
    }
  }

  s.conn = RfbConnection::open(co);
  const int fb_w = s.conn->width(), fb_h = s.conn->height();
  const tag::WindowRect w = options.window.width > 0 ? options.window : tag::WindowRect{0, 0, fb_w, fb_h};
  s.pointer_x = w.x + w.width / 2;
  s.pointer_y = w.y + w.height / 2;
  s.window = w;
  s.place_window(w);
  // The window must lie inside the framebuffer; a launcher still starting the game may yet move
  // it there (pictor-launch does), and then the check waits for the launcher to let go.
  s.core->check_window(s.launcher.holds());
  if (!s.conn->send_pointer(std::clamp(s.pointer_x, 0, fb_w - 1), std::clamp(s.pointer_y, 0, fb_h - 1), 0))
    throw RunError("rfb: writing to the server failed right after the handshake");
  s.core->files = std::make_unique<ClientFiles>(options.out_dir);
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

std::optional<std::pair<std::uint64_t, std::uint64_t>> RemoteClient::socket_bytes() const {
  // stop() closes the socket under stop_mutex: held here, the fd cannot be another file's.
  std::lock_guard lock(state_->stop_mutex);
  if (state_->stopped || !state_->conn) return std::nullopt;
  const auto b = rfb::tcp_bytes(state_->conn->fd());
  if (!b) return std::nullopt;
  return std::make_pair(b->sent, b->received);
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
  ClientStats& stats = s.core->stats();
  std::lock_guard lock(s.stop_mutex);
  if (s.stopped) return stats;
  s.stopped = true;
  if (!s.thread.joinable()) return stats;
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
  if (cut) stats.notes.push_back("rfb: stop cut a server message short (the server stalled mid-message)");
  if (stats.failure.empty()) {
    try {
      s.core->release_held();
    } catch (const std::exception& e) {
      stats.failure = e.what();
    }
  }
  s.core->detach_driver();
  {
    std::lock_guard info_lock(s.info_mutex);
    s.info = s.conn->info();
    s.rfb.server = s.info;
  }
  try {
    s.flush(0, true);
  } catch (const std::exception& e) {
    if (stats.failure.empty()) stats.failure = e.what();
  }
  s.core->files.reset();
  s.updates.reset();
  // libvncclient's own log lines, kept out of stdout/stderr.
  try {
    std::string log;
    for (const std::string& line : s.conn->log_lines()) log += line + '\n';
    files::write_file(s.options.out_dir + "/rfb_client.log", log, {.sync = false});
  } catch (const files::WriteError& e) {
    stats.notes.push_back(std::string("rfb_client.log not written: ") + e.what());
  }
  const bool cu = s.conn->continuous_updates();
  s.conn.reset();

  stats.notes.push_back(fmt::format(
      "rfb: {} framebuffer update(s), {} touched the marker; {} byte(s) on the wire{}", s.rfb.updates,
      s.rfb.marker_updates, s.rfb.bytes,
      s.rfb.updates_without_bytes > 0 ? fmt::format(" ({} update(s) of unknown size)", s.rfb.updates_without_bytes)
                                      : std::string()));
  stats.notes.push_back(cu ? "rfb: continuous updates (the server sends without being asked)"
                           : "rfb: no continuous updates; an incremental request after each update");
  s.rfb.window = s.window;
  if (s.window_moves > 0)
    stats.notes.push_back(fmt::format("the app window moved {} time(s), last to {}x{} at {},{}; the client followed it",
                                      s.window_moves, s.window.width, s.window.height, s.window.x, s.window.y));
  if (s.unreadable_updates > 0)
    stats.notes.push_back(fmt::format("{} update(s) of the marker not read: the app window was not inside the framebuffer",
                                      s.unreadable_updates));
  if (s.keysym_details > 0)
    stats.notes.push_back(fmt::format(
        "{} key input(s) written with their keysym as detail (no X display to look up keycodes): "
        "the matcher cannot align them with the app's reads",
        s.keysym_details));
  s.core->add_stop_notes();
  return stats;
}

RemoteClient::~RemoteClient() {
  if (state_) stop();
}

}  // namespace pictor::client
