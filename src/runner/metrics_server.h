// `pictor run --metrics-listen HOST:PORT`: the session's live figures (live_metrics.h) served in
// Prometheus text format at /metrics while it runs, from a thread of the runner that reads the
// session's files — the app's render thread does nothing more. docs/reports.md "Live metrics".
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

namespace pictor::runner {

struct ListenAddress {
  std::string host;  // an IPv4 literal: 127.0.0.1 unless the user named another
  int port = 0;      // 1..65535
};

// "127.0.0.1:9464", "localhost:9464" or ":9464"/"9464" (loopback). Throws UsageError naming the
// problem: a host that is no IPv4 address, a port outside 1..65535.
ListenAddress parse_listen_address(const std::string& text);

class MetricsServer {
 public:
  // Binds the address without serving yet — before the session claims its directory or starts
  // anything. Throws UsageError when it cannot (in use, not this machine's address).
  explicit MetricsServer(const ListenAddress& address);
  // Starts the thread that answers scrapes with the figures of the session in `session_dir`.
  void serve(const std::string& session_dir, const std::string& label);
  // Stops the thread and closes the socket.
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  std::uint64_t scrapes() const { return scrapes_.load(); }

 private:
  void loop();

  int fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};  // a pipe: written to stop the thread's poll
  std::string session_dir_, label_;
  std::atomic<std::uint64_t> scrapes_{0};
  std::thread thread_;
};

}  // namespace pictor::runner
