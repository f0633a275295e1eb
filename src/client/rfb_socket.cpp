#include "client/rfb_socket.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netdb.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>

#include "core/clock.h"
#include "core/error.h"

namespace pictor::client::rfb {

namespace {

// Waits for a non-blocking connect; returns 0 or the errno it failed with.
int wait_connected(int fd, std::int64_t deadline_ns) {
  while (true) {
    const std::int64_t left = deadline_ns - monotonic_ns();
    if (left <= 0) return ETIMEDOUT;
    pollfd p{fd, POLLOUT, 0};
    const int ms = static_cast<int>(std::max<std::int64_t>(1, left / 1'000'000));
    const int n = ::poll(&p, 1, ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) continue;
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    return err;
  }
}

}  // namespace

int connect_tcp(const std::string& host, int port, double timeout_s) {
  const std::string where = fmt::format("{}:{}", host, port);
  if (port <= 0 || port > 65535) throw UsageError(fmt::format("rfb: port {} is outside 1..65535", port));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &res); rc != 0)
    throw RunError(fmt::format("rfb: cannot connect to {}: {}", where, ::gai_strerror(rc)));
  const std::int64_t deadline = monotonic_ns() + static_cast<std::int64_t>(timeout_s * 1e9);
  int last_error = ECONNREFUSED;
  int fd = -1;
  for (addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    const int s = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (s < 0) {
      last_error = errno;
      continue;
    }
    int err = 0;
    if (::connect(s, a->ai_addr, a->ai_addrlen) != 0) err = errno == EINPROGRESS ? wait_connected(s, deadline) : errno;
    if (err != 0) {
      last_error = err;
      ::close(s);
      continue;
    }
    fd = s;
  }
  ::freeaddrinfo(res);
  if (fd < 0) {
    const std::string reason = last_error == ETIMEDOUT
                                   ? fmt::format("no answer within {:g} s", timeout_s)
                                   : std::string(std::strerror(last_error));
    throw RunError(fmt::format("rfb: cannot connect to {}: {}", where, reason));
  }
  // Inputs are tiny messages that must leave at once.
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

std::optional<std::int64_t> bytes_read_from(int fd) {
  // The two counters are read separately: a segment arriving in between would count twice, so
  // the reading is repeated until tcpi_bytes_received did not move across the queue query.
  for (int attempt = 0; attempt < 8; ++attempt) {
    tcp_info a{}, b{};
    socklen_t la = sizeof a, lb = sizeof b;
    int queued = 0;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &a, &la) != 0) return std::nullopt;
    if (la < offsetof(tcp_info, tcpi_bytes_received) + sizeof a.tcpi_bytes_received) return std::nullopt;
    if (::ioctl(fd, SIOCINQ, &queued) != 0) return std::nullopt;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &b, &lb) != 0) return std::nullopt;
    if (a.tcpi_bytes_received == b.tcpi_bytes_received)
      return static_cast<std::int64_t>(a.tcpi_bytes_received) - queued;
  }
  return std::nullopt;
}

std::optional<TcpBytes> tcp_bytes(int fd) {
  tcp_info info{};
  socklen_t len = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return std::nullopt;
  if (len < offsetof(tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) return std::nullopt;
  return TcpBytes{info.tcpi_bytes_acked, info.tcpi_bytes_received};
}

SigpipeBlock::SigpipeBlock() {
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &old_);
  was_blocked_ = sigismember(&old_, SIGPIPE) == 1;
}

SigpipeBlock::~SigpipeBlock() {
  if (was_blocked_) return;
  sigset_t pipe, pending;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  sigpending(&pending);
  if (sigismember(&pending, SIGPIPE) == 1) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe, nullptr, &zero) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace pictor::client::rfb
