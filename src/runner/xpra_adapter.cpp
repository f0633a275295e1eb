#include "runner/xpra_adapter.h"

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <thread>

#include "client/local_client.h"
#include "client/x_connection.h"
#include "core/error.h"
#include "net/relay.h"
#include "runner/process.h"
#include "runner/viewer_adapter.h"
#include "runner/xvfb.h"

namespace pictor::runner {

namespace fs = std::filesystem;

namespace {

// xpra (Python) takes 2-3 s to start its server or to attach on an idle machine.
constexpr double kXpraStartTimeoutS = 40.0;
// xpra forwards a window some seconds after the app maps it: never wait less than this.
constexpr double kMinWindowTimeoutS = 15.0;
// The client display's key repeat (see the constructor).
constexpr unsigned kClientRepeatDelayMs = 100, kClientRepeatIntervalMs = 30;

struct FoundWindow {
  Window id = 0;
  int x = 0, y = 0, width = 0, height = 0;
  std::string name;
};

// _NET_WM_NAME (UTF-8; xpra sets only this one on its own windows), else WM_NAME.
std::string window_name(Display* dpy, Window w) {
  const Atom net_wm_name = XInternAtom(dpy, "_NET_WM_NAME", False);
  const Atom utf8 = XInternAtom(dpy, "UTF8_STRING", False);
  Atom type = 0;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  std::string out;
  if (XGetWindowProperty(dpy, w, net_wm_name, 0, 1024, False, utf8, &type, &format, &count, &after, &data) == Success &&
      data) {
    if (type == utf8 && format == 8) out.assign(reinterpret_cast<const char*>(data), count);
    XFree(data);
  }
  if (!out.empty()) return out;
  char* name = nullptr;
  if (XFetchName(dpy, w, &name) && name) {
    out = name;
    XFree(name);
  }
  return out;
}

std::vector<Window> children_of(Display* dpy, Window w) {
  Window root_out = 0, parent = 0;
  Window* children = nullptr;
  unsigned count = 0;
  std::vector<Window> out;
  if (XQueryTree(dpy, w, &root_out, &parent, &children, &count)) {
    out.assign(children, children + count);
    if (children) XFree(children);
  }
  return out;
}

// The app's window on xpra's display: xpra, the window manager there, reparents each client
// window into an unmapped "Xpra-CorralWindow-…" and composites it off screen, so it is the child
// of such a window (the largest, should there be several).
std::optional<FoundWindow> app_window_under_xpra(client::XConnection& x) {
  Display* dpy = x.display();
  std::optional<FoundWindow> best;
  for (const Window top : children_of(dpy, DefaultRootWindow(dpy))) {
    if (window_name(dpy, top).rfind("Xpra-CorralWindow-", 0) != 0) continue;
    for (const Window w : children_of(dpy, top)) {
      XWindowAttributes a{};
      if (!XGetWindowAttributes(dpy, w, &a) || a.c_class != InputOutput) continue;
      if (!best || a.width * a.height > best->width * best->height)
        best = FoundWindow{w, a.x, a.y, a.width, a.height, window_name(dpy, w)};
    }
  }
  x.take_error();
  return best;
}

// xpra's window of the app on the client display: a mapped top-level window of the app's size
// and title (the client runs with --title=@title@).
std::optional<FoundWindow> xpra_client_window(client::XConnection& x, const FoundWindow& app) {
  Display* dpy = x.display();
  for (const Window w : children_of(dpy, DefaultRootWindow(dpy))) {
    XWindowAttributes a{};
    if (!XGetWindowAttributes(dpy, w, &a)) continue;
    if (a.map_state != IsViewable || a.override_redirect || a.c_class != InputOutput) continue;
    if (a.width != app.width || a.height != app.height) continue;
    const std::string name = window_name(dpy, w);
    if (!app.name.empty() && name != app.name) continue;
    x.take_error();
    return FoundWindow{w, a.x, a.y, a.width, a.height, name};
  }
  x.take_error();
  return std::nullopt;
}

bool log_has(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// The directory of the interpreter xpra's script names (`#!/usr/bin/python3`): xpra runs helper
// commands as `python3 …` through $PATH, and an interpreter earlier in $PATH (a pyenv shim) has
// no xpra modules.
std::string interpreter_dir(const std::string& script) {
  std::ifstream in(script);
  std::string line;
  if (!std::getline(in, line) || line.rfind("#!", 0) != 0) return {};
  line.erase(0, 2);
  const auto start = line.find_first_not_of(' ');
  if (start == std::string::npos) return {};
  const std::string interpreter = line.substr(start, line.find(' ', start) - start);
  return fs::path(interpreter).parent_path().string();
}

nlohmann::json window_json(const FoundWindow& w) {
  return {{"id", w.id}, {"name", w.name}, {"x", w.x}, {"y", w.y}, {"width", w.width}, {"height", w.height}};
}

class XpraAdapter final : public Adapter {
 public:
  explicit XpraAdapter(const AdapterOptions& o)
      : size_(o.size),
        xvfb_log_((fs::path(o.out_dir) / "xvfb.log").string()),
        server_log_((fs::path(o.out_dir) / "xpra_server.log").string()),
        client_xvfb_log_((fs::path(o.out_dir) / "client_xvfb.log").string()),
        client_log_((fs::path(o.out_dir) / "xpra_client.log").string()),
        home_((fs::absolute(o.out_dir) / "xpra-home").string()) {
    const auto xpra = find_executable("xpra");
    if (!xpra)
      throw RunError("xpra not found (install the 'xpra', 'python3-pil' and 'python3-gi-cairo' packages: "
                     "scripts/setup.sh --tests)");
    python_dir_ = interpreter_dir(*xpra);
    xvfb_ = Xvfb::start(o.size, xvfb_log_);
    try {
      make_home();
      // The client screen is the server's size: xpra's client warns when its screen is larger
      // than the server's ("you may see strange behavior").
      client_xvfb_ = Xvfb::start(o.size, client_xvfb_log_, "client Xvfb");
      // Key auto-repeat is on here (it is off on the app's display), and fast: xpra's server
      // releases a held key by itself once max(250 ms, the client's repeat delay) passes without
      // another press of it from the client, and takes the client's repeated presses of a held
      // key as "still held", faking none. With repeat off a key held 1.4 s reached the app
      // released at 0.65 s; with X's 660 ms delay the first repeat raced that timer. A 100 ms
      // delay and 30 ms interval leave the 250 ms timer 150 ms of slack for the client's
      // repeats to arrive. (--keyboard-sync=no instead types each press as press + release.)
      auto x = client::XConnection::open(client_xvfb_->display());
      XAutoRepeatOn(x->display());
      XkbSetAutoRepeatRate(x->display(), XkbUseCoreKbd, kClientRepeatDelayMs, kClientRepeatIntervalMs);
      XSync(x->display(), False);
      x.reset();
      std::string failure;
      for (int attempt = 0; attempt < 3 && !server_ready_; ++attempt) failure = start_server();
      if (!server_ready_) throw RunError(failure);
      relay_ = start_viewer_relay(o, port_, 4 << 20);  // an H.264 keyframe and xpra's lossless refreshes are large
      start_xpra_client(relay_ ? relay_->port() : port_);
    } catch (...) {
      stop({});
      throw;
    }
    version_ = program_version({"xpra", "--version"}, "xpra v");
  }

  std::string name() const override { return "xpra"; }
  std::string display() const override { return xvfb_->display(); }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    // Each before what needs it: the app's X server, xpra's server, the client's X server, xpra's client.
    std::vector<ServerEnd> ends;
    if (auto e = server_end(xvfb_->process(), "Xvfb", xvfb_log_)) ends.push_back(*e);
    if (server_.pid() > 0)
      if (auto e = server_end(server_, "xpra server", server_log_)) ends.push_back(*e);
    if (client_xvfb_)
      if (auto e = server_end(client_xvfb_->process(), "client Xvfb", client_xvfb_log_)) ends.push_back(*e);
    if (client_.pid() > 0)
      if (auto e = server_end(client_, "xpra client", client_log_)) ends.push_back(*e);
    return first_server_end(std::move(ends));
  }
  std::vector<std::string> suspended() const override {
    std::vector<std::string> out;
    if (stopped_) return out;
    if (xvfb_->process().suspended()) out.push_back("Xvfb");
    if (server_.suspended()) out.push_back("xpra server");
    if (client_xvfb_->process().suspended()) out.push_back("client Xvfb");
    if (client_.suspended()) out.push_back("xpra client");
    return out;
  }
  std::vector<nlohmann::json> running_processes() const override {
    return {{{"name", "xpra server"}, {"pid", server_.pid()}},
            {{"name", "Xvfb"}, {"pid", xvfb_->process().pid()}},
            {{"name", "xpra client"}, {"pid", client_.pid()}},
            {{"name", "client Xvfb"}, {"pid", client_xvfb_->process().pid()}}};
  }
  nlohmann::json describe() const override {
    const nlohmann::json version = version_.empty() ? nlohmann::json(nullptr) : nlohmann::json(version_);
    nlohmann::json j{{"display_server", "Xvfb"},
                     {"proxy", "xpra"},
                     {"proxy_version", version},
                     {"proxy_argv", server_argv_},
                     {"proxy_pid", server_.pid()},
                     {"proxy_hook", false},
                     {"tcp_port", port_},
                     {"encoding", "h264"},
                     {"config_files", "none (XPRA_SYSTEM_CONF_DIRS and XPRA_USER_CONF_DIRS name an empty directory)"}};
    j["viewer"] = {{"program", "xpra attach"},
                   {"version", version},
                   {"argv", client_argv_},
                   {"pid", client_.pid()},
                   {"log", client_log_},
                   {"connects_to", relay_ ? "the --net relay in front of xpra's TCP port" : "xpra's TCP port"},
                   {"encoding", {{"encoding", "h264"}, {"video_encoder", "x264"}, {"mmap", false}, {"video_scaling", false}}}};
    j["client_display"] = {{"server", "Xvfb"},
                           {"display", client_xvfb_->display()},
                           {"pid", client_xvfb_->process().pid()},
                           {"size", fmt::format("{}x{}", size_.width, size_.height)},
                           {"keyboard_auto_repeat", true},
                           {"keyboard_repeat_ms", {{"delay", kClientRepeatDelayMs}, {"interval", kClientRepeatIntervalMs}}}};
    if (relay_) j["net_relay_port"] = relay_->port();
    return j;
  }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (stopped_) return entries_;
    dead();  // reap whichever ended by itself before the stop, so each end is told as it was
    if (relay_) relay_->stop();
    if (client_.pid() > 0) client_.stop(3.0);
    if (client_xvfb_) client_xvfb_->stop();
    if (server_.pid() > 0) server_.stop(3.0);
    xvfb_->stop();
    const Process* xvfb = &xvfb_->process();
    const Process* client_xvfb = client_xvfb_ ? &client_xvfb_->process() : nullptr;
    entries_ = {};
    if (server_.pid() > 0) entries_.push_back(entry(server_, context, {{xvfb, "Xvfb"}}));
    entries_.push_back(process_status_json(*xvfb, context));
    if (client_.pid() > 0)
      entries_.push_back(entry(client_, context, {{&server_, "xpra server"}, {client_xvfb, "client Xvfb"}}));
    if (client_xvfb) entries_.push_back(process_status_json(*client_xvfb, context));
    stopped_ = true;
    return entries_;
  }

