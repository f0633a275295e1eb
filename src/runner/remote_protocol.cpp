#include "runner/remote_protocol.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"

namespace pictor::runner {

namespace {

void write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw RunError(std::string("the control connection broke: ") + std::strerror(errno));
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Reads exactly n bytes. Before the first byte of a frame (`first`) it waits until deadline_ns
// (negative: forever) and returns false when nothing came; once a frame has begun it is read
// whole, each part within 10 s (its sender is writing it now).
bool read_all(int fd, char* data, std::size_t n, std::int64_t deadline_ns, bool first) {
  std::size_t got = 0;
  while (got < n) {
    const bool waiting = first && got == 0;
    int wait_ms = 10000;
    if (waiting) wait_ms = deadline_ns < 0 ? -1 : static_cast<int>(std::max<std::int64_t>(0, (deadline_ns - monotonic_ns()) / 1'000'000));
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      if (waiting) return false;
      throw RunError("the control connection stalled in the middle of a message");
    }
    const ssize_t k = ::recv(fd, data + got, n - got, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k == 0) throw RunError("the other side closed the control connection");
    if (k < 0) throw RunError(std::string("the control connection broke: ") + std::strerror(errno));
    got += static_cast<std::size_t>(k);
  }
  return true;
}

}  // namespace

ControlChannel::~ControlChannel() { close(); }

void ControlChannel::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

ControlChannel ControlChannel::connect(const std::string& host, int port, double timeout_s) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string where = fmt::format("{}:{}", host, port);
  if (const int e = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res); e != 0)
    throw RunError(fmt::format("cannot reach the agent at {}: {}", where, ::gai_strerror(e)));
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    ::freeaddrinfo(res);
    throw RunError(std::string("cannot create a socket: ") + std::strerror(errno));
  }
  ControlChannel c(fd);
  const int r = ::connect(fd, res->ai_addr, res->ai_addrlen);
  ::freeaddrinfo(res);
  int err = r == 0 ? 0 : errno;
  if (r != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, static_cast<int>(timeout_s * 1000)) <= 0)
      throw RunError(fmt::format("cannot reach the agent at {}: no answer in {:g} s", where, timeout_s));
    socklen_t len = sizeof err;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  }
  if (err != 0) throw RunError(fmt::format("cannot reach the agent at {}: {}", where, std::strerror(err)));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // clock probes must not wait for Nagle
  return c;
}

void ControlChannel::send(const nlohmann::json& message) { send_bytes(message.dump()); }

void ControlChannel::send_bytes(const std::string& bytes) {
  if (fd_ < 0) throw RunError("the control connection is closed");
  if (bytes.size() > kMaxControlFrame) throw RunError("a control message is larger than 1 GiB");
  const std::uint32_t n = htonl(static_cast<std::uint32_t>(bytes.size()));
  std::string frame(reinterpret_cast<const char*>(&n), 4);
  frame += bytes;
  write_all(fd_, frame.data(), frame.size());
}

std::optional<std::string> ControlChannel::receive_frame(double timeout_s) {
  if (fd_ < 0) throw RunError("the control connection is closed");
  const std::int64_t deadline = timeout_s < 0 ? -1 : monotonic_ns() + static_cast<std::int64_t>(timeout_s * 1e9);
  std::uint32_t n = 0;
  if (!read_all(fd_, reinterpret_cast<char*>(&n), 4, deadline, true)) return std::nullopt;
  n = ntohl(n);
  if (n > kMaxControlFrame) throw RunError(fmt::format("a control message of {} bytes is larger than 1 GiB", n));
  std::string payload(n, '\0');
  if (n > 0) read_all(fd_, payload.data(), n, deadline, false);
  return payload;
}

std::optional<nlohmann::json> ControlChannel::receive(double timeout_s) {
  const std::optional<std::string> frame = receive_frame(timeout_s);
  if (!frame) return std::nullopt;
  nlohmann::json m = nlohmann::json::parse(*frame, nullptr, false);
  if (!m.is_object() || !m.contains("type") || !m["type"].is_string())
    throw RunError("the control connection carried a message that is no JSON object with a type");
  return m;
}

