// Adapters (DESIGN §3): the display/proxy stack between the app and the client. Each starts its
// servers on a free display and a loopback port, says where the app runs and how a client
// connects, notices when one of its servers dies, and stops everything it started.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/local_client.h"  // ClientStats
#include "core/options.h"
#include "core/units.h"
#include "drivers/driver.h"
#include "net/spec.h"
#include "resources/sampler.h"  // NetworkSource

namespace pictor::runner {

class Container;

struct AdapterOptions {
  Size size{1280, 720};
  std::string out_dir;        // server logs and the proxy hook's files go here
  // libpictor_proxyhook.so to preload into the VNC proxy (empty: the proxy runs unhooked).
  std::string proxy_hook;
  // Xvnc's -FrameRate (its cap on updates per second and client); 0 = kLatencyFrameRate.
  int frame_rate = 0;
  // Adapters that run their own network path (stream): the --stream options, the emulated
  // network and how it is emulated ("relay" or "netem").
  std::string stream;
  net::NetSpec net;
  std::string net_backend = "relay";
  // --container: the servers run inside it, listening on its published port (xvnc only).
  const Container* container = nullptr;
  // The JPEG quality the client asks for (--vnc-quality); a stock viewer (vncviewer) is given the
  // Tight quality level nearest to it.
  int vnc_quality = 80;
  // --adapter display:DISPLAY: the X display, already running, that the app is started on.
  std::string display;
};

// The client of an adapter that brings its own (stream), as the session drives it.
class AdapterClient {
 public:
  virtual ~AdapterClient() = default;
  virtual client::ClientStats stop() = 0;
  virtual void finish_inputs() = 0;
  virtual bool running() const = 0;
  virtual nlohmann::json describe() const = 0;  // run.json `client.adapter`, complete after stop()
};

struct AdapterClientOptions {
  std::string out_dir;
  bool expect_marker = true;
  std::function<bool()> app_running;
  double window_timeout_s = 10.0;  // RunOptions::window_timeout_s
};

// Xvnc's own default is 60 updates/s, which would bound every client FPS and add up to 16.7 ms of
// waiting to RTT; latency runs raise it so the cap is not what gets measured.
inline constexpr int kLatencyFrameRate = 240;

struct RfbEndpoint {
  std::string host = "127.0.0.1";
  int port = 0;
};

// A server of an adapter that ended while the session ran, as the first cause of the ones that did.
struct ServerEnd {
  std::string name;                   // "Xvfb", "Xvnc", "x11vnc"
  std::string log;                    // its log file
  std::string how;                    // "killed by SIGKILL from outside pictor", "crashed (SIGSEGV)", "exited (exit 1)"
  std::int64_t seen_ns = 0;           // CLOCK_MONOTONIC when Pictor saw it had ended
  std::vector<std::string> followed;  // the adapter's servers that ended after it (x11vnc after its Xvfb)
};

// Why Pictor stops a process, for run.json's `ended` ("after the duration", "when interrupted",
// "after Xvfb died"), and the time the session's clock counts from (the app's start).
struct StopContext {
  std::string reason = "at the end of the session";
  std::int64_t session_start_ns = 0;
};

class Adapter {
 public:
  virtual ~Adapter() = default;
  virtual std::string name() const = 0;
  // The X display the app is started on.
  virtual std::string display() const = 0;
  // Where an RFB client connects; nullopt for `local` (the client reads the display itself).
  virtual std::optional<RfbEndpoint> rfb() const { return std::nullopt; }
  // The first of its servers that ended (the earliest seen; of two seen at once the display
  // server, which the proxy needs), with the ones that followed it; nullopt while all run.
  virtual std::optional<ServerEnd> dead() = 0;
  // Its servers that are suspended (SIGSTOP): they answer nothing, so the app freezes with them.
  virtual std::vector<std::string> suspended() const = 0;
  // {name, pid} of each server, for run.json while the session runs.
  virtual std::vector<nlohmann::json> running_processes() const = 0;
  // For run.json: proxy program, version, command line and the options that matter.
  virtual nlohmann::json describe() const = 0;
  // Stops every server (proxy before display) and returns their entries for run.json's
  // `processes` (process_status_json). Idempotent: a second call returns the first call's entries.
  virtual std::vector<nlohmann::json> stop(const StopContext& context = {}) = 0;
  // Whether the session's client is the adapter's own (start_client) rather than the local or
  // the RFB client.
  virtual bool has_own_client() const { return false; }
  // Where the bytes between that own client (a stock viewer, the stream client) and its server are
  // counted, for the resource sampler's network figures: Pictor's --net relays on its path;
  // nullopt when the client connects to the server directly and nothing counts them. Read on the
  // sampler's thread while the adapter lives.
  virtual std::optional<resources::NetworkSource> own_client_network() const { return std::nullopt; }
  // Starts it once the app runs; throws RunError as the other clients' start does.
  virtual std::unique_ptr<AdapterClient> start_client(const AdapterClientOptions&, std::unique_ptr<drivers::Driver>) {
    return nullptr;
  }
};

// Starts "local", "xvnc", "x11vnc", "stream", "vncviewer", "xpra" or "display" (which starts nothing: it opens
// options.display). Throws UsageError for an unknown name, RunError when a server is missing or fails to start
// (with its log named), or the display cannot be opened; nothing is left running then.
std::unique_ptr<Adapter> start_adapter(std::string_view name, const AdapterOptions& options);

// An adapter as data: its name, one line, and the options its spec "NAME[:k=v,...]" takes
// (core/options.h; `display` takes its X display as the leading value, the others nothing), for
// `pictor list` and the check below.
struct AdapterInfo {
  std::string name;
  std::string summary;
  options::OptionSet options;
};
const std::vector<AdapterInfo>& adapter_infos();
std::vector<std::string> adapter_names();
// The adapter's name in a spec "NAME[:option=value,...]" (`--adapter`), once checked: throws
// UsageError naming every known adapter unless NAME is one of adapter_names(), and, in
// core/options.h's wording, for an option it does not declare or a bad value.
std::string require_adapter_name(std::string_view spec);
// The spec checked as require_adapter_name does, and what it says: the name and, for
// `display:DISPLAY`, the display (empty for every other adapter).
struct AdapterChoice {
  std::string name;
  std::string display;
};
AdapterChoice parse_adapter_spec(std::string_view spec);
bool is_remote_adapter(std::string_view name);
// Whether libpictor_proxyhook.so is preloaded into the adapter's proxy (the VNC servers; the
// stream server times itself with pad probes).
bool takes_proxy_hook(std::string_view name);
// Checks an adapter's own options before anything starts (--stream for `stream`); throws
// UsageError naming the bad part, or when options are given to an adapter that takes none.
void check_adapter_options(std::string_view name, const std::string& stream_options);

class Process;
// A process's entry in run.json's `processes`: name, pid, status, exit_code, signal, ended_by
// (pictor / itself / outside), ended (one sentence: who ended it and why), ended_s (seconds from
// context.session_start_ns to when Pictor saw it end), suspended_at_end when it was. `after`: what
// had ended before it and explains an end by itself ("Xvfb died"), empty when nothing did.
nlohmann::json process_status_json(const Process& p, const StopContext& context, const std::string& after = "");
// How a process that ended without Pictor's stop ended, in words: "exited (exit 1)", "crashed
// (SIGSEGV)", "killed by SIGKILL from outside pictor".
std::string how_it_ended(const Process& p);

// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read, close).
int pick_free_port();

// Shared by the adapters' files:
// The first line `argv` prints that contains `must_contain` (a --version banner), for run.json;
// empty when the program is missing or prints no such line.
std::string program_version(std::vector<std::string> argv, const std::string& must_contain);
// The last non-empty line of a server's log, for the one-line error of a failed start.
std::string last_log_line(const std::string& path);
// A server's end for Adapter::dead(): nullopt while it runs.
std::optional<ServerEnd> server_end(Process& p, const std::string& name, const std::string& log);
// The first of several servers' ends: the earliest seen (poll the display server first, so of
// two that died together the one the other needs is first), the rest in `followed`.
std::optional<ServerEnd> first_server_end(std::vector<ServerEnd> ends);

}  // namespace pictor::runner
