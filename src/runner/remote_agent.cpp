#include "runner/remote_agent.h"

#include <X11/Xlib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "net/relay.h"
#include "runner/machine.h"
#include "runner/remote_clock.h"
#include "runner/remote_protocol.h"
#include "runner/session_plan.h"
#include "runner/session_resources.h"
#include "runner/stack.h"
#include "stream/stream_options.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

std::atomic<int> g_stop{0};
void on_stop_signal(int sig) { g_stop.store(sig); }

void say(const std::string& line) { std::fprintf(stderr, "pictor serve: %s\n", line.c_str()); }

std::string local_address(int fd) {
  sockaddr_in sa{};
  socklen_t len = sizeof sa;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return "127.0.0.1";
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &sa.sin_addr, text, sizeof text);
  return text;
}

nlohmann::json end_json(const Stack& s) {
  const StackEnd& e = s.end_state();
  nlohmann::json j{{"ended", e.ended},          {"stop_reason", e.stop_reason}, {"app_exited_first", e.app_exited_first},
                   {"end_ns", e.end_ns},        {"measured_s", e.measured_s}, {"suspended_servers", e.suspended_servers},
                   {"app_suspended", e.app_suspended}, {"dead_server", nullptr}};
  if (e.dead_server)
    j["dead_server"] = {{"name", e.dead_server->name}, {"log", e.dead_server->log}, {"how", e.dead_server->how},
                        {"seen_ns", e.dead_server->seen_ns}, {"followed", e.dead_server->followed}};
  return j;
}

// One session's server half, in the agent's child process for this connection.
class SessionHalf {
 public:
  SessionHalf(ControlChannel& channel, const AgentOptions& options, std::string where)
      : ch_(channel), options_(options), where_(std::move(where)) {}

  void run() {
    if (!greet()) return;
    std::optional<SessionPlan> plan = accept_plan();
    if (!plan) return;
    if (!next("start", 120)) return;
    serve(std::move(*plan));
  }

 private:
  // The next message that is no clock probe (probes are answered as they come), or nullopt after
  // timeout_s; a message of another type than `type` is refused.
  std::optional<nlohmann::json> next(const std::string& type, double timeout_s) {
    const std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(timeout_s * 1e9);
    for (;;) {
      const double left = static_cast<double>(deadline - monotonic_ns()) * 1e-9;
      if (left <= 0) {
        say(where_ + ": no '" + type + "' message in time; connection closed");
        return std::nullopt;
      }
      std::optional<nlohmann::json> m = receive_answering(left);
      if (!m) continue;
      if ((*m)["type"] == type) return m;
      refuse(fmt::format("expected a '{}' message, got '{}'", type, (*m)["type"].get<std::string>()), true);
      return std::nullopt;
    }
  }

  // A message, probes answered at once with their arrival time.
  std::optional<nlohmann::json> receive_answering(double timeout_s) {
    std::optional<nlohmann::json> m = ch_.receive(timeout_s);
    const std::int64_t t2 = monotonic_ns(), t2_real = realtime_ns();
    if (m && (*m)["type"] == "probe") {
      answer_probe(ch_, *m, t2, t2_real);
      return std::nullopt;
    }
    return m;
  }

  void refuse(const std::string& cause, bool usage) {
    say(where_ + ": refused: " + cause);
    try {
      ch_.send({{"type", "refused"}, {"cause", cause}, {"usage", usage}});
    } catch (const RunError&) {
    }
  }

  bool greet() {
    const std::optional<nlohmann::json> hello = ch_.receive(10.0);
    if (!hello || (*hello)["type"] != "hello") {
      refuse("the first message must be hello with the token", true);
      return false;
    }
    if (!hello->contains("token") || !(*hello)["token"].is_string() ||
        !tokens_equal((*hello)["token"].get<std::string>(), options_.token)) {
      refuse(fmt::format("wrong token: the agent at {}:{} refused the session (the token files differ)",
                         options_.listen.host, options_.listen.port),
             true);
      return false;
    }
    if (hello->value("protocol", 0) != kControlProtocol) {
      refuse(fmt::format("control protocol {} is not this agent's ({}): run the same Pictor on both hosts",
                         hello->value("protocol", 0), kControlProtocol),
             true);
      return false;
    }
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    ch_.send({{"type", "welcome"},
              {"version", kAgentVersion},
              {"protocol", kControlProtocol},
              {"host", host},
              {"clock", clock_discipline()},
              {"machine", machine_info()}});
    return true;
  }

  std::optional<SessionPlan> accept_plan() {
    const std::optional<nlohmann::json> m = next("plan", 120);
    if (!m) return std::nullopt;
    try {
      RunOptions o = options_from_plan(*m);
      check_two_host_adapter(o);
      SessionPlan plan = plan_session(o);  // the checks `pictor run` makes, with its words
      plan.server_half = true;
      ch_.send({{"type", "planned"}, {"label", plan.label}});
      return plan;
    } catch (const UsageError& e) {
      refuse(e.what(), true);
    } catch (const RunError& e) {
      refuse(e.what(), false);
    }
    return std::nullopt;
  }

