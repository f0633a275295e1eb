// One session: a private Xvfb, the app under the interposer for a given time, then teardown and
// the session directory's derived files (run.json, summary.json, frametime.png). DESIGN §5.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/units.h"
#include "drivers/driver.h"
#include "runner/container.h"

namespace pictor::runner {

// The shortest and longest session Pictor runs: under a second most apps have not presented their
// first frames yet (and a stall is a second without one); over a day is a typo, not a benchmark.
inline constexpr double kMinSessionS = 1.0;
inline constexpr double kMaxSessionS = 24 * 3600.0;

struct RunOptions {
  // Either a built-in scene spec ("spin:objects=500") or an external command.
  std::string builtin;
  std::vector<std::string> command;
  double duration_s = 10.0;
  Size size{1280, 720};
  std::string out_dir;                // empty: pictor-out/<time>-<name>, -2, -3… if that exists
  // out_dir holds an earlier session: delete what is in it instead of refusing (core/out_dir.h).
  bool force = false;
  std::vector<std::string> argv;      // pictor's own command line, for run.json
  bool quiet = false;
  bool hook = true;                   // false: run without the interposer (nothing recorded)
  // Input driver spec ("scripted:rate=5,keys=space|Left"); empty = no client, no inputs.
  std::string driver;
  // Optional: builds the driver instead of make_driver(driver) (e.g. a recording wrapper around
  // another driver); `driver` must then still be non-empty (it names the driver in messages).
  std::function<std::unique_ptr<drivers::Driver>()> driver_factory;
  // The display/proxy stack (DESIGN §3): "local" (Xvfb, local client), "xvnc" (TigerVNC's Xvnc),
  // "x11vnc" (Xvfb + x11vnc); the VNC adapters use Pictor's RFB client.
  std::string adapter = "local";
  // Longest wait for the app to map its window before the client gives up: 10 s for a builtin, a
  // profile's startup_timeout for a real game (which may take longer to load).
  double window_timeout_s = 10.0;
  // Emulated network between the RFB client and the proxy ("delay=20ms,rate=50mbit"; empty: none).
  std::string net;
  // How `net` is emulated: "relay" (Pictor's user-space TCP relay, no privileges) or "netem" (the
  // kernel's netem qdisc on loopback for the proxy's port; needs sch_netem and CAP_NET_ADMIN).
  std::string net_backend = "relay";
  int vnc_quality = 80;               // JPEG quality 1..100 the RFB client asks for
  std::string vnc_subsampling = "4:2:0";
  int vnc_frame_rate = 0;             // Xvnc -FrameRate; 0 = Pictor's default for latency runs
  std::string stream;                 // --adapter stream's options (docs/streaming.md); empty: defaults
  // With a driver: draw the tag marker (false measures tracking without it, for overhead runs;
  // RTT then stays unknown because the client cannot read tags).
  bool marker = true;
  bool overlay = false;               // --overlay: PICTOR_OVERLAY=1 for the app (docs/overlay.md)
  // --render native|offload[:device=D] (docs/offload.md): offload has the interposer serve the
  // app's GLX from EGL on a render device and copy every frame into the X server.
  std::string render = "native";
  std::string frame_copy;             // --frame-copy vgl|memo|async with offload; empty: vgl
  double grace_s = 2.0;               // SIGTERM → SIGKILL grace period
  // How often the resource sampler reads /proc, counters, GPU and power (resources.csv), 10 ms..10 s.
  double sample_interval_s = 0.1;
  bool resources = true;              // false: no resource sampler (its overhead bench compares)
  // HOST:PORT to serve the session's live figures on in Prometheus text format while it runs
  // (metrics_server.h); empty: none.
  std::string metrics_listen;
  // --container podman (runner/container.h): the stack's X server, proxy and app run inside one.
  ContainerSpec container;
  // --server HOST:PORT: the server half runs on another host under `pictor serve`, reached with
  // the token in token_file (docs/two-hosts.md); empty: everything on this host.
  std::string server;
  std::string token_file;
};

struct RunResult {
  std::string dir;
  // 0 ok; 1 the app failed (results kept); 128 + N when interrupted by signal N (130 for Ctrl-C,
  // 143 for SIGTERM), like a shell's status for a command it interrupted (docs/faults.md).
  int exit_code = 0;
  std::string status;                 // run.json's: "ok", "failed", "interrupted"
  std::string failure;                // one line when exit_code != 0
  nlohmann::json summary;             // summary.json content (null when not written)
};

// Throws pictor::UsageError for bad options (missing command, a duration outside
// [kMinSessionS, kMaxSessionS], bad scene options, an --out holding an earlier session without
// force, unwritable --out) before anything starts; every other failure is returned in RunResult
// with everything recorded so far kept.
RunResult run_session(const RunOptions& options);

// Fills frames.csv's empty gpu_ms cells from gpu.csv (results that arrived after the row was
// written). Returns the number of cells filled. Throws files::WriteError when frames.csv cannot
// be rewritten (a full disk): it is then left as the interposer wrote it.
std::size_t merge_late_gpu(const std::string& session_dir);

}  // namespace pictor::runner
