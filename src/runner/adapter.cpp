#include "runner/adapter.h"

#include <netinet/in.h>
#include <signal.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <map>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "core/preload.h"
#include "runner/container.h"
#include "runner/display_adapter.h"
#include "runner/process.h"
#include "runner/stream_adapter.h"
#include "runner/viewer_adapter.h"
#include "runner/xpra_adapter.h"
#include "stream/stream_options.h"
#include "runner/xvfb.h"

namespace pictor::runner {
namespace fs = std::filesystem;

std::string how_it_ended(const Process& p) {
  const auto& s = p.status();
  if (!s) return "still running";
  if (s->exited) return "exited by itself (" + s->describe() + ")";
  if (s->signal == SIGPIPE) return "ended by SIGPIPE (it wrote to a closed pipe or socket)";
  if (is_crash_signal(s->signal)) return "crashed (" + signal_name(s->signal) + ")";
  return "killed by " + signal_name(s->signal) + " from outside pictor";
}

nlohmann::json process_status_json(const Process& p, const StopContext& context, const std::string& after) {
  nlohmann::json j{{"name", p.name()}, {"pid", p.pid()}};
  const EndedBy by = p.ended_by();
  std::string ended;
  switch (by) {
    case EndedBy::pictor:
      ended = p.stop_signal() == SIGKILL
                  ? fmt::format("killed by pictor {} (SIGKILL: still running {:g} s after SIGTERM{})", context.reason,
                                p.stop_grace_s(), p.was_suspended() ? ", it was suspended" : "")
                  : fmt::format("stopped by pictor {} (SIGTERM)", context.reason);
      break;
    case EndedBy::itself:
      ended = how_it_ended(p) + (p.stop_signal() ? " while pictor stopped it" : "") +
              (after.empty() ? "" : " after " + after);
      break;
    case EndedBy::outside:
      ended = how_it_ended(p) + " (another process or the kernel)" + (after.empty() ? "" : " after " + after);
      break;
    case EndedBy::running:
      ended = "still running";
      break;
  }
  j["ended_by"] = by == EndedBy::running ? nlohmann::json(nullptr) : nlohmann::json(ended_by_name(by));
  j["ended"] = ended;
  if (const auto& s = p.status()) {
    j["status"] = s->describe();
    j["exit_code"] = s->exited ? nlohmann::json(s->code) : nlohmann::json(nullptr);
    j["signal"] = s->exited ? nlohmann::json(nullptr) : nlohmann::json(s->signal);
  }
  j["ended_s"] = p.ended_ns() > 0 && context.session_start_ns > 0
                     ? nlohmann::json(static_cast<double>(p.ended_ns() - context.session_start_ns) * 1e-9)
                     : nlohmann::json(nullptr);
  if (p.was_suspended()) j["suspended_at_end"] = true;
  return j;
}

int pick_free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw RunError("cannot create a socket to find a free port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  ::close(fd);
  if (!ok) throw RunError("cannot find a free TCP port on 127.0.0.1");
  return ntohs(a.sin_port);
}

std::string program_version(std::vector<std::string> argv, const std::string& must_contain) {
  const auto exe = find_executable(argv.front());
  if (!exe) return {};
  argv.front() = *exe;
  const CommandOutput r = run_and_capture(argv);
  for (std::size_t start = 0; start < r.output.size();) {
    auto end = r.output.find('\n', start);
    if (end == std::string::npos) end = r.output.size();
    std::string line = r.output.substr(start, end - start);
    while (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find(must_contain) != std::string::npos) return line;
    start = end + 1;
  }
  return {};
}

std::optional<ServerEnd> server_end(Process& p, const std::string& name, const std::string& log) {
  if (p.running()) return std::nullopt;
  return ServerEnd{name, log, how_it_ended(p), p.ended_ns(), {}};
}

std::optional<ServerEnd> first_server_end(std::vector<ServerEnd> ends) {
  if (ends.empty()) return std::nullopt;
  std::stable_sort(ends.begin(), ends.end(), [](const ServerEnd& a, const ServerEnd& b) { return a.seen_ns < b.seen_ns; });
  ServerEnd first = ends.front();
  for (std::size_t i = 1; i < ends.size(); ++i) first.followed.push_back(ends[i].name);
  return first;
}

std::string last_log_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

namespace {

std::map<std::string, std::string> proxy_env(const AdapterOptions& o, const std::string& proxy, int port) {
  std::map<std::string, std::string> env;
  if (o.proxy_hook.empty()) return env;
  const char* preload = std::getenv("LD_PRELOAD");
  env["LD_PRELOAD"] = preload_value(o.proxy_hook + (preload && *preload ? std::string(":") + preload : ""));
  env["PICTOR_OUT"] = fs::absolute(o.out_dir).string();
  env["PICTOR_PROXY"] = proxy;
  env["PICTOR_PROXY_PORT"] = std::to_string(port);
  // The app's interposer must not load into the proxy, should the user's environment name it.
  env["PICTOR_MARKER"] = "";
  return env;
}

class LocalAdapter final : public Adapter {
 public:
  explicit LocalAdapter(const AdapterOptions& o) : log_((fs::path(o.out_dir) / "xvfb.log").string()) {
    xvfb_ = Xvfb::start(o.size, log_);
  }
  std::string name() const override { return "local"; }
  std::string display() const override { return xvfb_->display(); }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    return server_end(xvfb_->process(), "Xvfb", log_);
  }
  std::vector<std::string> suspended() const override {
    if (!stopped_ && xvfb_->process().suspended()) return {"Xvfb"};
    return {};
  }
  std::vector<nlohmann::json> running_processes() const override {
    return {{{"name", "Xvfb"}, {"pid", xvfb_->process().pid()}}};
  }
  nlohmann::json describe() const override { return {{"display_server", "Xvfb"}}; }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (!stopped_) {
      xvfb_->stop();
      entries_ = {process_status_json(xvfb_->process(), context)};
    }
    stopped_ = true;
    return entries_;
  }

