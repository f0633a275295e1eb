// A user-space TCP relay that puts an emulated network (NetSpec) between a client and a target
// on loopback, without root: one background poll() thread, bounded queues per connection.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "net/spec.h"

namespace pictor::net {

struct RelayOptions {
  std::string target_host = "127.0.0.1";
  uint16_t target_port = 0;
  uint16_t listen_port = 0;        // 0 = a free port chosen by the kernel
  // The IPv4 address it listens on (`pictor serve` exposes a session's proxy on its own address).
  std::string listen_host = "127.0.0.1";
  // Not empty: connections from any other IPv4 address are closed at once (the session's client).
  std::string allowed_peer;
  uint64_t seed = 1;               // jitter and loss draws are reproducible
  std::size_t max_queued_bytes = 256 * 1024;  // per direction per connection
};

class TcpRelay {
 public:
  TcpRelay(NetSpec spec, RelayOptions options);
  ~TcpRelay();
  TcpRelay(const TcpRelay&) = delete;
  TcpRelay& operator=(const TcpRelay&) = delete;

  // Binds listen_host:<port> and starts the forwarding thread; throws RunError when it cannot.
  void start();
  // Stops the thread and closes every socket; idempotent.
  void stop();
  // The listening port (valid after start()).
  uint16_t port() const { return port_; }

  // Bytes delivered so far, client -> target ("up") and target -> client ("down").
  uint64_t bytes_up() const { return bytes_[0].load(); }
  uint64_t bytes_down() const { return bytes_[1].load(); }
  uint64_t connections() const { return connections_.load(); }
  // The forwarding thread's kernel thread id (set when start() returns), for the resource sampler.
  int thread_id() const { return thread_id_.load(); }

 private:
  void loop();

  NetSpec spec_;
  RelayOptions options_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;   // eventfd that interrupts poll() for stop()
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> bytes_[2] = {0, 0};
  std::atomic<uint64_t> connections_{0};
  std::atomic<int> thread_id_{0};
};

}  // namespace pictor::net
