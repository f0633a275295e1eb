// Adapters (DESIGN §3): the display/proxy stack between the app and the client. Each starts its
// servers on a free display and a loopback port, says where the app runs and how a client
// connects, notices when one of its servers dies, and stops everything it started.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"

namespace pictor::runner {

struct AdapterOptions {
  Size size{1280, 720};
  std::string out_dir;        // server logs and the proxy hook's files go here
  // libpictor_proxyhook.so to preload into the VNC proxy (empty: the proxy runs unhooked).
  std::string proxy_hook;
  // Xvnc's -FrameRate (its cap on updates per second and client); 0 = kLatencyFrameRate.
  int frame_rate = 0;
};

// Xvnc's own default is 60 updates/s, which would bound every client FPS and add up to 16.7 ms of
// waiting to RTT; latency runs raise it so the cap is not what gets measured.
inline constexpr int kLatencyFrameRate = 240;

struct RfbEndpoint {
  std::string host = "127.0.0.1";
  int port = 0;
};

class Adapter {
 public:
  virtual ~Adapter() = default;
  virtual std::string name() const = 0;
  // The X display the app is started on.
  virtual std::string display() const = 0;
  // Where an RFB client connects; nullopt for `local` (the client reads the display itself).
  virtual std::optional<RfbEndpoint> rfb() const { return std::nullopt; }
  // The name and log file of the first server that is no longer running; nullopt while all run.
  virtual std::optional<std::string> dead() = 0;
  // For run.json: proxy program, version, command line and the options that matter.
  virtual nlohmann::json describe() const = 0;
  // Stops every server (proxy before display) and returns their entries for run.json's
  // `processes`. Idempotent.
  virtual std::vector<nlohmann::json> stop() = 0;
};

// Starts "local", "xvnc" or "x11vnc". Throws UsageError for an unknown name, RunError when a
// server is missing or fails to start (with its log named); nothing is left running then.
std::unique_ptr<Adapter> start_adapter(std::string_view name, const AdapterOptions& options);

std::vector<std::string> adapter_names();
bool is_remote_adapter(std::string_view name);

class Process;
// A process's entry in run.json's `processes`: name, pid, how it ended, status, exit code, signal.
nlohmann::json process_status_json(const Process& p, const std::string& how);

// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read, close).
int pick_free_port();

}  // namespace pictor::runner