 private:
  std::string log_;
  std::unique_ptr<Xvfb> xvfb_;
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

// TigerVNC's Xvnc: one process is both the X server the app draws into and the VNC proxy.
class XvncAdapter final : public Adapter {
 public:
  explicit XvncAdapter(const AdapterOptions& o) : log_((fs::path(o.out_dir) / "xvnc.log").string()) {
    if (!find_executable("Xvnc"))
      throw RunError("Xvnc not found (install the 'tigervnc-standalone-server' package: make setup)");
    frame_rate_ = o.frame_rate > 0 ? o.frame_rate : kLatencyFrameRate;
    // A port that was free a moment ago can be taken before Xvnc binds it: try a few.
    std::string failure;
    for (int attempt = 0; attempt < 3 && display_.empty(); ++attempt) {
      port_ = o.container ? o.container->port() : pick_free_port();
      failure = try_start(o);
    }
    if (display_.empty()) throw RunError(failure);
    version_ = program_version({"Xvnc", "-version"}, "TigerVNC");
  }
  std::string name() const override { return "xvnc"; }
  std::string display() const override { return display_; }
  std::optional<RfbEndpoint> rfb() const override { return RfbEndpoint{"127.0.0.1", port_}; }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    return server_end(process_, "Xvnc", log_);
  }
  std::vector<std::string> suspended() const override {
    if (!stopped_ && process_.suspended()) return {"Xvnc"};
    return {};
  }
  std::vector<nlohmann::json> running_processes() const override {
    return {{{"name", "Xvnc"}, {"pid", process_.pid()}}};
  }
  nlohmann::json describe() const override {
    return {{"display_server", "Xvnc"},
            {"proxy", "Xvnc"},
            {"proxy_version", version_.empty() ? nlohmann::json(nullptr) : nlohmann::json(version_)},
            {"proxy_argv", argv_},
            {"proxy_pid", process_.pid()},
            {"rfb_port", port_},
            {"frame_rate_cap", frame_rate_},
            {"proxy_hook", hooked_}};
  }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (!stopped_) {
      process_.stop(2.0);
      entries_ = {process_status_json(process_, context)};
    }
    stopped_ = true;
    return entries_;
  }

 private:
  std::string try_start(const AdapterOptions& o) {
    int fds[2];
    if (::pipe(fds) != 0) throw RunError("pipe failed while starting Xvnc");
    SpawnOptions s;
    // -localhost and -interface keep the RFB port on loopback (there is no authentication);
    // -nolisten tcp keeps X11 on its Unix socket. CompareFB stays at its default (2, auto).
    // In a container the port is its published one: the container's own address, reached only
    // through the host's 127.0.0.1 (runner/container.h); -displayfd is the fd podman passes as 3.
    argv_ = {"Xvnc", "-displayfd", o.container ? "3" : std::to_string(fds[1]),
             "-geometry", fmt::format("{}x{}", o.size.width, o.size.height), "-depth", "24",
             "-rfbport", std::to_string(port_), "-localhost", "-interface", "127.0.0.1",
             "-SecurityTypes", "None", "-AlwaysShared", "-FrameRate", std::to_string(frame_rate_),
             "-nolisten", "tcp", "-noreset", "+extension", "GLX", "-desktop", "pictor"};
    if (o.container) {
      argv_.erase(std::find(argv_.begin(), argv_.end(), "-localhost"));
      *(std::find(argv_.begin(), argv_.end(), "-interface") + 1) = Container::listen_address();
      argv_.push_back(fmt::format(":{}", free_display_number()));
    }
    s.argv = argv_;
    s.keep_fd = fds[1];
    s.stdout_path = log_;
    s.stderr_path = log_;
    s.env = proxy_env(o, "xvnc", port_);
    hooked_ = !o.proxy_hook.empty();
    process_ = o.container ? o.container->spawn(s) : Process::spawn(s);
    ::close(fds[1]);
    std::string number;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (number.empty() || number.back() != '\n') {
      pollfd p{fds[0], POLLIN, 0};
      if (::poll(&p, 1, 100) > 0) {
        char buf[16];
        const auto n = ::read(fds[0], buf, sizeof buf);
        if (n <= 0) break;
        number.append(buf, static_cast<std::size_t>(n));
      }
      if (!process_.running() || std::chrono::steady_clock::now() > deadline) break;
    }
    ::close(fds[0]);
    if (number.empty() || number.back() != '\n') {
      const auto st = process_.stop(0.5);
      const std::string last = last_log_line(log_);
      return "Xvnc failed to start (" + st.describe() + (last.empty() ? "" : ": " + last) + "), see " + log_;
    }
    number.pop_back();
    display_ = ":" + number;
    return {};
  }

  std::string log_;
  Process process_;
  std::string display_;
  std::string version_;
  std::vector<std::string> argv_;
  int port_ = 0;
  int frame_rate_ = 0;
  bool hooked_ = false;
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

