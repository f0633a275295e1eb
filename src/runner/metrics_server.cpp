#include "runner/metrics_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include "core/error.h"
#include "runner/live_metrics.h"

namespace pictor::runner {

namespace {

// A scraper's request is a few hundred bytes; anything longer than this is not one.
constexpr std::size_t kMaxRequestBytes = 8192;
// How long one connection may take to send its request: a stalled client must not hold the
// thread (one connection at a time) for long.
constexpr int kRequestTimeoutMs = 2000;

void send_all(int fd, const std::string& data) {
  std::size_t at = 0;
  while (at < data.size()) {
    const ssize_t n = ::send(fd, data.data() + at, data.size() - at, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<std::size_t>(n);
  }
}

std::string response(int code, const char* reason, const std::string& type, const std::string& body) {
  return fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", code, reason,
                     type, body.size(), body);
}

// Reads the request line and headers (up to the blank line); "" on timeout or a request too long.
std::string read_request(int fd) {
  std::string req;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRequestTimeoutMs);
  char buf[2048];
  while (req.find("\r\n\r\n") == std::string::npos && req.find("\n\n") == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0 || req.size() > kMaxRequestBytes) return {};
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return {};
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return req;
    req.append(buf, static_cast<std::size_t>(n));
  }
  return req;
}

}  // namespace

ListenAddress parse_listen_address(const std::string& text) {
  ListenAddress a;
  const std::size_t colon = text.rfind(':');
  std::string host = colon == std::string::npos ? std::string() : text.substr(0, colon);
  const std::string port = colon == std::string::npos ? text : text.substr(colon + 1);
  if (host.empty() || host == "localhost") host = "127.0.0.1";
  in_addr probe{};
  if (::inet_pton(AF_INET, host.c_str(), &probe) != 1)
    throw UsageError("--metrics-listen '" + text + "': '" + host + "' is not an IPv4 address (e.g. 127.0.0.1:9464)");
  char* end = nullptr;
  const long p = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || p < 1 || p > 65535)
    throw UsageError("--metrics-listen '" + text + "': the port must be 1..65535 (e.g. 127.0.0.1:9464)");
  a.host = host;
  a.port = static_cast<int>(p);
  return a;
}

MetricsServer::MetricsServer(const ListenAddress& address) : port_(address.port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw UsageError(std::string("--metrics-listen: cannot create a socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);  // a --repeat run's next session rebinds at once
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(address.port));
  ::inet_pton(AF_INET, address.host.c_str(), &sa.sin_addr);
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd_, 16) != 0 ||
      ::pipe2(wake_, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(fd_);
    throw UsageError(fmt::format("--metrics-listen {}:{}: cannot listen there: {}", address.host, address.port, std::strerror(e)));
  }
}

void MetricsServer::serve(const std::string& session_dir, const std::string& label) {
  if (thread_.joinable()) return;
  session_dir_ = session_dir;
  label_ = label;
  thread_ = std::thread([this] { loop(); });
}

MetricsServer::~MetricsServer() {
  const char stop = 1;
  if (::write(wake_[1], &stop, 1) < 0) {
    // The pipe cannot be full (one byte, once): nothing else to do.
  }
  if (thread_.joinable()) thread_.join();
  ::close(fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void MetricsServer::loop() {
  // The figures are computed on this thread only, from the files as they grow.
  LiveMetrics metrics(session_dir_, label_);
  for (;;) {
    pollfd p[2] = {{fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (p[1].revents) return;
    if (!(p[0].revents & POLLIN)) continue;
    const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    const std::string req = read_request(c);
    const std::size_t sp = req.find(' '), sp2 = sp == std::string::npos ? sp : req.find(' ', sp + 1);
    const std::string method = sp == std::string::npos ? "" : req.substr(0, sp);
    std::string path = sp2 == std::string::npos ? "" : req.substr(sp + 1, sp2 - sp - 1);
    if (const std::size_t q = path.find('?'); q != std::string::npos) path.resize(q);
    if (req.empty()) {
      // Timed out or too long: no answer is owed.
    } else if (method != "GET" && method != "HEAD") {
      send_all(c, response(405, "Method Not Allowed", "text/plain", "GET /metrics\n"));
    } else if (path != "/metrics" && path != "/") {
      send_all(c, response(404, "Not Found", "text/plain", "pictor serves /metrics\n"));
    } else {
      metrics.poll();
      ++scrapes_;
      std::string r = response(200, "OK", "text/plain; version=0.0.4; charset=utf-8", metrics.prometheus_text());
      if (method == "HEAD") r.resize(r.find("\r\n\r\n") + 4);
      send_all(c, r);
    }
    ::close(c);
  }
}

}  // namespace pictor::runner
