#include "runner/viewer_adapter.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <thread>

#include "client/local_client.h"
#include "client/x_connection.h"
#include "core/error.h"
#include "net/relay.h"
#include "runner/process.h"
#include "runner/xvfb.h"

namespace pictor::runner {

namespace fs = std::filesystem;

TightLevel nearest_tight_level(int jpeg_quality) {
  static constexpr std::array<int, 10> kQuality{15, 29, 41, 42, 62, 77, 79, 86, 92, 100};
  TightLevel best{0, kQuality[0]};
  for (int level = 1; level < static_cast<int>(kQuality.size()); ++level) {
    const int q = kQuality[static_cast<std::size_t>(level)];
    if (std::abs(q - jpeg_quality) < std::abs(best.jpeg_quality - jpeg_quality)) best = {level, q};
  }
  return best;
}

namespace {

// The client screen is larger than the remote desktop: vncviewer shrinks a window that would
// fill the screen exactly ("to avoid accidental full screen request"), and a shrunk window
// scrolls, so the desktop would no longer be shown 1:1 from the window's corner.
constexpr int kClientScreenMargin = 64;
// vncviewer maps its window once it has the server's desktop size, within a second here.
constexpr double kViewerStartTimeoutS = 20.0;

struct ViewerWindow {
  Window id = 0;
  int x = 0, y = 0, width = 0, height = 0;
  std::string wm_name;
};

// vncviewer's window on the client display: a mapped top-level window of the remote desktop's
// size (FLTK also maps a 1×1 window of its own). nullopt while there is none.
std::optional<ViewerWindow> find_viewer_window(client::XConnection& x, Size desktop) {
  Display* dpy = x.display();
  Window root_out = 0, parent = 0;
  Window* children = nullptr;
  unsigned count = 0;
  std::optional<ViewerWindow> found;
  if (XQueryTree(dpy, DefaultRootWindow(dpy), &root_out, &parent, &children, &count)) {
    for (unsigned i = 0; i < count && !found; ++i) {
      XWindowAttributes a{};
      if (!XGetWindowAttributes(dpy, children[i], &a)) continue;
      if (a.map_state != IsViewable || a.override_redirect || a.c_class != InputOutput) continue;
      if (a.width != desktop.width || a.height != desktop.height) continue;
      ViewerWindow w{children[i], a.x, a.y, a.width, a.height, ""};
      char* name = nullptr;
      if (XFetchName(dpy, children[i], &name) && name) {
        w.wm_name = name;
        XFree(name);
      }
      found = w;
    }
    if (children) XFree(children);
  }
  x.take_error();  // windows that vanished between the query and the attributes
  return found;
}

// The session's client: Pictor's local client on the client display, driving the viewer's
// window, with the app's window located inside it.
class ViewerClient final : public AdapterClient {
 public:
  ViewerClient(std::unique_ptr<client::LocalClient> c, nlohmann::json description, std::function<nlohmann::json()> net)
      : client_(std::move(c)), description_(std::move(description)), net_(std::move(net)) {}
  client::ClientStats stop() override { return client_->stop(); }
  void finish_inputs() override { client_->finish_inputs(); }
  bool running() const override { return client_->running(); }
  nlohmann::json describe() const override {
    nlohmann::json j = description_;
    j["net"] = net_();
    return j;
  }

 private:
  std::unique_ptr<client::LocalClient> client_;
  nlohmann::json description_;
  std::function<nlohmann::json()> net_;
};

class VncViewerAdapter final : public Adapter {
 public:
  explicit VncViewerAdapter(const AdapterOptions& o)
      : desktop_(o.size),
        client_xvfb_log_((fs::path(o.out_dir) / "client_xvfb.log").string()),
        log_((fs::path(o.out_dir) / "vncviewer.log").string()),
        home_((fs::absolute(o.out_dir) / "vncviewer-home").string()),
        level_(nearest_tight_level(o.vnc_quality)) {
    if (!find_executable("vncviewer"))
      throw RunError("vncviewer not found (install the 'tigervnc-viewer' package: scripts/setup.sh --tests)");
    server_ = start_adapter("xvnc", o);
    try {
      client_xvfb_ = Xvfb::start({o.size.width + kClientScreenMargin, o.size.height + kClientScreenMargin},
                                 client_xvfb_log_, "client Xvfb");
      // A held key must not auto-repeat on the viewer's display either: vncviewer forwards the
      // key events its display gives it, so a repeat would reach Xvnc as one more press, a
      // tracked input the client never sent.
      auto x = client::XConnection::open(client_xvfb_->display());
      XAutoRepeatOff(x->display());
      XSync(x->display(), False);
      // --net: a relay in front of Xvnc, as Pictor's RFB client gets.
      relay_ = start_viewer_relay(o, server_->rfb()->port);
      start_viewer(*x, relay_ ? relay_->port() : server_->rfb()->port);
    } catch (...) {
      stop({});
      throw;
    }
    version_ = program_version({"vncviewer", "-h"}, "TigerVNC Viewer");
  }

