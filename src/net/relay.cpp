#include "net/relay.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <list>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "net/shaper.h"

namespace pictor::net {
namespace {

constexpr std::size_t kChunkBytes = 16 * 1024;

struct Chunk {
  int64_t release_ns = 0;
  std::vector<char> data;
  std::size_t sent = 0;
};

// One direction of one connection: bytes read from `from`, held until their release time,
// then written to `to`.
struct Direction {
  int from = -1;
  int to = -1;
  std::deque<Chunk> queue;
  std::size_t queued_bytes = 0;
  bool eof = false;       // `from` closed its sending side
  bool shut = false;      // the EOF has been passed on to `to`
  DirectionShaper shaper;
  Direction(const NetSpec& spec, uint64_t seed) : shaper(spec, seed) {}
};

struct Connection {
  int client = -1;
  int server = -1;
  Direction up;     // client -> server
  Direction down;   // server -> client
  bool dead = false;
  // poll() reports a hang-up whatever was asked for; once seen, the socket is polled only while
  // the relay wants to read or write it (which then progresses), so the thread does not spin.
  bool client_hung_up = false;
  bool server_hung_up = false;
  Connection(const NetSpec& spec, uint64_t seed) : up(spec, seed), down(spec, seed ^ 0x9e3779b97f4a7c15ULL) {}
};

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Small writes (RFB input events, pings) must not wait for Nagle: latency is what is measured.
void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int connect_target(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  return fd;
}

bool can_read(const Direction& d, std::size_t limit) { return !d.eof && d.queued_bytes < limit; }

// Reads what the queue bound allows; false when the connection failed.
bool pump_in(Direction& d, std::size_t limit) {
  while (can_read(d, limit)) {
    const std::size_t want = std::min(kChunkBytes, limit - d.queued_bytes);
    Chunk chunk;
    chunk.data.resize(want);
    const ssize_t n = recv(d.from, chunk.data.data(), want, 0);
    if (n == 0) {
      d.eof = true;
      return true;
    }
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    chunk.data.resize(static_cast<std::size_t>(n));
    chunk.release_ns = d.shaper.release_ns(monotonic_ns(), chunk.data.size());
    d.queued_bytes += chunk.data.size();
    d.queue.push_back(std::move(chunk));
  }
  return true;
}

// Writes every chunk whose release time has come; false when the connection failed.
bool pump_out(Direction& d, int64_t now_ns, std::atomic<uint64_t>& delivered) {
  while (!d.queue.empty() && d.queue.front().release_ns <= now_ns) {
    Chunk& chunk = d.queue.front();
    const ssize_t n = send(d.to, chunk.data.data() + chunk.sent, chunk.data.size() - chunk.sent,
                           MSG_NOSIGNAL);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    chunk.sent += static_cast<std::size_t>(n);
    delivered += static_cast<uint64_t>(n);
    if (chunk.sent < chunk.data.size()) return true;
    d.queued_bytes -= chunk.data.size();
    d.queue.pop_front();
  }
  if (d.eof && d.queue.empty() && !d.shut) {
    shutdown(d.to, SHUT_WR);
    d.shut = true;
  }
  return true;
}

}  // namespace

TcpRelay::TcpRelay(NetSpec spec, RelayOptions options)
    : spec_(spec), options_(std::move(options)) {}

TcpRelay::~TcpRelay() { stop(); }

void TcpRelay::start() {
  if (thread_.joinable()) return;
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listen_fd_ < 0) throw RunError(std::string("net relay: socket: ") + std::strerror(errno));
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  if (inet_pton(AF_INET, options_.listen_host.c_str(), &address.sin_addr) != 1)
    throw RunError("net relay: '" + options_.listen_host + "' is not an IPv4 address");
  address.sin_port = htons(options_.listen_port);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listen_fd_, 16) != 0) {
    const std::string reason = std::strerror(errno);
    close(listen_fd_);
    listen_fd_ = -1;
    throw RunError("net relay: cannot listen on " + options_.listen_host + ":" +
                   std::to_string(options_.listen_port) + ": " + reason);
  }
  socklen_t length = sizeof address;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });  // The thread's id is known before start() returns, so whoever watches it (the resource
  // sampler) never sees 0 for a relay that runs.
  while (thread_id_.load() == 0) std::this_thread::yield();
}

