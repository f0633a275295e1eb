#include "runner/stream_adapter.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "client/x_connection.h"
#include "core/error.h"
#include "core/files.h"
#include "net/relay.h"
#include "net/udp_relay.h"
#include "runner/install_paths.h"
#include "runner/process.h"
#include "runner/xvfb.h"
#include "stream/stream_client.h"

namespace pictor::runner {

namespace fs = std::filesystem;

namespace {

int pick_free_udp_port() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw RunError("cannot create a socket to find a free UDP port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  ::close(fd);
  if (!ok) throw RunError("cannot find a free UDP port on 127.0.0.1");
  return ntohs(a.sin_port);
}

std::string find_stream_server() {
  const fs::path self = self_directory();
  for (const fs::path& c : {self / "pictor-stream-server", self / "../libexec/pictor/pictor-stream-server"})
    if (fs::exists(c)) return fs::weakly_canonical(c).string();
  throw RunError("pictor-stream-server not found next to pictor (looked in " + self.string() + ")");
}

class StreamClientHandle final : public AdapterClient {
 public:
  StreamClientHandle(std::unique_ptr<stream::StreamClient> c, std::function<nlohmann::json()> net)
      : client_(std::move(c)), net_(std::move(net)) {}
  client::ClientStats stop() override { return client_->stop(); }
  void finish_inputs() override { client_->finish_inputs(); }
  bool running() const override { return client_->running(); }
  nlohmann::json describe() const override {
    nlohmann::json j = client_->stats_json();
    j["net"] = net_();
    return j;
  }

 private:
  std::unique_ptr<stream::StreamClient> client_;
  std::function<nlohmann::json()> net_;
};

class StreamAdapter final : public Adapter {
 public:
  explicit StreamAdapter(const AdapterOptions& o)
      : out_dir_(o.out_dir),
        xvfb_log_((fs::path(o.out_dir) / "xvfb.log").string()),
        log_((fs::path(o.out_dir) / "stream_server.log").string()),
        options_(stream::parse_stream_options(o.stream)),
        net_(o.net) {
    if (o.net_backend == "netem" && !net_.is_identity())
      throw UsageError("--adapter stream emulates --net with its own UDP and TCP relays: use --net-backend relay");
    const std::string server = find_stream_server();
    xvfb_ = Xvfb::start(o.size, xvfb_log_);
    try {
      start_server(server);
      start_relays();
    } catch (...) {
      stop({});
      throw;
    }
  }
  std::string name() const override { return "stream"; }
  std::string display() const override { return xvfb_->display(); }
  std::optional<ServerEnd> dead() override {
    if (stopped_) return std::nullopt;
    std::vector<ServerEnd> ends;
    if (!xvfb_->process().running())
      ends.push_back({"Xvfb", xvfb_log_, how_it_ended(xvfb_->process()), xvfb_->process().ended_ns(), {}});
    if (!server_.running()) ends.push_back({"pictor-stream-server", log_, how_it_ended(server_), server_.ended_ns(), {}});
    if (ends.empty()) return std::nullopt;
    std::stable_sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) { return a.seen_ns < b.seen_ns; });
    ServerEnd first = ends.front();
    for (std::size_t i = 1; i < ends.size(); ++i) first.followed.push_back(ends[i].name);
    return first;
  }
  std::vector<std::string> suspended() const override {
    std::vector<std::string> out;
    if (stopped_) return out;
    if (xvfb_->process().suspended()) out.push_back("Xvfb");
    if (server_.suspended()) out.push_back("pictor-stream-server");
    return out;
  }
  std::vector<nlohmann::json> running_processes() const override {
    return {{{"name", "pictor-stream-server"}, {"pid", server_.pid()}}, {{"name", "Xvfb"}, {"pid", xvfb_->process().pid()}}};
  }
  nlohmann::json describe() const override {
    return {{"display_server", "Xvfb"},
            {"proxy", "pictor-stream-server"},
            {"proxy_argv", argv_},
            {"proxy_pid", server_.pid()},
            {"stream", stream::to_string(options_)},
            {"transport", stream::transport_name(options_.transport)},
            {"video_port", video_port_},
            {"input_port", input_port_},
            {"elements", options_.transport == stream::Transport::udp
                             ? "ximagesrc ! videoconvert ! x264enc ! rtph264pay ! udpsink"
                             : "ximagesrc ! videoconvert ! x264enc ! rtph264pay ! rtpstreampay ! tcpserversink"}};
  }
  std::vector<nlohmann::json> stop(const StopContext& context) override {
    if (!stopped_) {
      if (video_tcp_relay_) video_tcp_relay_->stop();
      if (udp_relay_) udp_relay_->stop();
      if (input_relay_) input_relay_->stop();
      dead();
      if (server_.pid() > 0) server_.stop(2.0);
      xvfb_->stop();
      entries_ = {};
      if (server_.pid() > 0) entries_.push_back(process_status_json(server_, context));
      entries_.push_back(process_status_json(xvfb_->process(), context));
    }
    stopped_ = true;
    return entries_;
  }

