// Test helpers for the relay: a loopback echo/sink server and a blocking client socket,
// so the relay is measured against real TCP on 127.0.0.1.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pictor::net::test {

class LoopbackServer {
 public:
  enum class Mode { echo, sink };
  explicit LoopbackServer(Mode mode);
  ~LoopbackServer();
  uint16_t port() const { return port_; }
  void stop();

  // Sink mode: bytes received and the monotonic times of the first and last received byte.
  uint64_t sunk_bytes() const { return sunk_.load(); }
  int64_t first_byte_ns() const { return first_ns_.load(); }
  int64_t last_byte_ns() const { return last_ns_.load(); }

 private:
  void serve(int fd);
  Mode mode_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<std::thread> workers_;
  std::atomic<uint64_t> sunk_{0};
  std::atomic<int64_t> first_ns_{0};
  std::atomic<int64_t> last_ns_{0};
};

// A blocking TCP_NODELAY connection to 127.0.0.1:port; throws std::runtime_error on failure.
int connect_loopback(uint16_t port);
void send_all(int fd, const void* data, std::size_t size);
void recv_all(int fd, void* data, std::size_t size);

// Entries in /proc/self/fd and /proc/self/task: open descriptors and live threads.
int open_descriptors();
int live_threads();

}  // namespace pictor::net::test
