// One RFB (VNC) connection through libvncclient: the handshake, the encodings Pictor asks for,
// TigerVNC continuous updates and fences, and every FramebufferUpdate timed and measured in bytes.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/rfb_encodings.h"
#include "tag/marker_decode.h"

namespace pictor::client {

struct RfbConnectionOptions {
  std::string host = "127.0.0.1";
  int port = 0;
  rfb::EncodingsRequest encodings;
  double connect_timeout_s = 10;  // TCP connect and the whole handshake
  // Longest wait for the rest of a message once it began arriving (libvncclient's read timeout,
  // whole seconds); a server that stalls mid-message fails the connection after this.
  int read_timeout_s = 10;
};

// One FramebufferUpdate as received. Times are CLOCK_MONOTONIC ns.
struct RfbUpdate {
  std::int64_t start_ns = 0;  // its first byte was available to the client (see handle_message)
  std::int64_t end_ns = 0;    // libvncclient finished decoding it into the framebuffer
  int rects = 0;              // rectangles that changed pixels (pseudo-encodings not counted)
  std::optional<std::int64_t> bytes;  // bytes of the message on the wire; nullopt: TCP_INFO failed
  std::optional<std::int64_t> offset; // stream position of its first byte (server bytes before it)
  int x = 0, y = 0, w = 0, h = 0;     // bounding box of those rectangles (w = 0: none)
  std::vector<tag::WindowRect> rect_list;  // the rectangles themselves
};

class RfbConnection {
 public:
  // Connects, shakes hands (security type None), sets the pixel format (32-bit) and sends the
  // encodings, and asks for the whole framebuffer. Throws RunError "rfb: ..." naming the cause:
  // "rfb: cannot connect to HOST:PORT: Connection refused", "rfb: handshake with HOST:PORT
  // failed: ...".
  static std::unique_ptr<RfbConnection> open(const RfbConnectionOptions& options);
  ~RfbConnection();
  RfbConnection(const RfbConnection&) = delete;
  RfbConnection& operator=(const RfbConnection&) = delete;

  int fd() const;
  // True when part of the next message already sits in libvncclient's read buffer: the socket
  // may then not be readable although a message is waiting.
  bool has_buffered() const;
  // Reads and handles one server message (blocking until it is complete, bounded by the read
  // timeout). `start_ns` is when its first byte was known to be available: the poll that saw the
  // socket readable, or the previous message's end when it was already buffered. Returns the
  // update when the message was a FramebufferUpdate. Throws RunError naming the cause: "rfb:
  // server closed the connection", "rfb: unknown message type 0x77", ...
  std::optional<RfbUpdate> handle_message(std::int64_t start_ns);

  // Input events; false when the write failed (the next handle_message reports why).
  bool send_key(std::uint32_t keysym, bool down);
  bool send_pointer(int x, int y, int button_mask);

  // The client's copy of the framebuffer (rgbx, origin top-left).
  tag::ImageView framebuffer() const;
  int width() const;
  int height() const;
  bool continuous_updates() const;  // enabled (the server offered them and they were asked for)
  std::uint64_t fences() const;     // fence requests answered
  // For run.json: desktop name, protocol version, framebuffer size, pixel format, encodings sent
  // (names and numbers), quality, subsampling, continuous updates.
  nlohmann::json info() const;
  // The lines libvncclient logged for this connection (it logs through process globals; they are
  // captured here, never printed).
  std::vector<std::string> log_lines() const;
  // From another thread: makes a read in progress fail at once (used by stop()).
  void shutdown_reading();

  struct State;

 private:
  RfbConnection() = default;
  std::unique_ptr<State> state_;
};

// The encodings libvncclient 0.9.x's own SetFormatAndEncodings sends for Tight with JPEG and
// remote cursor, read back through a socket pair (so a different libvncclient version is
// followed, not assumed).
std::vector<std::int32_t> libvncclient_encodings();

}  // namespace pictor::client