// Xvfb plus x11vnc, which polls the Xvfb framebuffer (with DAMAGE hints) and serves it.
class X11vncAdapter final : public Adapter {
 public:
  explicit X11vncAdapter(const AdapterOptions& o)
      : xvfb_log_((fs::path(o.out_dir) / "xvfb.log").string()),
        log_((fs::path(o.out_dir) / "x11vnc.log").string()),
        out_((fs::path(o.out_dir) / "x11vnc.out").string()) {
    if (!find_executable("x11vnc")) throw RunError("x11vnc not found (install the 'x11vnc' package: make setup)");
    xvfb_ = Xvfb::start(o.size, xvfb_log_);
    std::string failure;
    for (int attempt = 0; attempt < 3 && !started_; ++attempt) {
      port_ = pick_free_port();
      failure = try_start(o);
    }
    if (!started_) {
      xvfb_->stop();
      throw RunError(failure);
    }
    version_ = program_version({"x11vnc", "-version"}, "x11vnc");
  }
  std::string name() const override { return "x11vnc"; }
  std::string display() const override { return xvfb_->display(); }
  std::optional<RfbEndpoint> rfb() const override { return RfbEndpoint{"127.0.0.1", port_}; }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    // The display server first: x11vnc dies when its Xvfb does, never the other way round.
    std::vector<ServerEnd> ends;
    if (auto e = server_end(xvfb_->process(), "Xvfb", xvfb_log_)) ends.push_back(*e);
    if (auto e = server_end(process_, "x11vnc", log_)) ends.push_back(*e);
    return first_server_end(std::move(ends));
  }
  std::vector<std::string> suspended() const override {
    std::vector<std::string> out;
    if (stopped_) return out;
    if (xvfb_->process().suspended()) out.push_back("Xvfb");
    if (process_.suspended()) out.push_back("x11vnc");
    return out;
  }
  std::vector<nlohmann::json> running_processes() const override {
    return {{{"name", "x11vnc"}, {"pid", process_.pid()}}, {{"name", "Xvfb"}, {"pid", xvfb_->process().pid()}}};
  }
  nlohmann::json describe() const override {
    return {{"display_server", "Xvfb"},
            {"proxy", "x11vnc"},
            {"proxy_version", version_.empty() ? nlohmann::json(nullptr) : nlohmann::json(version_)},
            {"proxy_argv", argv_},
            {"proxy_pid", process_.pid()},
            {"rfb_port", port_},
            {"proxy_hook", hooked_}};
  }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (!stopped_) {
      dead();  // reap whichever ended by itself before the stop, so each end is told as it was
      process_.stop(2.0);
      xvfb_->stop();
      const Process& xvfb = xvfb_->process();
      // x11vnc ending after its X server: the server's death explains it.
      const bool xvfb_first = xvfb.ended_by() != EndedBy::pictor && xvfb.ended_ns() > 0 &&
                              (process_.ended_by() == EndedBy::pictor || xvfb.ended_ns() <= process_.ended_ns());
      StopContext proxy_context = context;
      if (xvfb_first) proxy_context.reason = "after Xvfb died";
      entries_ = {process_status_json(process_, proxy_context, xvfb_first ? "Xvfb died" : ""),
                  process_status_json(xvfb, context)};
    }
    stopped_ = true;
    return entries_;
  }

 private:
  std::string try_start(const AdapterOptions& o) {
    SpawnOptions s;
    // -defer/-wait: x11vnc batches changes for 20 ms and sleeps 20 ms between polls by default;
    // latency runs shorten both (docs/remote.md). -nopw -localhost: no password, loopback only.
    argv_ = {"x11vnc", "-display", xvfb_->display(), "-rfbport", std::to_string(port_),
             "-localhost", "-forever", "-shared", "-nopw", "-defer", "5", "-wait", "5",
             "-nosel", "-nosetclipboard", "-noxrecord", "-o", log_};
    s.argv = argv_;
    s.stdout_path = out_;
    s.stderr_path = out_;
    s.env = proxy_env(o, "x11vnc", port_);
    hooked_ = !o.proxy_hook.empty();
    std::error_code ec;
    fs::remove(out_, ec);
    process_ = Process::spawn(s);
    // x11vnc prints "PORT=<n>" once it listens.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline && process_.running()) {
      std::ifstream in(out_);
      std::string line;
      while (std::getline(in, line))
        if (line.rfind("PORT=", 0) == 0) {
          started_ = true;
          return {};
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const auto st = process_.stop(0.5);
    const std::string last = last_log_line(log_);
    return "x11vnc failed to start (" + st.describe() + (last.empty() ? "" : ": " + last) + "), see " + log_;
  }

  std::string xvfb_log_, log_, out_;
  std::unique_ptr<Xvfb> xvfb_;
  Process process_;
  std::string version_;
  std::vector<std::string> argv_;
  int port_ = 0;
  bool started_ = false;
  bool hooked_ = false;
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

}  // namespace