  std::string name() const override { return "vncviewer"; }
  std::string display() const override { return server_->display(); }
  std::optional<RfbEndpoint> rfb() const override { return server_->rfb(); }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    // Xvnc first, then the display the viewer draws on, then the viewer, which needs both.
    std::vector<ServerEnd> ends;
    std::optional<ServerEnd> xvnc = server_->dead();
    // A viewer whose Xvnc died exits at once, and can be reaped first: the kernel closes a dying
    // process's socket before it reports the exit. Xvnc gets up to 200 ms to show as dead before
    // the viewer is blamed (as Stack::poll_app does for an app), and is then the cause.
    for (int i = 0; i < 10 && !xvnc && !xvnc_end_ && viewer_.pid() > 0 && !viewer_.running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if ((xvnc = server_->dead())) viewer_after_xvnc_ = true;
    }
    if (xvnc) {
      if (!xvnc_end_) xvnc_end_ = xvnc;
      ends.push_back(*xvnc);
    }
    if (client_xvfb_)
      if (auto e = server_end(client_xvfb_->process(), "client Xvfb", client_xvfb_log_)) ends.push_back(*e);
    if (viewer_.pid() > 0)
      if (auto e = server_end(viewer_, "vncviewer", log_)) ends.push_back(*e);
    std::optional<ServerEnd> first = first_server_end(std::move(ends));
    if (first && viewer_after_xvnc_ && xvnc && first->name != xvnc->name) {
      ServerEnd cause = *xvnc;
      cause.followed.clear();
      cause.followed.push_back(first->name);
      for (const auto& name : first->followed)
        if (name != cause.name) cause.followed.push_back(name);
      return cause;
    }
    return first;
  }
  std::vector<std::string> suspended() const override {
    std::vector<std::string> out;
    if (stopped_) return out;
    out = server_->suspended();
    if (client_xvfb_->process().suspended()) out.push_back("client Xvfb");
    if (viewer_.suspended()) out.push_back("vncviewer");
    return out;
  }
  std::vector<nlohmann::json> running_processes() const override {
    std::vector<nlohmann::json> out = server_->running_processes();
    out.push_back({{"name", "vncviewer"}, {"pid", viewer_.pid()}});
    out.push_back({{"name", "client Xvfb"}, {"pid", client_xvfb_->process().pid()}});
    return out;
  }
  nlohmann::json describe() const override {
    nlohmann::json j = server_->describe();
    j["viewer"] = {{"program", "vncviewer"},
                   {"version", version_.empty() ? nlohmann::json(nullptr) : nlohmann::json(version_)},
                   {"argv", argv_},
                   {"pid", viewer_.pid()},
                   {"log", log_},
                   {"connects_to", relay_ ? "the --net relay in front of Xvnc" : "Xvnc's RFB port"},
                   {"encoding",
                    {{"auto_select", false},
                     {"preferred", "Tight"},
                     {"quality_level", level_.level},
                     {"jpeg_quality", level_.jpeg_quality},
                     {"compress_level", kCompressLevel}}},
                   {"window",
                    {{"id", window_.id},
                     {"wm_name", window_.wm_name},
                     {"x", window_.x},
                     {"y", window_.y},
                     {"width", window_.width},
                     {"height", window_.height}}}};
    j["client_display"] = {{"server", "Xvfb"},
                           {"display", client_xvfb_->display()},
                           {"pid", client_xvfb_->process().pid()},
                           {"size", fmt::format("{}x{}", desktop_.width + kClientScreenMargin,
                                                desktop_.height + kClientScreenMargin)},
                           {"keyboard_auto_repeat", false}};
    if (relay_) j["net_relay_port"] = relay_->port();
    return j;
  }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (stopped_) return entries_;
    dead();  // reap whichever ended by itself before the stop, so each end is told as it was
    if (relay_) relay_->stop();
    if (viewer_.pid() > 0) viewer_.stop(2.0);
    if (client_xvfb_) client_xvfb_->stop();
    entries_ = server_->stop(context);
    if (viewer_.pid() > 0) {
      // The viewer ending after Xvnc or its display died: that death explains it.
      std::string after;
      const bool by_pictor = viewer_.ended_by() == EndedBy::pictor;
      if (xvnc_end_ && (by_pictor || viewer_after_xvnc_ || xvnc_end_->seen_ns <= viewer_.ended_ns())) {
        after = "Xvnc died";
      } else if (client_xvfb_) {
        const Process& x = client_xvfb_->process();
        if (x.ended_by() != EndedBy::pictor && x.ended_ns() > 0 && (by_pictor || x.ended_ns() <= viewer_.ended_ns()))
          after = "client Xvfb died";
      }
      StopContext viewer_context = context;
      if (!after.empty()) viewer_context.reason = "after " + after;
      entries_.push_back(process_status_json(viewer_, viewer_context, after));
    }
    if (client_xvfb_) entries_.push_back(process_status_json(client_xvfb_->process(), context));
    stopped_ = true;
    return entries_;
  }

