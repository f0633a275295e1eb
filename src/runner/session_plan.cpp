#include "runner/session_plan.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <fmt/format.h>

#include "apps/scene.h"
#include "core/error.h"
#include "core/exec.h"
#include "core/options.h"
#include "core/time_text.h"
#include "core/units.h"
#include "runner/adapter.h"
#include "runner/install_paths.h"
#include "runner/session_resources.h"

namespace pictor::runner {

std::string default_session_dir(const std::string& name) {
  std::string clean;
  for (char c : name) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return "pictor-out/" + local_stamp_now() + "-" + clean.substr(0, 40);
}

RenderSpec parse_render(const std::string& render, const std::string& frame_copy) {
  RenderSpec spec;
  if (render == "offload" || render.rfind("offload:", 0) == 0) {
    spec.offload = true;
    if (render.size() > 8) {
      const std::string option = render.substr(8);
      if (option.rfind("device=", 0) != 0 || option.size() == 7)
        throw UsageError("--render offload takes one option, device=D (an EGL device index, a DRM node or a vendor "
                         "name; got '" + option + "')");
      spec.device = option.substr(7);
    }
  } else if (render != "native") {
    throw UsageError("unknown --render '" + render + "' (native, offload or offload:device=D)");
  }
  if (!frame_copy.empty()) {
    if (!spec.offload) throw UsageError("--frame-copy is the copy of --render offload: add --render offload");
    if (std::find(std::begin(kFrameCopies), std::end(kFrameCopies), frame_copy) == std::end(kFrameCopies))
      throw UsageError("unknown --frame-copy '" + frame_copy + "' (vgl, memo or async)");
  }
  if (spec.offload) spec.frame_copy = frame_copy.empty() ? "vgl" : frame_copy;
  return spec;
}

std::map<std::string, std::string> render_environment(const RenderSpec& spec) {
  if (!spec.offload) return {};
  std::map<std::string, std::string> env{{"PICTOR_RENDER", "offload"}, {"PICTOR_FRAME_COPY", spec.frame_copy}};
  if (!spec.device.empty()) env["PICTOR_OFFLOAD_DEVICE"] = spec.device;
  return env;
}

nlohmann::json render_json(const RenderSpec& spec) {
  if (!spec.offload) return {{"mode", "native"}};
  nlohmann::json j{{"mode", "offload"}, {"frame_copy", spec.frame_copy}};
  // Only a device asked for: the one the interposer chose is in hook.json.
  if (!spec.device.empty()) j["device"] = spec.device;
  return j;
}

SessionPlan plan_session(const RunOptions& options) {
  SessionPlan plan;
  plan.options = options;
  if (!options.builtin.empty()) {
    // Check the scene and its options here, so a typo is a usage error before anything starts.
    const apps::SceneSpec spec = apps::parse_scene_spec(options.builtin);
    const apps::SceneInfo* info = apps::find_scene(spec.name);
    if (!info) {
      std::string names;
      for (const auto& s : apps::scene_registry()) names += (names.empty() ? "" : ", ") + s.name;
      throw UsageError("unknown built-in scene '" + spec.name + "' (built-in scenes: " + names + ")");
    }
    apps::SceneOptions(info->make()->options(), spec.options, spec.name);
    // With --server the app runs on the render host, which finds its own pictor-app.
    plan.argv = {options.server.empty() ? find_app_binary() : std::string("pictor-app"), options.builtin, "--size",
                 std::to_string(options.size.width) + "x" + std::to_string(options.size.height)};
    plan.label = "builtin:" + options.builtin;
  } else {
    if (options.command.empty()) throw UsageError("no command given (pictor run -- COMMAND or builtin:NAME)");
    // With --server the command is looked up where it runs: the render host's plan check.
    if (options.server.empty() && !find_executable(options.command[0]))
      throw UsageError("command not found: " + options.command[0]);
    plan.argv = options.command;
    plan.label = options.command[0];
  }
  if (!(options.duration_s >= kMinSessionS && options.duration_s <= kMaxSessionS))
    throw UsageError(fmt::format("--duration must be between {} and {} (got {:g} s)", format_duration(kMinSessionS),
                                 format_duration(kMaxSessionS), options.duration_s));
  check_sample_interval(options.sample_interval_s);
  // From here on the adapter is its name (`--adapter NAME:options` checked); display:DISPLAY's
  // display is kept beside it.
  const AdapterChoice adapter = parse_adapter_spec(options.adapter);
  plan.options.adapter = adapter.name;
  plan.display = adapter.display;
  check_adapter_options(plan.options.adapter, options.stream);
  plan.remote = is_remote_adapter(plan.options.adapter);
  if (!options.net.empty()) {
    plan.net_spec = net::parse_net_spec(options.net);
    if (!plan.remote)
      throw UsageError("--net needs a remote adapter (--adapter xvnc, x11vnc, stream, vncviewer or xpra): the local client has no network");
  }
  if (options.net_backend != "relay" && options.net_backend != "netem")
    throw UsageError("unknown --net-backend '" + options.net_backend + "' (known: relay, netem)");
  plan.use_netem = options.net_backend == "netem" && !plan.net_spec.is_identity();
  if (options.net_backend == "netem" && plan.net_spec.is_identity())
    throw UsageError("--net-backend netem needs --net with something to emulate (delay=, jitter=, loss=, rate=)");
  check_container_spec(options.container);
  if (!options.container.engine.empty() && plan.options.adapter != "xvnc")
    throw UsageError("--container runs --adapter xvnc (got '" + plan.options.adapter +
                     "': its servers are not containerised yet)");
  if (options.vnc_quality < 1 || options.vnc_quality > 100)
    throw UsageError(fmt::format("--vnc-quality must be 1..100 (got {})", options.vnc_quality));
  if (options.vnc_frame_rate < 0) throw UsageError("--vnc-frame-rate must be positive");
  plan.render = parse_render(options.render, options.frame_copy);
  if (plan.render.offload && !options.hook)
    throw UsageError("--render offload is served by the interposer: it cannot be combined with --no-hook");
  if (plan.render.offload && !options.container.engine.empty())
    throw UsageError("--render offload cannot run in --container yet: the container's root file system may have no EGL");
  if (!options.driver.empty()) {
    if (!options.hook) throw UsageError("--driver needs the interposer (drop --no-hook)");
    plan.driver = options.driver_factory ? options.driver_factory() : drivers::make_driver(options.driver);
  }
  return plan;
}

void locate_libraries(SessionPlan& plan) {
  plan.hook_lib = plan.options.hook ? find_hook_library() : std::string();
  plan.proxy_hook_lib = plan.remote && plan.options.hook && takes_proxy_hook(plan.options.adapter) ? find_proxy_hook_library() : std::string();
}

std::string instance_driver_spec(const std::string& spec, int index) {
  if (index == 0 || spec.empty()) return spec;
  const auto [name, args] = options::split_name(spec);
  for (const auto& info : drivers::driver_infos()) {
    if (info.name != name) continue;
    const options::OptionSet& set = info.options;
    const options::Option* seed = set.find("seed");
    if (!seed || seed->type != options::Type::count) return spec;  // nothing to vary
    options::Items items = options::split(set, args);
    const options::Values values = options::resolve(set, items);
    if (!values.has("seed")) return spec;
    const std::string next = std::to_string(values.count("seed") + static_cast<std::uint64_t>(index));
    bool given = false;
    for (auto& [option, value] : items.given) {
      if (option != "seed") continue;
      value = next;
      given = true;
    }
    if (!given) items.given.emplace_back("seed", next);
    return name + ":" + options::format(set, items);  // the driver's own form, seed changed
  }
  (void)drivers::make_driver(spec);  // throws: no such driver, named in the one wording
  return spec;
}

}  // namespace pictor::runner
