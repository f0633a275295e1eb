#include "net/udp_relay.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <vector>

#include "core/clock.h"
#include "core/error.h"

namespace pictor::net {

NetSpec DatagramShaper::without_loss(NetSpec spec) {
  spec.loss = 0;
  return spec;
}

DatagramShaper::DatagramShaper(const NetSpec& spec, uint64_t seed)
    : loss_(spec.loss), timing_(without_loss(spec), seed), random_(seed ^ 0x5bd1e995ULL) {}

std::optional<int64_t> DatagramShaper::release_ns(int64_t arrival_ns, std::size_t bytes) {
  ++datagrams_;
  if (loss_ > 0) {
    std::uniform_real_distribution<double> draw(0.0, 1.0);
    if (draw(random_) < loss_) {
      ++lost_;
      return std::nullopt;  // a lost datagram never occupies the link
    }
  }
  return timing_.release_ns(arrival_ns, bytes);
}

namespace {

struct Datagram {
  int64_t release_ns;
  std::vector<char> data;
};

int bind_loopback(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  // A keyframe arrives as a burst of a hundred datagrams or more: the kernel's default buffer
  // (rmem_default) would drop part of it before the relay thread runs, which is loss nobody asked for.
  const int bytes = 4 << 20;
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) != 0)
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

UdpRelay::UdpRelay(NetSpec spec, UdpRelayOptions options) : spec_(spec), options_(options) {}

UdpRelay::~UdpRelay() { stop(); }

void UdpRelay::start() {
  fd_ = bind_loopback(options_.listen_port);
  // The target sees the relay's second socket as its peer; what it sends back goes "up".
  out_fd_ = bind_loopback(0);
  if (fd_ < 0 || out_fd_ < 0)
    throw RunError(std::string("net: the UDP relay cannot bind 127.0.0.1 (") + std::strerror(errno) + ")");
  sockaddr_in a{};
  socklen_t len = sizeof a;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { loop(); });  // The thread's id is known before start() returns, so whoever watches it (the resource
  // sampler) never sees 0 for a relay that runs.
  while (thread_id_.load() == 0) std::this_thread::yield();
}

void UdpRelay::stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true);
  const uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(wake_fd_, &one, sizeof one);
  thread_.join();
  for (int* fd : {&fd_, &out_fd_, &wake_fd_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

void UdpRelay::loop() {
  thread_id_.store(static_cast<int>(::syscall(SYS_gettid)));
  DatagramShaper shapers[2] = {DatagramShaper(spec_, options_.seed), DatagramShaper(spec_, options_.seed ^ 0x9e37ULL)};
  std::deque<Datagram> queues[2];
  sockaddr_in target{};
  target.sin_family = AF_INET;
  target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  target.sin_port = htons(options_.target_port);
  std::optional<sockaddr_in> sender;  // who sent the last datagram down (gets the replies)
  std::vector<char> buffer(65536);
  while (!stopping_.load()) {
    const int64_t now = monotonic_ns();
    // Release what is due, in order, each direction on its own socket.
    for (int d = 0; d < 2; ++d) {
      auto& q = queues[d];
      while (!q.empty() && q.front().release_ns <= now) {
        const Datagram& g = q.front();
        if (d == 0) {
          ::sendto(out_fd_, g.data.data(), g.data.size(), 0, reinterpret_cast<const sockaddr*>(&target), sizeof target);
        } else if (sender) {
          ::sendto(fd_, g.data.data(), g.data.size(), 0, reinterpret_cast<const sockaddr*>(&*sender), sizeof *sender);
        }
        bytes_[d] += g.data.size();
        q.pop_front();
      }
    }
    int64_t next = -1;
    for (const auto& q : queues)
      if (!q.empty()) next = next < 0 ? q.front().release_ns : std::min(next, q.front().release_ns);
    // ppoll to the nanosecond: poll's milliseconds would hold each release up to 1 ms late.
    const int64_t wait = next < 0 ? 100'000'000 : std::max<int64_t>(0, next - now);
    const timespec ts{static_cast<time_t>(wait / 1'000'000'000), static_cast<long>(wait % 1'000'000'000)};
    pollfd p[3] = {{fd_, POLLIN, 0}, {out_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    ::ppoll(p, 3, &ts, nullptr);
    if (p[2].revents) break;
    for (int d = 0; d < 2; ++d) {
      const int fd = d == 0 ? fd_ : out_fd_;
      if (!(p[d].revents & POLLIN)) continue;
      for (;;) {
        sockaddr_in from{};
        socklen_t len = sizeof from;
        const auto n = ::recvfrom(fd, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n < 0) break;
        if (d == 0) sender = from;
        ++counts_[d];
        const auto at = shapers[d].release_ns(monotonic_ns(), static_cast<std::size_t>(n));
        if (!at) {
          ++lost_[d];
          continue;
        }
        if (queues[d].size() >= options_.max_queued) {
          ++overflowed_;
          continue;
        }
        queues[d].push_back({*at, std::vector<char>(buffer.begin(), buffer.begin() + n)});
      }
    }
  }
}

}  // namespace pictor::net
