#include "loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "core/clock.h"

namespace pictor::net::test {

LoopbackServer::LoopbackServer(Mode mode) : mode_(mode) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listen_fd_, 8) != 0)
    throw std::runtime_error("test server cannot listen");
  socklen_t length = sizeof address;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  acceptor_ = std::thread([this] {
    for (;;) {
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) return;  // stop() shut the listening socket down
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::lock_guard lock(mutex_);
      workers_.emplace_back([this, fd] { serve(fd); });
    }
  });
}

LoopbackServer::~LoopbackServer() { stop(); }

void LoopbackServer::stop() {
  if (!acceptor_.joinable()) return;
  shutdown(listen_fd_, SHUT_RDWR);
  acceptor_.join();
  close(listen_fd_);
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
}

void LoopbackServer::serve(int fd) {
  std::vector<char> buffer(64 * 1024);
  for (;;) {
    const ssize_t n = recv(fd, buffer.data(), buffer.size(), 0);
    if (n <= 0) break;
    if (mode_ == Mode::sink) {
      const int64_t now = monotonic_ns();
      if (sunk_.load() == 0) first_ns_ = now;
      last_ns_ = now;
      sunk_ += static_cast<uint64_t>(n);
    } else {
      send_all(fd, buffer.data(), static_cast<std::size_t>(n));
    }
  }
  close(fd);
}

int connect_loopback(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

void send_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void recv_all(int fd, void* data, std::size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = recv(fd, p, size, 0);
    if (n <= 0) throw std::runtime_error("connection closed early");
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

namespace {
int count_entries(const char* folder) {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++count;
  return count;
}
}  // namespace

int open_descriptors() { return count_entries("/proc/self/fd"); }
int live_threads() { return count_entries("/proc/self/task"); }

}  // namespace pictor::net::test