  void serve(SessionPlan plan) {
    const fs::path dir = fs::path(options_.work_dir) / fmt::format("session-{}", ::getpid());  // this session's process
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    if (ec) {
      refuse(fmt::format("cannot create {}: {}", dir.string(), ec.message()), false);
      return;
    }
    plan.options.out_dir = dir.string();
    std::optional<Stack> stack;
    try {
      locate_libraries(plan);
      stack.emplace(std::move(plan), dir, "");
      Progress progress(true);
      // The render host's resource sampler, started with the app as on one host (docs/two-hosts.md
      // "Resources"); its files go back with the others.
      stack->start(progress, [&](Stack& s) {
        if (s.plan().options.resources)
          resources_ = SessionResources::start_agent(dir.string(), s.plan().options.sample_interval_s, s.adapter(), s.app_pid(),
                                                     s.plan().label);
      });
      // Where the proxy serves: the RFB port, or the stream server's video and input ports.
      std::vector<std::pair<std::string, int>> ports;
      if (const std::optional<RfbEndpoint> served = stack->adapter().rfb()) ports.emplace_back("port", served->port);
      const nlohmann::json proxy = stack->run().value("proxy", nlohmann::json::object());
      if (stack->plan().options.adapter == "stream")
        ports = {{"video_port", proxy.value("video_port", 0)}, {"input_port", proxy.value("input_port", 0)}};
      auto x = client::XConnection::open(stack->adapter().display());
      const client::WindowInfo w = client::wait_for_app_window(*x, 10.0, [&] { return stack->poll_app(monotonic_ns()); });
      nlohmann::json keycodes = nlohmann::json::array();
      if (stack->plan().driver)
        for (const drivers::InputCode& c : stack->plan().driver->vocabulary())
          if (!c.button) keycodes.push_back({c.code, XKeysymToKeycode(x->display(), c.code)});
      x.reset();
      // The proxy stays on loopback; the session's client reaches it through a relay on the
      // agent's own address, which lets no other host in.
      const std::string host = local_address(ch_.fd());
      nlohmann::json ready{{"type", "ready"},
                           {"host", host},
                           {"window", {{"x", w.x}, {"y", w.y}, {"width", w.width}, {"height", w.height}}},
                           {"keycodes", keycodes}};
      std::string shown;
      for (const auto& [name, port] : ports) {
        net::RelayOptions ro;
        ro.target_port = static_cast<std::uint16_t>(port);
        ro.listen_host = host;
        ro.allowed_peer = ch_.peer_address();
        ro.max_queued_bytes = 4 << 20;  // a stream's keyframe is hundreds of KiB
        exposures_.push_back(std::make_unique<net::TcpRelay>(net::NetSpec{}, ro));
        exposures_.back()->start();
        ready[name] = exposures_.back()->port();
        shown += fmt::format("{}{}:{}", shown.empty() ? "" : ", ", host, exposures_.back()->port());
      }
      if (resources_) {
        std::vector<const net::TcpRelay*> relays;
        for (const auto& r : exposures_) relays.push_back(r.get());
        resources_->watch_agent_relays(relays);
      }
      stack->run()["window"] = ready["window"];
      ready["run"] = stack->run();
      ch_.send(ready);
      say(fmt::format("{}: {} ready on {} ({} {})", where_, stack->plan().label, shown, stack->plan().options.adapter,
                      stack->adapter().display()));
    } catch (const std::exception& e) {
      resources_.reset();
      if (stack) stack->abort();
      for (auto& r : exposures_) r->stop();
      refuse(e.what(), dynamic_cast<const UsageError*>(&e) != nullptr);
      fs::remove_all(dir, ec);
      return;
    }
    const bool connected = measure(*stack);
    if (resources_) resources_->stop();
    for (auto& r : exposures_) r->stop();
    stack->stop();
    if (connected) {
      try {
        send_records(*stack, dir);
        // The client's probes after the session, until it closes the connection.
        const std::int64_t deadline = monotonic_ns() + 30'000'000'000;
        while (monotonic_ns() < deadline) {
          if (const auto m = receive_answering(1.0); m && (*m)["type"] == "bye") break;
        }
      } catch (const RunError& e) {
        say(where_ + ": " + e.what());
      }
    }
    say(fmt::format("{}: {} ended {}", where_, stack->plan().label, stack->end_state().stop_reason));
    fs::remove_all(dir, ec);
  }