  bool has_own_client() const override { return true; }
  std::optional<resources::NetworkSource> own_client_network() const override {
    return viewer_relay_network(relay_.get(), "xpra attach");
  }

  std::unique_ptr<AdapterClient> start_client(const AdapterClientOptions& o,
                                              std::unique_ptr<drivers::Driver> driver) override {
    const double timeout_s = std::max(o.window_timeout_s, kMinWindowTimeoutS);
    const FoundWindow app = wait_for("the app's window under xpra on " + display(), display(), timeout_s, o.app_running,
                                     [](client::XConnection& x) { return app_window_under_xpra(x); });
    const FoundWindow shown =
        wait_for("xpra's window of the app on " + client_xvfb_->display(), client_xvfb_->display(), timeout_s, o.app_running,
                 [&](client::XConnection& x) { return xpra_client_window(x, app); });
    client::LocalClientOptions co;
    co.display = client_xvfb_->display();
    co.out_dir = o.out_dir;
    co.expect_marker = o.expect_marker;
    co.app_running = o.app_running;
    co.window = shown.id;  // xpra's window shows the app's window alone, 1:1
    auto c = client::LocalClient::start(co, std::move(driver));
    nlohmann::json d{{"client", "local client (XTest into xpra's window of the app, XDamage + MIT-SHM reads of it)"},
                     {"display", client_xvfb_->display()},
                     {"app_window", window_json(app)},
                     {"xpra_window", window_json(shown)}};
    return wrap_viewer_client(std::move(c), std::move(d), [this] { return net_json(); });
  }

