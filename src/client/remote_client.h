// The remote client (adapters over VNC): the same job as the local client, through the RFB
// protocol: inputs as KeyEvent/PointerEvent, frames as FramebufferUpdates, the marker read there.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "client/local_client.h"  // ClientStats
#include "drivers/driver.h"
#include "tag/marker_decode.h"
#include "tag/marker_layout.h"

namespace pictor::client {

struct RemoteClientOptions {
  std::string host = "127.0.0.1";
  int port = 0;                  // the VNC server (or the proxy / network relay in front of it)
  std::string out_dir;           // client_inputs.csv, client_frames.csv, client_updates.csv, rfb_client.log
  tag::Corner corner = tag::kDefaultCorner;
  // The app window in framebuffer coordinates (the runner finds it); width 0 = the whole framebuffer.
  tag::WindowRect window;
  // Its X window id on keycode_display (0: none): the client then follows the window when it
  // moves (pictor-launch moves a game's window on screen while it holds the inputs).
  unsigned long window_id = 0;
  // 1..100: sent as TigerVNC fine quality (-512 + q) and as the nearest quality level 0..9.
  int jpeg_quality = 80;
  std::string subsampling = "4:2:0";  // 4:4:4 | 4:2:2 | 4:2:0 | gray
  int compress_level = 1;             // 0..9
  // When the server offers them (TigerVNC); otherwise an incremental request after each update.
  bool continuous_updates = true;
  double connect_timeout_s = 10;
  double first_frame_timeout_s = 5;
  double warmup_s = 0.5;
  bool expect_marker = true;
  std::function<bool()> app_running;  // optional; false ends the wait for the first frame
  // The X display behind the server, when the client can reach it: the X keycode of each key is
  // looked up there and written as client_inputs.csv's `detail` (what the interposer records, so
  // the matcher can align reads with inputs); a launcher's hold on the inputs and the window's
  // moves are seen there too. Empty: the keysym is written instead, and nothing holds or moves.
  std::string keycode_display;
  // With no keycode_display: the keysym → X keycode table looked up behind the server by whoever
  // can reach its display (`pictor serve` on the render host, docs/two-hosts.md).
  std::map<unsigned, unsigned> keycodes;
};

// What the RFB side saw; complete once stop() returned.
struct RemoteClientStats {
  std::uint64_t updates = 0;          // FramebufferUpdates received (rows of client_updates.csv)
  std::uint64_t marker_updates = 0;   // of them, those whose rectangles touched the marker
  std::uint64_t bytes = 0;            // bytes of those updates on the wire (when known)
  std::uint64_t updates_without_bytes = 0;  // updates whose size the kernel did not tell
  std::int64_t first_update_ns = -1, last_update_ns = -1;  // end times
  tag::WindowRect window;             // the app window where the client last saw it
  nlohmann::json server;              // RemoteClient::server_info() at stop
};

class RemoteClient {
 public:
  // Connects and shakes hands (RfbConnection::open), checks the window against the framebuffer
  // (while a launcher holds the inputs: when it lets go), creates the files and starts the client
  // thread. Throws RunError naming the cause (cannot connect, handshake failed, window outside the
  // framebuffer, files not writable) or UsageError (bad quality, subsampling, compression level).
  static std::unique_ptr<RemoteClient> start(const RemoteClientOptions& options,
                                             std::unique_ptr<drivers::Driver> driver);
  ~RemoteClient();  // stop()
  RemoteClient(const RemoteClient&) = delete;
  RemoteClient& operator=(const RemoteClient&) = delete;

  // Ends the thread (within one loop turn; a read stuck in the middle of a message is cut after
  // 250 ms), releases held keys and buttons as tracked inputs, flushes the files and closes the
  // connection. Safe from any thread and more than once; every call returns the same stats.
  ClientStats stop();
  // Asks the driver for nothing more and releases what is held, but keeps receiving updates.
  void finish_inputs();
  // False once the thread ended by itself (server closed, garbage, write error); stop() then
  // returns the cause in ClientStats::failure.
  bool running() const;
  // For run.json (see RfbConnection::info()); safe from any thread.
  nlohmann::json server_info() const;
  // Bytes sent (acknowledged) and received on the connection so far, from the socket's TCP_INFO;
  // nullopt once stopped or when the kernel does not say. Safe from any thread.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> socket_bytes() const;
  // The RFB counts; complete after stop().
  RemoteClientStats rfb_stats() const;

  struct State;

 private:
  RemoteClient() = default;
  std::unique_ptr<State> state_;
};

}  // namespace pictor::client
