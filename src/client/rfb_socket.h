// Socket helpers of the RFB client that libvncclient does not give: a TCP connect that says why it
// failed, the kernel's count of bytes read from a socket, and writes that cannot raise SIGPIPE.
#pragma once
#include <signal.h>

#include <cstdint>
#include <optional>
#include <string>

namespace pictor::client::rfb {

// A non-blocking TCP socket (TCP_NODELAY, close-on-exec) connected to host:port within timeout_s.
// Throws RunError "rfb: cannot connect to HOST:PORT: <reason>" (Connection refused, timed out
// after N s, unknown host).
int connect_tcp(const std::string& host, int port, double timeout_s);

// How many bytes of the stream the process has read from the socket so far: the kernel's
// tcpi_bytes_received minus what still waits in the receive queue. nullopt when the kernel does
// not say (not TCP, old kernel).
std::optional<std::int64_t> bytes_read_from(int fd);

// The bytes the kernel has sent and had acknowledged (tcpi_bytes_acked) and received
// (tcpi_bytes_received) on a TCP socket; nullopt when it does not say (not TCP, old kernel).
struct TcpBytes {
  std::uint64_t sent = 0, received = 0;
};
std::optional<TcpBytes> tcp_bytes(int fd);

// While alive, a write to a closed socket on this thread fails with EPIPE instead of killing the
// process (libvncclient writes with write(), not send(MSG_NOSIGNAL)); a SIGPIPE raised meanwhile
// is consumed before the mask is restored.
class SigpipeBlock {
 public:
  SigpipeBlock();
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t old_{};
  bool was_blocked_ = false;
};

}  // namespace pictor::client::rfb