 private:
  void make_home() {
    for (const char* sub : {"conf", "sockets", "run"}) fs::create_directories(fs::path(home_) / sub);
    ::chmod((home_ + "/run").c_str(), 0700);  // XDG_RUNTIME_DIR must be the user's alone
  }

  // Everything xpra would read or write of the user's is private to the session: no config file
  // (only the command line decides), its own HOME, runtime and socket directories.
  std::map<std::string, std::string> env(const std::string& display) const {
    const char* path = std::getenv("PATH");
    return {{"HOME", home_},
            {"XDG_RUNTIME_DIR", home_ + "/run"},
            {"XDG_CONFIG_HOME", home_ + "/.config"},
            {"XDG_CACHE_HOME", home_ + "/.cache"},
            {"XPRA_SYSTEM_CONF_DIRS", home_ + "/conf"},
            {"XPRA_USER_CONF_DIRS", home_ + "/conf"},
            {"DISPLAY", display},
            {"PATH", (python_dir_.empty() ? "" : python_dir_ + ":") + (path ? path : "/usr/bin:/bin")},
            // Neither interposer belongs in xpra, should the user's environment name one.
            {"LD_PRELOAD", ""},
            {"PICTOR_MARKER", ""},
            {"PICTOR_OUT", ""}};
  }

