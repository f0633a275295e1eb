// The stream server's input agent: takes the client's inputs from the back-channel (input_wire.h)
// and injects them into the app's X display with XTest, recording each read and delivery in
// proxy_events.csv (the VNC proxies' schema), so CS, SP and PS are cut as for x11vnc.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/files.h"

namespace pictor::stream {

class InputAgent {
 public:
  // Listens on 127.0.0.1:port (TCP) for one client at a time. `on_connect` runs on the agent's
  // thread when a client connects (the server asks its encoder for a keyframe then).
  // Throws RunError when the port cannot be bound or the display lacks XTest.
  InputAgent(const std::string& display, int port, const std::string& out_dir, std::function<void()> on_connect);
  ~InputAgent();
  InputAgent(const InputAgent&) = delete;
  InputAgent& operator=(const InputAgent&) = delete;

  void stop();
  std::uint64_t inputs() const { return inputs_.load(); }
  std::uint64_t bad_messages() const { return bad_.load(); }
  std::uint64_t connections() const { return connections_.load(); }
  // Writes what is buffered to proxy_events.csv; false once rows were lost.
  bool flush(bool last = false);

 private:
  void loop();
  void serve(int fd);

  std::string display_;
  int listen_fd_ = -1, wake_fd_ = -1;
  std::function<void()> on_connect_;
  std::mutex rows_mutex_;
  files::RowFile events_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> inputs_{0}, bad_{0}, connections_{0};
};

}  // namespace pictor::stream
