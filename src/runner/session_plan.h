// A session's plan (docs/architecture.md "The runner in phases"): every option of RunOptions
// checked and resolved before anything starts — the app's argv and label, the adapter, the
// network emulation, the driver, the interposer libraries — so bad input is a UsageError while no
// process exists yet. One plan per stack: N instances are N plans, a colocated pair two.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "net/spec.h"
#include "runner/session.h"

namespace pictor::runner {

// --render and --frame-copy as the app's interposer takes them (docs/offload.md).
struct RenderSpec {
  bool offload = false;
  std::string device;      // offload:device=D; empty: the first EGL device, else surfaceless
  std::string frame_copy;  // offload: vgl, memo or async; empty when native
};
inline constexpr const char* kFrameCopies[] = {"vgl", "memo", "async"};
// Throws UsageError naming the option for a value it does not know.
RenderSpec parse_render(const std::string& render, const std::string& frame_copy);
// The PICTOR_* variables that set it in the app (nothing for native).
std::map<std::string, std::string> render_environment(const RenderSpec& spec);
// run.json's and summary.json's "render": {"mode", "device", "frame_copy"}.
nlohmann::json render_json(const RenderSpec& spec);

struct SessionPlan {
  RunOptions options;                      // as given (options.out_dir is the stack's directory)
  std::string label;                       // "builtin:spin:objects=500", or the command's program
  std::vector<std::string> argv;           // what is spawned
  bool remote = false;                     // the adapter serves RFB (the client is the RFB client)
  std::string display;                     // --adapter display:DISPLAY: that display; empty otherwise
  net::NetSpec net_spec;
  bool use_netem = false;                  // --net-backend netem with something to emulate
  std::string hook_lib, proxy_hook_lib;    // empty when not preloaded
  std::unique_ptr<drivers::Driver> driver; // null: no client, no inputs
  RenderSpec render;                       // --render / --frame-copy, checked
  // `pictor serve` runs this plan's server half: the client and its driver are on another host
  // (docs/two-hosts.md), so the stack starts no client; the driver only says what the app needs.
  bool server_half = false;
};

// Throws UsageError for bad options (see run_session) and RunError when the app host of a
// built-in scene is missing; starts nothing, writes nothing.
SessionPlan plan_session(const RunOptions& options);
// Fills hook_lib and proxy_hook_lib (RunError when one is needed and missing): after the session
// directory is claimed, as the runner always did.
void locate_libraries(SessionPlan& plan);

// The driver spec of instance `index` (0-based) of `spec`: a driver that declares a `seed` option
// (drivers::DriverInfo) gets its seed, given or defaulted, N as `seed=N+index`, re-issued through
// its declarations; every other one the same spec (a recording replays as recorded).
std::string instance_driver_spec(const std::string& spec, int index);

// "pictor-out/<local time>-<name>" with the name cut to letters, digits and '-'.
std::string default_session_dir(const std::string& name);

}  // namespace pictor::runner
