// The stream adapter's client half, inside pictor: receives the H.264 RTP stream with GStreamer's
// own elements (udpsrc or tcpclientsrc → rtph264depay → avdec_h264 → appsink), reads the marker
// in every decoded frame, and sends the driver's inputs back to the server's input agent over TCP.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "client/local_client.h"  // ClientStats
#include "drivers/driver.h"
#include "stream/stream_options.h"
#include "tag/marker_decode.h"

namespace pictor::stream {

struct StreamClientOptions {
  std::string out_dir;   // client_inputs.csv, client_frames.csv, stream_received.csv
  Transport transport = Transport::udp;
  int udp_port = 0;      // udp: the port the client receives on (127.0.0.1)
  int tcp_port = 0;      // tcp: the server's (or the relay's) port
  int input_port = 0;    // the input agent (or the relay before it)
  tag::WindowRect window;            // the app window on the server's screen = in the video frame
  std::string server_display;        // keycodes, the launcher's hold (same machine)
  // With no server_display: the keysym → keycode table looked up on the server's display by
  // whoever reaches it (`pictor serve`, docs/two-hosts.md).
  std::map<unsigned, unsigned> keycodes;
  double connect_timeout_s = 10;
  double first_frame_timeout_s = 5;
  double warmup_s = 0.5;
  bool expect_marker = true;
  std::function<bool()> app_running;
};

class StreamClient {
 public:
  // Builds and starts the receiving pipeline, connects the input channel, creates the files and
  // starts the client thread. Throws RunError naming the cause (GStreamer element missing, port
  // taken, agent unreachable, key not on the server's keyboard).
  static std::unique_ptr<StreamClient> start(const StreamClientOptions& options,
                                             std::unique_ptr<drivers::Driver> driver);
  ~StreamClient();
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;

  client::ClientStats stop();
  void finish_inputs();
  bool running() const;
  // run.json's `stream.client`: frames decoded, decoder errors, RTP packets received, lost and
  // out of order, bytes. Complete after stop().
  nlohmann::json stats_json() const;

  struct State;

 private:
  StreamClient() = default;
  std::unique_ptr<State> state_;
};

}  // namespace pictor::stream