  bool has_own_client() const override { return true; }
  std::optional<resources::NetworkSource> own_client_network() const override {
    return viewer_relay_network(relay_.get(), "vncviewer");
  }

  std::unique_ptr<AdapterClient> start_client(const AdapterClientOptions& o,
                                              std::unique_ptr<drivers::Driver> driver) override {
    // The viewer shows Xvnc's desktop 1:1 from its window's corner: the app's window lies in it
    // where it lies on Xvnc's screen.
    auto x = client::XConnection::open(display());
    const client::WindowInfo app = client::wait_for_app_window(*x, o.window_timeout_s, o.app_running);
    x.reset();
    client::LocalClientOptions co;
    co.display = client_xvfb_->display();
    co.out_dir = o.out_dir;
    co.expect_marker = o.expect_marker;
    co.app_running = o.app_running;
    co.app_in_window = tag::WindowRect{app.x, app.y, app.width, app.height};
    co.window = window_.id;
    auto c = client::LocalClient::start(co, std::move(driver));
    nlohmann::json d{{"client", "local client (XTest into vncviewer's window, XDamage + MIT-SHM reads of it)"},
                     {"display", client_xvfb_->display()},
                     {"viewer_window", window_.id},
                     {"app_in_window", {{"x", app.x}, {"y", app.y}, {"width", app.width}, {"height", app.height}}}};
    return wrap_viewer_client(std::move(c), std::move(d), [this] { return net_json(); });
  }