const std::vector<AdapterInfo>& adapter_infos() {
  auto info = [](const char* name, const char* summary) {
    return AdapterInfo{name, summary, options::OptionSet(std::string("adapter '") + name + "'", {})};
  };
  static const std::vector<AdapterInfo> infos{
      info("local", "the app on a private Xvfb; the client reads the display itself"),
      info("xvnc", "the app on TigerVNC's Xvnc; Pictor's RFB client connects over loopback"),
      info("x11vnc", "the app on a private Xvfb served by x11vnc; Pictor's RFB client connects over loopback"),
      info("stream", "the app on a private Xvfb, captured and sent as H.264 over RTP by GStreamer (--stream); Pictor's client decodes it"),
      info("vncviewer", "the app on TigerVNC's Xvnc, shown by TigerVNC's stock vncviewer on a client-side Xvfb; the local client plays the viewer's window"),
      info("xpra", "the app on a private Xvfb served by the stock xpra server (H.264), shown by `xpra attach` on a client-side Xvfb; the local client plays xpra's window"),
      AdapterInfo{"display",
                  "the app on an X server Pictor did not start (a desktop, an Xorg on a GPU, gamescope), left running as found; the client reads the display itself",
                  options::OptionSet("adapter 'display'", {}, ":,", std::string("DISPLAY"),
                                     "the X display, as DISPLAY names it (:0, :5.0, host:1); display::0 runs on :0")}};
  return infos;
}

std::vector<std::string> adapter_names() {
  std::vector<std::string> names;
  for (const auto& a : adapter_infos()) names.push_back(a.name);
  return names;
}

std::string require_adapter_name(std::string_view spec) { return parse_adapter_spec(spec).name; }

AdapterChoice parse_adapter_spec(std::string_view spec) {
  const auto [name, args] = options::split_name(spec);
  for (const auto& a : adapter_infos()) {
    if (a.name != name) continue;
    const options::Values values = options::parse(a.options, args);
    return {name, values.leading()};
  }
  std::string known;
  for (const auto& n : adapter_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown adapter '" + name + "' (known: " + known + ")");
}

bool is_remote_adapter(std::string_view name) {
  return name == "xvnc" || name == "x11vnc" || name == "stream" || name == "vncviewer" || name == "xpra";
}

bool takes_proxy_hook(std::string_view name) { return name == "xvnc" || name == "x11vnc" || name == "vncviewer"; }

void check_adapter_options(std::string_view name, const std::string& stream_options) {
  if (name == "stream") {
    stream::parse_stream_options(stream_options);
  } else if (!stream_options.empty()) {
    throw UsageError("--stream applies to --adapter stream only");
  }
}

std::unique_ptr<Adapter> start_adapter(std::string_view name, const AdapterOptions& options) {
  if (name == "local") return std::make_unique<LocalAdapter>(options);
  if (name == "xvnc") return std::make_unique<XvncAdapter>(options);
  if (name == "x11vnc") return std::make_unique<X11vncAdapter>(options);
  if (name == "stream") return start_stream_adapter(options);
  if (name == "vncviewer") return start_vncviewer_adapter(options);
  if (name == "xpra") return start_xpra_adapter(options);
  if (name == "display") return start_display_adapter(options);
  require_adapter_name(name);  // throws: a name listed but not started above is a bug caught here
  throw UsageError("adapter '" + std::string(name) + "' cannot be started");
}

}  // namespace pictor::runner