  // Options shared by server and client that switch off what xpra would otherwise start or try:
  // D-Bus, audio, mDNS, notifications, webcam, printing, file transfer, clipboard, tray, bell,
  // shared memory (mmap: same machine, it would bypass the encoder) and remote logging.
  static std::vector<std::string> quiet_options() {
    return {"--mdns=no", "--dbus-proxy=no", "--notifications=no", "--speaker=off", "--microphone=off",
            "--pulseaudio=no", "--webcam=no", "--printing=no", "--file-transfer=no", "--open-files=no",
            "--open-url=no", "--clipboard=no", "--bell=no", "--system-tray=no", "--av-sync=no", "--mmap=no",
            "--xsettings=no", "--sharing=no", "--input-method=none", "--remote-logging=no",
            "--encoding=h264", "--video-scaling=off"};
  }

  std::string start_server() {
    port_ = pick_free_port();
    server_argv_ = {"xpra", "start", display(), "--use-display=yes", "--daemon=no", "--bind=none",
                    fmt::format("--bind-tcp=127.0.0.1:{}", port_), "--tcp-auth=none", "--ssl=off", "--ssh-upgrade=no",
                    "--rfb-upgrade=0", "--html=off", "--socket-dirs=" + home_ + "/sockets", "--dbus-launch=",
                    "--dbus-control=no", "--systemd-run=no", "--start-new-commands=no", "--exit-with-children=no",
                    "--forward-xdg-open=no", "--resize-display=no", "--video-encoders=x264"};
    for (auto& q : quiet_options()) server_argv_.push_back(q);
    SpawnOptions s;
    s.argv = server_argv_;
    s.name = "xpra server";
    s.stdout_path = server_log_;
    s.stderr_path = server_log_;
    s.env = env(display());
    std::error_code ec;
    fs::remove(server_log_, ec);
    server_ = Process::spawn(s);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kXpraStartTimeoutS);
    while (server_.running() && std::chrono::steady_clock::now() < deadline) {
      if (log_has(server_log_, "xpra is ready.")) {
        server_ready_ = true;
        return {};
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const auto st = server_.stop(1.0);
    const std::string last = last_log_line(server_log_);
    return "xpra server failed to start (" + st.describe() + (last.empty() ? "" : ": " + last) + "), see " + server_log_;
  }

  void start_xpra_client(int port) {
    client_argv_ = {"xpra", "attach", fmt::format("tcp://127.0.0.1:{}/", port), "--socket-dirs=" + home_ + "/sockets",
                    "--opengl=no", "--tray=no", "--desktop-scaling=off", "--title=@title@", "--border=no",
                    "--modal-windows=no"};
    for (auto& q : quiet_options()) client_argv_.push_back(q);
    SpawnOptions s;
    s.argv = client_argv_;
    s.name = "xpra client";
    s.stdout_path = client_log_;
    s.stderr_path = client_log_;
    s.env = env(client_xvfb_->display());
    client_ = Process::spawn(s);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kXpraStartTimeoutS);
    while (client_.running() && std::chrono::steady_clock::now() < deadline) {
      if (log_has(client_log_, "Attached to ")) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const auto st = client_.stop(1.0);
    const std::string last = last_log_line(client_log_);
    throw RunError("xpra client failed to attach (" + st.describe() + (last.empty() ? "" : ": " + last) + "), see " +
                   client_log_);
  }

  // Polls `find` on `display` every 20 ms for timeout_s; throws RunError naming `what`.
  static FoundWindow wait_for(const std::string& what, const std::string& display, double timeout_s,
                              const std::function<bool()>& app_running,
                              const std::function<std::optional<FoundWindow>(client::XConnection&)>& find) {
    auto x = client::XConnection::open(display);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      if (auto w = find(*x)) return *w;
      if (x->lost()) throw RunError("client: lost the connection to X display '" + display + "'");
      if (app_running && !app_running()) throw RunError("client: the app exited before " + what + " appeared");
      if (std::chrono::steady_clock::now() >= deadline)
        throw RunError(fmt::format("client: no {} within {:g} s", what, timeout_s));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  // A process's run.json entry; one that ended by itself after one it needs (`causes`, in order)
  // had died is explained by that death.
  static nlohmann::json entry(const Process& p, const StopContext& context,
                              const std::vector<std::pair<const Process*, std::string>>& causes) {
    const bool by_pictor = p.ended_by() == EndedBy::pictor;
    for (const auto& [cause, name] : causes) {
      if (!cause || cause->pid() <= 0 || cause->ended_by() == EndedBy::pictor || cause->ended_ns() == 0) continue;
      if (!by_pictor && cause->ended_ns() > p.ended_ns()) continue;
      StopContext after = context;
      after.reason = "after " + name + " died";
      return process_status_json(p, after, name + " died");
    }
    return process_status_json(p, context);
  }

  nlohmann::json net_json() const { return viewer_relay_json(relay_.get()); }

  Size size_;
  std::string xvfb_log_, server_log_, client_xvfb_log_, client_log_, home_, python_dir_;
  std::unique_ptr<Xvfb> xvfb_, client_xvfb_;
  std::unique_ptr<net::TcpRelay> relay_;
  Process server_, client_;
  std::vector<std::string> server_argv_, client_argv_;
  std::string version_;
  int port_ = 0;
  bool server_ready_ = false;
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

}  // namespace

std::unique_ptr<Adapter> start_xpra_adapter(const AdapterOptions& options) {
  return std::make_unique<XpraAdapter>(options);
}

}  // namespace pictor::runner
