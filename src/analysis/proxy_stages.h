// Remote-adapter attribution (DESIGN §3: CS SP CP SS for xvnc/x11vnc): the timestamps the proxy
// hooks recorded (proxy_events.csv), tied to the RFB client's updates (client_updates.csv).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pictor::analysis {

struct RttTimeline;
struct MatchedInput;

// proxy_events.csv `input`: a key or button change the proxy read from the client's socket.
struct ProxyInput {
  std::int64_t read_ns = 0;  // when the read that completed the RFB message returned
  bool key = true;           // key (keysym in detail) or button (button number in detail)
  bool down = true;
  std::int64_t detail = 0;
  int fd = -1;
};

// proxy_events.csv `deliver`: x11vnc handing an input to the X server (XTestFake*Event).
struct ProxyDelivery {
  std::int64_t start_ns = 0, end_ns = 0;
  bool key = true;
  bool down = true;
  std::int64_t detail = 0;  // X keycode or button
};

// proxy_events.csv `jpeg`, `zlib`, `lzo`: one call of an encoder the proxy links (a JPEG
// rectangle, a deflate call, ...). Any of them is the proxy encoding an update (CP).
struct ProxyEncoderCall {
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t bytes = -1;   // compressed bytes produced; -1 unknown
  std::string kind;          // jpeg, zlib, lzo
  std::string call;          // the function (`call` column; empty in files without it)
  int width = -1, height = -1, quality = -1;  // jpeg only
};

// proxy_events.csv `write`: one socket write to a client.
struct ProxyWrite {
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t bytes = 0;
  int fd = -1;
};

// proxy_events.csv `cork`: setsockopt(TCP_CORK) on a client fd. Xvnc corks the socket around
// each update it writes, so the kernel sends nothing of it before the uncork.
struct ProxyCork {
  std::int64_t ns = 0;  // the call began
  int fd = -1;
  bool on = true;
};

struct ProxyConnection {
  int fd = -1;
  std::int64_t ns = 0;  // accept returned
};

// Everything proxy_events.csv holds, each list in start order.
struct ProxyEvents {
  std::vector<ProxyInput> inputs;
  std::vector<ProxyDelivery> deliveries;
  std::vector<ProxyEncoderCall> encoder_calls;
  std::vector<ProxyWrite> writes;
  std::vector<ProxyCork> corks;
  std::vector<ProxyConnection> connections;  // in connect order
};

// client_updates.csv (RFB client): one FramebufferUpdate as the client received it.
struct ClientUpdate {
  std::uint64_t update = 0;
  std::int64_t start_ns = 0;  // first byte of the update available at the client
  std::int64_t end_ns = 0;    // update fully received and applied (= client_frames seen_ns)
  int rects = 0;
  std::int64_t bytes = 0;
  int x = 0, y = 0, w = 0, h = 0;  // bounding box of its rectangles
  bool marker = false;             // touched the tag marker's region
  // Stream position of the update's first byte (server bytes before it); nullopt in files
  // without the column (then the proxy's writes are tied to the update by time only).
  std::optional<std::int64_t> offset;
};

// Adds the proxy's timestamps to the paths of `inputs` (match_timeline's result for `t`): its read
// of each input, x11vnc's delivery, and the start of the update that carried the response and the
// moment its first byte could leave (docs/proxy-hooks.md, "Attribution"). Leaves local sessions
// (no client_updates.csv, no proxy_events.csv) as they are. Appends what it decided to notes.
void attribute_remote_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes);

}  // namespace pictor::analysis