nlohmann::json ControlChannel::expect(const std::string& type, double timeout_s) {
  const std::optional<nlohmann::json> m = receive(timeout_s);
  if (!m) throw RunError(fmt::format("no '{}' message in {:g} s", type, timeout_s));
  if (const std::optional<Refusal> r = refusal_of(*m)) {
    if (r->usage) throw UsageError(r->cause);
    throw RunError(r->cause);
  }
  if ((*m)["type"] != type)
    throw RunError(fmt::format("expected a '{}' message, got '{}'", type, (*m)["type"].get<std::string>()));
  return *m;
}

std::string ControlChannel::peer_address() const {
  sockaddr_in sa{};
  socklen_t len = sizeof sa;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&sa), &len) != 0 || sa.sin_family != AF_INET) return "";
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &sa.sin_addr, text, sizeof text);
  return text;
}

std::optional<Refusal> refusal_of(const nlohmann::json& message) {
  if (message.value("type", "") != "refused") return std::nullopt;
  return Refusal{message.value("cause", "refused without a cause"), message.value("usage", false)};
}

std::string read_token_file(const std::string& path, const std::string& flag) {
  if (path.empty()) throw UsageError(flag + " is required: a file holding the shared token (docs/two-hosts.md)");
  std::string text;
  try {
    text = files::read_input_file(path);
  } catch (const std::exception& e) {
    throw UsageError(flag + ": " + e.what());
  }
  const auto first = text.find_first_not_of(" \t\r\n");
  const auto last = text.find_last_not_of(" \t\r\n");
  if (first == std::string::npos) throw UsageError(flag + " " + path + " is empty: put the shared token in it");
  return text.substr(first, last - first + 1);
}

bool tokens_equal(const std::string& a, const std::string& b) {
  const std::size_t n = std::max(a.size(), b.size());
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned>(x ^ y);
  }
  return diff == 0;
}

nlohmann::json plan_message(const RunOptions& o) {
  return {{"type", "plan"},
          {"builtin", o.builtin},
          {"command", o.command},
          {"duration_s", o.duration_s},
          {"width", o.size.width},
          {"height", o.size.height},
          {"hook", o.hook},
          {"driver", o.driver},
          {"marker", o.marker},
          {"overlay", o.overlay},
          {"render", o.render},
          {"frame_copy", o.frame_copy},
          {"adapter", o.adapter},
          {"vnc_quality", o.vnc_quality},
          {"vnc_subsampling", o.vnc_subsampling},
          {"vnc_frame_rate", o.vnc_frame_rate},
          {"stream", o.stream},
          {"grace_s", o.grace_s},
          {"resources", o.resources},
          {"sample_interval_s", o.sample_interval_s}};
}

RunOptions options_from_plan(const nlohmann::json& m) {
  RunOptions o;
  try {
    o.builtin = m.value("builtin", "");
    o.command = m.value("command", std::vector<std::string>{});
    o.duration_s = m.value("duration_s", 10.0);
    o.size = {m.value("width", 1280), m.value("height", 720)};
    o.hook = m.value("hook", true);
    o.driver = m.value("driver", "");
    o.marker = m.value("marker", true);
    o.overlay = m.value("overlay", false);
    o.render = m.value("render", "native");
    o.frame_copy = m.value("frame_copy", "");
    o.adapter = m.value("adapter", "xvnc");
    o.vnc_quality = m.value("vnc_quality", 80);
    o.vnc_subsampling = m.value("vnc_subsampling", "4:2:0");
    o.vnc_frame_rate = m.value("vnc_frame_rate", 0);
    o.stream = m.value("stream", "");
    o.grace_s = m.value("grace_s", 2.0);
    // The render host's sampler (docs/two-hosts.md "Resources"); an older client sends neither.
    o.resources = m.value("resources", false);
    o.sample_interval_s = m.value("sample_interval_s", o.sample_interval_s);
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(std::string("the plan message has a field of the wrong type: ") + e.what());
  }
  o.quiet = true;
  return o;
}

std::pair<std::string, int> parse_host_port(const std::string& text, const std::string& flag) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError(fmt::format("{} '{}' is not HOST:PORT (e.g. 10.0.0.1:7300)", flag, text));
  const std::string port = text.substr(colon + 1);
  char* end = nullptr;
  const long p = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || p < 1 || p > 65535)
    throw UsageError(fmt::format("{} '{}': the port must be 1..65535", flag, text));
  return {text.substr(0, colon), static_cast<int>(p)};
}

}  // namespace pictor::runner
