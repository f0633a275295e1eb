#include "runner/adapter.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <map>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "runner/process.h"
#include "runner/xvfb.h"

namespace pictor::runner {
namespace fs = std::filesystem;

nlohmann::json process_status_json(const Process& p, const std::string& how) {
  nlohmann::json j{{"name", p.name()}, {"pid", p.pid()}, {"ended", how}};
  if (const auto& s = p.status()) {
    j["status"] = s->describe();
    j["exit_code"] = s->exited ? nlohmann::json(s->code) : nlohmann::json(nullptr);
    j["signal"] = s->exited ? nlohmann::json(nullptr) : nlohmann::json(s->signal);
  }
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

namespace {

// The first line a program prints for `--version`-style flags, for run.json.
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

std::map<std::string, std::string> proxy_env(const AdapterOptions& o, const std::string& proxy, int port) {
  std::map<std::string, std::string> env;
  if (o.proxy_hook.empty()) return env;
  const char* preload = std::getenv("LD_PRELOAD");
  env["LD_PRELOAD"] = o.proxy_hook + (preload && *preload ? std::string(":") + preload : "");
  env["PICTOR_OUT"] = fs::absolute(o.out_dir).string();
  env["PICTOR_PROXY"] = proxy;
  env["PICTOR_PROXY_PORT"] = std::to_string(port);
  // The app's interposer must not load into the proxy, should the user's environment name it.
  env["PICTOR_MARKER"] = "";
  return env;
}

std::string tail_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

class LocalAdapter final : public Adapter {
 public:
  explicit LocalAdapter(const AdapterOptions& o) : log_((fs::path(o.out_dir) / "xvfb.log").string()) {
    xvfb_ = Xvfb::start(o.size, log_);
  }
  std::string name() const override { return "local"; }
  std::string display() const override { return xvfb_->display(); }
  std::optional<std::string> dead() override {
    if (!stopped_ && !xvfb_->process().running()) return "Xvfb (see " + log_ + ")";
    return std::nullopt;
  }
  nlohmann::json describe() const override { return {{"display_server", "Xvfb"}}; }
  std::vector<nlohmann::json> stop() override {
    if (!stopped_) xvfb_->stop();
    stopped_ = true;
    return {process_status_json(xvfb_->process(), "stopped by pictor")};
  }

 private:
  std::string log_;
  std::unique_ptr<Xvfb> xvfb_;
  bool stopped_ = false;
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
      port_ = pick_free_port();
      failure = try_start(o);
    }
    if (display_.empty()) throw RunError(failure);
    version_ = program_version({"Xvnc", "-version"}, "TigerVNC");
  }
  std::string name() const override { return "xvnc"; }
  std::string display() const override { return display_; }
  std::optional<RfbEndpoint> rfb() const override { return RfbEndpoint{"127.0.0.1", port_}; }
  std::optional<std::string> dead() override {
    if (!stopped_ && !process_.running()) return "Xvnc (see " + log_ + ")";
    return std::nullopt;
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
  std::vector<nlohmann::json> stop() override {
    if (!stopped_) process_.stop(2.0);
    stopped_ = true;
    return {process_status_json(process_, "stopped by pictor")};
  }

 private:
  std::string try_start(const AdapterOptions& o) {
    int fds[2];
    if (::pipe(fds) != 0) throw RunError("pipe failed while starting Xvnc");
    SpawnOptions s;
    // -localhost and -interface keep the RFB port on loopback (there is no authentication);
    // -nolisten tcp keeps X11 on its Unix socket. CompareFB stays at its default (2, auto).
    argv_ = {"Xvnc", "-displayfd", std::to_string(fds[1]),
             "-geometry", fmt::format("{}x{}", o.size.width, o.size.height), "-depth", "24",
             "-rfbport", std::to_string(port_), "-localhost", "-interface", "127.0.0.1",
             "-SecurityTypes", "None", "-AlwaysShared", "-FrameRate", std::to_string(frame_rate_),
             "-nolisten", "tcp", "-noreset", "+extension", "GLX", "-desktop", "pictor"};
    s.argv = argv_;
    s.keep_fd = fds[1];
    s.stdout_path = log_;
    s.stderr_path = log_;
    s.env = proxy_env(o, "xvnc", port_);
    hooked_ = !o.proxy_hook.empty();
    process_ = Process::spawn(s);
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
      const std::string last = tail_of(log_);
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
  std::optional<std::string> dead() override {
    if (stopped_) return std::nullopt;
    if (!process_.running()) return "x11vnc (see " + log_ + ")";
    if (!xvfb_->process().running()) return "Xvfb (see " + xvfb_log_ + ")";
    return std::nullopt;
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
  std::vector<nlohmann::json> stop() override {
    if (!stopped_) {
      process_.stop(2.0);
      xvfb_->stop();
    }
    stopped_ = true;
    return {process_status_json(process_, "stopped by pictor"),
            process_status_json(xvfb_->process(), "stopped by pictor")};
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
    const std::string last = tail_of(log_);
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
};

}  // namespace

std::vector<std::string> adapter_names() { return {"local", "xvnc", "x11vnc"}; }

bool is_remote_adapter(std::string_view name) { return name == "xvnc" || name == "x11vnc"; }

std::unique_ptr<Adapter> start_adapter(std::string_view name, const AdapterOptions& options) {
  if (name == "local") return std::make_unique<LocalAdapter>(options);
  if (name == "xvnc") return std::make_unique<XvncAdapter>(options);
  if (name == "x11vnc") return std::make_unique<X11vncAdapter>(options);
  throw UsageError("unknown adapter '" + std::string(name) + "' (known: local, xvnc, x11vnc)");
}

}  // namespace pictor::runner
