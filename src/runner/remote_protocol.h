// The control connection between `pictor run --server` and `pictor serve` (docs/two-hosts.md):
// one TCP connection per session carrying frames of a 4-byte big-endian length and a payload —
// a JSON object with a "type", or the raw bytes of a file announced by the JSON frame before it.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "runner/session.h"

namespace pictor::runner {

// The largest frame either side accepts: a session file travels as one frame.
inline constexpr std::uint32_t kMaxControlFrame = 1u << 30;

// The protocol's version; hello carries it and the agent refuses another.
inline constexpr int kControlProtocol = 1;

class ControlChannel {
 public:
  explicit ControlChannel(int fd) : fd_(fd) {}
  ~ControlChannel();
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  // Connects to HOST:PORT (IPv4 literal or name) within timeout_s; throws RunError naming it.
  static ControlChannel connect(const std::string& host, int port, double timeout_s);
  ControlChannel(ControlChannel&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }

  // Throw RunError when the peer is gone (the cause in words).
  void send(const nlohmann::json& message);
  void send_bytes(const std::string& bytes);
  // Waits up to timeout_s (negative: forever) for a frame: nullopt when none came in time.
  // Throws RunError when the connection closed or broke, or a frame is malformed.
  std::optional<std::string> receive_frame(double timeout_s);
  std::optional<nlohmann::json> receive(double timeout_s);
  // receive() that also needs the message to be of `type` (a "refused" message throws its cause).
  nlohmann::json expect(const std::string& type, double timeout_s);

  int fd() const { return fd_; }
  // The peer's IPv4 address ("10.0.0.2"), empty when unknown.
  std::string peer_address() const;
  void close();

 private:
  int fd_ = -1;
};

// A refusal from the other side: its one-line cause, and whether it is a usage error (exit 2:
// a plan the agent cannot run) or a failure (exit 1: a server that did not start).
struct Refusal {
  std::string cause;
  bool usage = false;
};
std::optional<Refusal> refusal_of(const nlohmann::json& message);

// Token files: the whole file less surrounding white space; UsageError when it is missing,
// unreadable or empty.
std::string read_token_file(const std::string& path, const std::string& flag);
// Compares in time that depends only on the lengths (no early exit on the first difference).
bool tokens_equal(const std::string& a, const std::string& b);

// The `plan` message: the options of a session's server half (the client keeps --net, the
// driver's instance and everything it records itself), and back.
nlohmann::json plan_message(const RunOptions& options);
RunOptions options_from_plan(const nlohmann::json& plan);

// "HOST:PORT" → host and port; UsageError naming `flag` otherwise.
std::pair<std::string, int> parse_host_port(const std::string& text, const std::string& flag);

}  // namespace pictor::runner
