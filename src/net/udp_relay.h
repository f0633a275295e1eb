// The user-space relay for datagrams (the stream adapter's RTP over UDP): the same NetSpec as the
// TCP relay, per direction, but a lost datagram is dropped, not retransmitted, so loss reaches the
// receiver as missing packets (decode errors, late frames) exactly as on a real network.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <random>
#include <thread>

#include "net/shaper.h"
#include "net/spec.h"

namespace pictor::net {

// One direction's timing for datagrams: delay, jitter and rate as DirectionShaper (order kept),
// loss as a drop. Pure; tests drive it with fake clocks.
class DatagramShaper {
 public:
  DatagramShaper(const NetSpec& spec, uint64_t seed);
  // When the datagram may leave, or nullopt when the emulated network loses it.
  std::optional<int64_t> release_ns(int64_t arrival_ns, std::size_t bytes);
  uint64_t datagrams() const { return datagrams_; }
  uint64_t lost() const { return lost_; }

 private:
  static NetSpec without_loss(NetSpec spec);
  double loss_;
  DirectionShaper timing_;
  std::mt19937_64 random_;
  uint64_t datagrams_ = 0, lost_ = 0;
};

struct UdpRelayOptions {
  uint16_t target_port = 0;   // on 127.0.0.1: where datagrams sent to the relay go
  uint16_t listen_port = 0;   // 0 = a free port chosen by the kernel
  uint64_t seed = 1;
  std::size_t max_queued = 4096;  // datagrams held per direction; more are dropped (counted)
};

class UdpRelay {
 public:
  UdpRelay(NetSpec spec, UdpRelayOptions options);
  ~UdpRelay();
  UdpRelay(const UdpRelay&) = delete;
  UdpRelay& operator=(const UdpRelay&) = delete;

  // Binds 127.0.0.1:<port> and starts the forwarding thread; throws RunError when it cannot.
  void start();
  void stop();  // idempotent
  uint16_t port() const { return port_; }

  // Datagrams towards the target ("down": server → client for the stream) and back ("up").
  uint64_t datagrams_down() const { return counts_[0].load(); }
  uint64_t bytes_down() const { return bytes_[0].load(); }
  uint64_t lost_down() const { return lost_[0].load(); }
  uint64_t datagrams_up() const { return counts_[1].load(); }
  uint64_t bytes_up() const { return bytes_[1].load(); }
  uint64_t lost_up() const { return lost_[1].load(); }
  uint64_t overflowed() const { return overflowed_.load(); }
  int thread_id() const { return thread_id_.load(); }

 private:
  void loop();

  NetSpec spec_;
  UdpRelayOptions options_;
  int fd_ = -1, out_fd_ = -1, wake_fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> counts_[2] = {0, 0}, bytes_[2] = {0, 0}, lost_[2] = {0, 0};
  std::atomic<uint64_t> overflowed_{0};
  std::atomic<int> thread_id_{0};
};

}  // namespace pictor::net