  // Until the client says stop. Returns false when the connection was lost (the stack ended then).
  bool measure(Stack& stack) {
    const std::int64_t safety = stack.start_ns() + static_cast<std::int64_t>((stack.plan().options.duration_s + 120) * 1e9);
    bool told = false;
    try {
      for (;;) {
        const std::optional<nlohmann::json> m = receive_answering(0.02);
        const std::int64_t now = monotonic_ns();
        if (m && (*m)["type"] == "stop") {
          stack.end(now, m->value("reason", "at the end of the session"));
          return true;
        }
        stack.poll_app(now);
        stack.poll_servers(now);
        if (const int sig = g_stop.load()) stack.end(now, "when the agent was stopped (" + signal_name(sig) + ")", sig);
        if (now > safety) stack.end(now, "when the client had not asked to stop 120 s after the duration");
        if (stack.end_state().ended && !told) {
          told = true;
          ch_.send({{"type", "ended"}, {"end", end_json(stack)}});
        }
      }
    } catch (const RunError& e) {
      say(where_ + ": " + e.what() + "; stopping the session");
      stack.end(monotonic_ns(), "after the client's control connection was lost");
      return false;
    }
  }

  void send_records(const Stack& stack, const fs::path& dir) {
    std::size_t files = 0, bytes = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      const std::string data = files::read_file(e.path());
      ch_.send({{"type", "file"}, {"name", e.path().filename().string()}, {"size", data.size()}});
      ch_.send_bytes(data);
      ++files;
      bytes += data.size();
    }
    nlohmann::json status = nullptr;
    if (const auto& st = stack.app().status())
      status = {{"exited", st->exited}, {"code", st->code}, {"signal", st->signal}};
    ch_.send({{"type", "end"},
              {"run", const_cast<Stack&>(stack).run()},
              {"processes", stack.processes()},
              {"end", end_json(stack)},
              {"app_status", status},
              {"start_ns", stack.start_ns()},
              {"dir", dir.string()},
              {"files", files},
              {"bytes", bytes},
              {"resources", resources_ ? resources_->block() : nlohmann::json()}});
  }

  ControlChannel& ch_;
  const AgentOptions& options_;
  std::string where_;
  std::vector<std::unique_ptr<net::TcpRelay>> exposures_;
  std::unique_ptr<SessionResources> resources_;  // declared last: stopped before the relays it reads go
};

int bind_listener(const ListenAddress& a) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw UsageError(std::string("pictor serve: cannot create a socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(a.port));
  ::inet_pton(AF_INET, a.host.c_str(), &sa.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd, 16) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    throw UsageError(fmt::format("--listen {}:{}: cannot listen there: {}", a.host, a.port, reason));
  }
  return fd;
}

}  // namespace

void check_two_host_adapter(const RunOptions& o) {
  if (o.adapter == "xvnc" || o.adapter == "x11vnc") return;
  if (o.adapter == "stream") {
    if (stream::parse_stream_options(o.stream).transport == stream::Transport::tcp) return;
    throw UsageError("--server runs --adapter stream with --stream transport=tcp: its UDP video goes to a port on the "
                     "render host's loopback (docs/two-hosts.md)");
  }
  throw UsageError(fmt::format("--server runs --adapter xvnc, x11vnc or stream (transport=tcp) across two hosts, not "
                               "'{}' (docs/two-hosts.md)",
                               o.adapter));
}

int serve_sessions(const AgentOptions& options) {
  const int listen_fd = bind_listener(options.listen);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  std::error_code ec;
  fs::create_directories(options.work_dir, ec);
  say(fmt::format("listening on {}:{}{}; sessions write under {}", options.listen.host, options.listen.port,
                  options.wildcard_named ? " (every interface, as --listen asked)" : "", options.work_dir));
  std::map<pid_t, std::string> children;
  int accepted = 0;
  for (;;) {
    for (pid_t pid; (pid = ::waitpid(-1, nullptr, WNOHANG)) > 0;) children.erase(pid);
    if (g_stop.load()) break;
    if (options.max_sessions > 0 && accepted >= options.max_sessions && children.empty()) break;
    pollfd p{listen_fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    sockaddr_in peer{};
    socklen_t len = sizeof peer;
    const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    if (fd < 0) continue;
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &peer.sin_addr, text, sizeof text);
    const std::string where = fmt::format("session {} from {}:{}", ++accepted, text, ntohs(peer.sin_port));
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const pid_t child = ::fork();
    if (child < 0) {
      say(where + ": cannot fork: " + std::strerror(errno));
      ::close(fd);
      continue;
    }
    if (child == 0) {
      // The session's process: it ends with the agent (and takes its servers and app with it).
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() == 1) ::_exit(1);
      ::close(listen_fd);
      int status = 0;
      try {
        ControlChannel ch(fd);
        SessionHalf(ch, options, where).run();
      } catch (const std::exception& e) {
        say(where + ": " + e.what());
        status = 1;
      }
      std::fflush(stderr);
      ::_exit(status);
    }
    ::close(fd);
    children[child] = where;
  }
  // Stopping: every running session ends as told (its servers and app stopped), then the agent.
  for (const auto& [pid, where] : children) ::kill(pid, SIGTERM);
  const std::int64_t deadline = monotonic_ns() + 15'000'000'000;
  while (!children.empty() && monotonic_ns() < deadline) {
    const pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
    if (pid > 0) children.erase(pid);
    else ::usleep(20000);
  }
  for (const auto& [pid, where] : children) {
    say(where + ": did not stop in 15 s; killed");
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  ::close(listen_fd);
  return 0;
}

}  // namespace pictor::runner
