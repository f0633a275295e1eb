// What every proxy hook shares: the configuration read once at load, the table of RFB client
// connections (by fd) with their stream parsers, and the writer the hooks push records to.
#pragma once
#include <atomic>
#include <cstdint>

#include "proxyhook/event_writer.h"
#include "proxyhook/rfb_input_parser.h"

namespace pictor::proxyhook {

// Client fds at or above this are not followed (noted in proxy.json as missing connections).
inline constexpr int kMaxClientFd = 4096;

struct ClientConnection {
  std::atomic<bool> active{false};
  bool problem_reported = false;
  // Only the thread that reads this connection touches the parser (one reader per RFB client in
  // Xvnc and in libvncserver's threaded and unthreaded modes).
  RfbInputParser parser;
};

// Null while not recording (no PICTOR_OUT, another program than PICTOR_PROXY, or load failed).
EventWriter* writer() noexcept;
// PICTOR_PROXY_PORT, or -1 when unset (then every accepted TCP connection counts as a client).
int client_port() noexcept;

// The connection record of `fd` if it is an RFB client we follow, else null. Lock-free.
ClientConnection* client(int fd) noexcept;
// Starts/stops following fd (accept / close).
void open_client(int fd, int peer_port, int local_port) noexcept;
void close_client(int fd) noexcept;

// Feeds bytes a client sent (already read) to its parser; records the inputs they complete.
void client_bytes(int fd, ClientConnection& c, const void* data, std::size_t n, std::int64_t read_ns) noexcept;

void count_motion(std::uint64_t n) noexcept;
void count_read_bytes(std::uint64_t n) noexcept;
void count_untracked_fd() noexcept;

// Library load/unload.
void start_recording() noexcept;
void stop_recording() noexcept;

}  // namespace pictor::proxyhook
