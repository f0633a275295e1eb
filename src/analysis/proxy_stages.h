// Remote-adapter stage attribution (DESIGN §3: CS SP PS CP SS, AS and FC for xvnc/x11vnc): what the
// proxy hooks recorded (proxy_events.csv) and the RFB client's updates (client_updates.csv).
#pragma once
#include <cstdint>
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

// proxy_events.csv `jpeg`: one JPEG compression (one rectangle of an update).
struct ProxyCompression {
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t bytes = -1;
  int width = -1, height = -1, quality = -1;
};

// proxy_events.csv `write`: one socket write to a client.
struct ProxyWrite {
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t bytes = 0;
  int fd = -1;
};

// Everything proxy_events.csv holds, each list in start order.
struct ProxyEvents {
  std::vector<ProxyInput> inputs;
  std::vector<ProxyDelivery> deliveries;
  std::vector<ProxyCompression> compressions;
  std::vector<ProxyWrite> writes;
  std::vector<int> connections;  // client fds in connect order
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
};

// Fills the remote stages of `inputs` (match_timeline's result for `t`): CS, SP, CP, SS, and for
// remote sessions PS and AS by the remote rules (docs/proxy-hooks.md). Leaves local sessions (no
// client_updates.csv, no proxy_events.csv) as they are. Appends what it had to decide to notes.
void attribute_remote_stages(const RttTimeline& t, std::span<MatchedInput> inputs, std::vector<std::string>& notes);

}  // namespace pictor::analysis