  bool has_own_client() const override { return true; }
  // The relays exist when --net emulates a network: inputs up and back on the TCP relay, the
  // video down on the UDP or TCP one.
  std::optional<resources::NetworkSource> own_client_network() const override {
    if (!input_relay_) return std::nullopt;
    return resources::NetworkSource{
        "relays (bytes the --net relays between pictor-stream-client and pictor-stream-server delivered: "
        "the input channel each way, the video down)",
        [this]() -> std::optional<resources::NetworkCounts> {
          resources::NetworkCounts n{input_relay_->bytes_up(), input_relay_->bytes_down()};
          if (udp_relay_) n.down += udp_relay_->bytes_down();
          if (video_tcp_relay_) n.down += video_tcp_relay_->bytes_down();
          return n;
        }};
  }

  std::unique_ptr<AdapterClient> start_client(const AdapterClientOptions& o,
                                              std::unique_ptr<drivers::Driver> driver) override {
    // The app's window on the server's screen is where it lies in the video (ximagesrc takes the root).
    auto x = client::XConnection::open(display());
    const client::WindowInfo w = client::wait_for_app_window(*x, o.window_timeout_s, o.app_running);
    x.reset();
    stream::StreamClientOptions co;
    co.out_dir = o.out_dir;
    co.transport = options_.transport;
    co.udp_port = client_udp_port_;
    co.tcp_port = video_tcp_relay_ ? video_tcp_relay_->port() : video_port_;
    co.input_port = input_relay_ ? input_relay_->port() : input_port_;
    co.window = tag::WindowRect{w.x, w.y, w.width, w.height};
    co.server_display = display();
    co.expect_marker = o.expect_marker;
    co.app_running = o.app_running;
    auto c = stream::StreamClient::start(co, std::move(driver));
    return std::make_unique<StreamClientHandle>(std::move(c), [this] { return net_json(); });
  }

 private:
  void start_server(const std::string& server) {
    input_port_ = pick_free_port();
    if (options_.transport == stream::Transport::udp) {
      client_udp_port_ = pick_free_udp_port();
      // Through the relay when the network is emulated: it forwards to the client's port.
      video_port_ = client_udp_port_;
      if (!net_.is_identity()) {
        net::UdpRelayOptions ro;
        ro.target_port = static_cast<std::uint16_t>(client_udp_port_);
        udp_relay_ = std::make_unique<net::UdpRelay>(net_, ro);
        udp_relay_->start();
        video_port_ = udp_relay_->port();
      }
    } else {
      video_port_ = pick_free_port();
    }
    argv_ = {server, "--display", display(), "--out", fs::absolute(out_dir_).string(), "--input-port",
             std::to_string(input_port_), options_.transport == stream::Transport::udp ? "--dest-port" : "--listen-port",
             std::to_string(video_port_), "--options", stream::to_string(options_)};
    SpawnOptions s;
    s.argv = argv_;
    s.stdout_path = log_;
    s.stderr_path = log_;
    // The app's interposer must not load into the server, should the user's environment name it.
    s.env["LD_PRELOAD"] = "";
    server_ = Process::spawn(s);
    // Ready once it prints READY (the pipeline plays and the agent listens).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline && server_.running()) {
      std::ifstream in(log_);
      std::string line;
      while (std::getline(in, line))
        if (line == "READY") return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const auto st = server_.stop(0.5);
    const std::string last = last_log_line(log_);
    throw RunError("pictor-stream-server failed to start (" + st.describe() + (last.empty() ? "" : ": " + last) +
                   "), see " + log_);
  }

  void start_relays() {
    if (net_.is_identity()) return;
    net::RelayOptions ro;
    ro.target_port = static_cast<std::uint16_t>(input_port_);
    input_relay_ = std::make_unique<net::TcpRelay>(net_, ro);
    input_relay_->start();
    if (options_.transport == stream::Transport::tcp) {
      net::RelayOptions vo;
      vo.target_port = static_cast<std::uint16_t>(video_port_);
      vo.seed = 2;
      vo.max_queued_bytes = 4 << 20;  // a keyframe is hundreds of KiB
      video_tcp_relay_ = std::make_unique<net::TcpRelay>(net_, vo);
      video_tcp_relay_->start();
    }
  }

  nlohmann::json net_json() const {
    if (net_.is_identity()) return {{"spec", "none"}};
    nlohmann::json j{{"spec", net::to_string(net_)}};
    if (input_relay_) j["input_tcp"] = {{"bytes_up", input_relay_->bytes_up()}, {"bytes_down", input_relay_->bytes_down()}};
    if (udp_relay_)
      j["video_udp"] = {{"datagrams", udp_relay_->datagrams_down()},
                        {"bytes", udp_relay_->bytes_down()},
                        {"lost", udp_relay_->lost_down()},
                        {"overflowed", udp_relay_->overflowed()}};
    if (video_tcp_relay_) j["video_tcp"] = {{"bytes_down", video_tcp_relay_->bytes_down()}};
    return j;
  }

  std::string out_dir_, xvfb_log_, log_;
  stream::StreamOptions options_;
  net::NetSpec net_;
  std::unique_ptr<Xvfb> xvfb_;
  Process server_;
  std::vector<std::string> argv_;
  int input_port_ = 0, video_port_ = 0, client_udp_port_ = 0;
  std::unique_ptr<net::UdpRelay> udp_relay_;
  std::unique_ptr<net::TcpRelay> input_relay_, video_tcp_relay_;
  bool stopped_ = false;
  std::vector<nlohmann::json> entries_;
};

}  // namespace

std::unique_ptr<Adapter> start_stream_adapter(const AdapterOptions& options) {
  return std::make_unique<StreamAdapter>(options);
}

}  // namespace pictor::runner