 private:
  // Everything that would wait for a person is off: no password (Xvnc has -SecurityTypes None),
  // no reconnect or error dialog, no menu key, no clipboard; the desktop keeps its size
  // (-RemoteResize=0), and the encoding is stated rather than auto-selected.
  void start_viewer(client::XConnection& x, int port) {
    fs::create_directories(home_);
    argv_ = {"vncviewer", "-display", client_xvfb_->display(),
             "-geometry", fmt::format("{}x{}+0+0", desktop_.width, desktop_.height),
             "-SecurityTypes", "None", "-AutoSelect=0", "-PreferredEncoding", "Tight", "-FullColor",
             "-QualityLevel", std::to_string(level_.level), "-CustomCompressLevel=1",
             "-CompressLevel", std::to_string(kCompressLevel),
             "-RemoteResize=0", "-Shared", "-ReconnectOnError=0", "-AlertOnFatalError=0", "-MenuKey=",
             "-FullscreenSystemKeys=0", "-AcceptClipboard=0", "-SendClipboard=0", "-SendPrimary=0", "-SetPrimary=0",
             "-PointerEventInterval=0", fmt::format("127.0.0.1::{}", port)};
    SpawnOptions s;
    s.argv = argv_;
    s.stdout_path = log_;
    s.stderr_path = log_;
    // Its own HOME: no user's ~/.vnc settings are read, and nothing is written there.
    s.env = {{"HOME", home_}, {"XDG_CONFIG_HOME", home_ + "/.config"}, {"XDG_DATA_HOME", home_ + "/.local/share"},
             {"XDG_CACHE_HOME", home_ + "/.cache"}, {"DISPLAY", client_xvfb_->display()},
             // Neither interposer belongs in the viewer, should the user's environment name one.
             {"LD_PRELOAD", ""}, {"PICTOR_MARKER", ""}, {"PICTOR_OUT", ""}};
    viewer_ = Process::spawn(s);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kViewerStartTimeoutS);
    while (viewer_.running() && std::chrono::steady_clock::now() < deadline) {
      if (const auto w = find_viewer_window(x, desktop_)) {
        window_ = *w;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const bool ran = viewer_.running();
    const auto st = viewer_.stop(0.5);
    const std::string last = last_log_line(log_);
    throw RunError(ran ? fmt::format("vncviewer mapped no {}x{} window on {} within {:g} s, see {}", desktop_.width,
                                     desktop_.height, client_xvfb_->display(), kViewerStartTimeoutS, log_)
                       : "vncviewer failed to start (" + st.describe() + (last.empty() ? "" : ": " + last) + "), see " +
                             log_);
  }

  nlohmann::json net_json() const { return viewer_relay_json(relay_.get()); }

  // Pictor's RFB client asks for zlib level 1 (client/rfb_encodings.h); the viewer the same.
  // TigerVNC 1.12's viewer sends no compression level unless -CustomCompressLevel=1 is given
  // too, and Xvnc (CompareFB auto) then compares every update against the previous frame and
  // sends only the pixels that changed, where at level 1 it sends every damaged pixel: the two
  // clients of one Xvnc would not be measuring the same server (docs/remote.md).
  static constexpr int kCompressLevel = 1;

  Size desktop_;
  std::string client_xvfb_log_, log_, home_;
  TightLevel level_;
  std::unique_ptr<Adapter> server_;
  std::unique_ptr<Xvfb> client_xvfb_;
  std::unique_ptr<net::TcpRelay> relay_;
  Process viewer_;
  ViewerWindow window_;
  std::vector<std::string> argv_;
  std::string version_;
  std::optional<ServerEnd> xvnc_end_;
  bool viewer_after_xvnc_ = false;  // Xvnc showed as dead only after the viewer had ended (dead())
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

}  // namespace

std::unique_ptr<net::TcpRelay> start_viewer_relay(const AdapterOptions& options, int port,
                                                  std::size_t max_queued_bytes) {
  if (options.net.is_identity() || options.net_backend != "relay") return nullptr;
  net::RelayOptions ro;
  ro.target_port = static_cast<std::uint16_t>(port);
  ro.max_queued_bytes = max_queued_bytes;
  auto relay = std::make_unique<net::TcpRelay>(options.net, ro);
  relay->start();
  return relay;
}

nlohmann::json viewer_relay_json(const net::TcpRelay* relay) {
  if (!relay) return {{"relay", false}};
  return {{"relay", true},
          {"bytes_up", relay->bytes_up()},
          {"bytes_down", relay->bytes_down()},
          {"connections", relay->connections()}};
}

std::optional<resources::NetworkSource> viewer_relay_network(const net::TcpRelay* relay, const std::string& viewer) {
  if (!relay) return std::nullopt;
  return resources::NetworkSource{
      fmt::format("relay (bytes the --net relay between {} and its server delivered each way)", viewer),
      [relay]() -> std::optional<resources::NetworkCounts> {
        return resources::NetworkCounts{relay->bytes_up(), relay->bytes_down()};
      }};
}

std::unique_ptr<AdapterClient> wrap_viewer_client(std::unique_ptr<client::LocalClient> c, nlohmann::json description,
                                                  std::function<nlohmann::json()> net) {
  return std::make_unique<ViewerClient>(std::move(c), std::move(description), std::move(net));
}

std::unique_ptr<Adapter> start_vncviewer_adapter(const AdapterOptions& options) {
  return std::make_unique<VncViewerAdapter>(options);
}

}  // namespace pictor::runner