void TcpRelay::stop() {
  if (thread_.joinable()) {
    stopping_ = true;
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(wake_fd_, &one, sizeof one);
    thread_.join();
  }
  if (listen_fd_ >= 0) close(listen_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
  listen_fd_ = wake_fd_ = -1;
}

void TcpRelay::loop() {
  thread_id_.store(static_cast<int>(::gettid()));
  // Release times are the measurement: do not let the kernel coalesce this thread's wake-ups
  // (default slack 50 us).
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::list<Connection> connections;
  uint64_t accepted = 0;
  const std::size_t limit = std::max<std::size_t>(options_.max_queued_bytes, 1);
  std::vector<pollfd> fds;
  while (!stopping_) {
    const int64_t now = monotonic_ns();
    int64_t next_release = -1;
    fds.assign({{wake_fd_, POLLIN, 0}, {listen_fd_, POLLIN, 0}});
    for (Connection& c : connections) {
      short client_events = can_read(c.up, limit) ? POLLIN : 0;
      short server_events = can_read(c.down, limit) ? POLLIN : 0;
      for (Direction* d : {&c.up, &c.down}) {
        if (d->queue.empty()) continue;
        const int64_t release = d->queue.front().release_ns;
        if (release <= now) {
          (d == &c.up ? server_events : client_events) |= POLLOUT;
        } else if (next_release < 0 || release < next_release) {
          next_release = release;
        }
      }
      fds.push_back({c.client_hung_up && client_events == 0 ? -1 : c.client, client_events, 0});
      fds.push_back({c.server_hung_up && server_events == 0 ? -1 : c.server, server_events, 0});
    }
    timespec wait{};
    const timespec* timeout = nullptr;
    if (next_release >= 0) {
      const int64_t ns = std::max<int64_t>(0, next_release - now);
      wait.tv_sec = ns / 1'000'000'000;
      wait.tv_nsec = ns % 1'000'000'000;
      timeout = &wait;
    }
    if (ppoll(fds.data(), fds.size(), timeout, nullptr) < 0 && errno != EINTR) break;
    if (stopping_) break;

    if (fds[1].revents & POLLIN) {
      for (;;) {
        sockaddr_in peer{};
        socklen_t peer_length = sizeof peer;
        const int client = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &peer_length, SOCK_CLOEXEC);
        if (client < 0) break;
        if (!options_.allowed_peer.empty()) {
          char text[INET_ADDRSTRLEN] = {};
          inet_ntop(AF_INET, &peer.sin_addr, text, sizeof text);
          if (options_.allowed_peer != text) {  // not the session's client
            close(client);
            continue;
          }
        }
        const int server = connect_target(options_.target_host, options_.target_port);
        if (server < 0) {  // the target refused: the client sees its connection closed
          close(client);
          continue;
        }
        ++accepted;
        Connection& c = connections.emplace_back(spec_, options_.seed + accepted);
        c.client = client;
        c.server = server;
        c.up.from = c.down.to = client;
        c.up.to = c.down.from = server;
        for (int fd : {client, server}) {
          set_nonblocking(fd);
          set_nodelay(fd);
        }
        ++connections_;
      }
    }

    const int64_t after = monotonic_ns();
    std::size_t index = 2;
    for (Connection& c : connections) {
      if (index + 1 >= fds.size()) break;  // accepted this round: not polled yet
      const short client_revents = fds[index].revents, server_revents = fds[index + 1].revents;
      index += 2;
      c.client_hung_up = c.client_hung_up || (client_revents & POLLHUP) != 0;
      c.server_hung_up = c.server_hung_up || (server_revents & POLLHUP) != 0;
      // An error (a reset) ends the TCP connection; the relay ends its two halves with it.
      if ((client_revents | server_revents) & POLLERR) {
        c.dead = true;
        continue;
      }
      bool ok = pump_in(c.up, limit) && pump_in(c.down, limit);
      ok = ok && pump_out(c.up, after, bytes_[0]) && pump_out(c.down, after, bytes_[1]);
      c.dead = !ok || (c.up.shut && c.down.shut);
    }
    connections.remove_if([](Connection& c) {
      if (!c.dead) return false;
      close(c.client);
      close(c.server);
      return true;
    });
  }
  for (Connection& c : connections) {
    close(c.client);
    close(c.server);
  }
}

}  // namespace pictor::net
