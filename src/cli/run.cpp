// `pictor run`: one session of an app (built-in scene or any command) on a private Xvfb under
// the interposer. The work is in runner::run_session; this file maps options and prints.
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

#include "analysis/bottleneck.h"
#include "analysis/repeat_summary.h"
#include "analysis/rtt.h"
#include "analysis/summary.h"
#include "cli/commands.h"
#include "resources/sampler.h"
#include "core/error.h"
#include "runner/adapter.h"
#include "runner/metrics_server.h"
#include "runner/group_summary.h"
#include "runner/session.h"
#include "runner/session_group.h"
#include "runner/session_plan.h"
#include "suite/repeat_runner.h"
#include "suite/suite_runner.h"

namespace pictor::cli {

namespace {
struct RunArgs {
  std::vector<std::string> target;
  std::string duration = "10s";
  std::string sample_interval = "100ms";
  bool no_resources = false;
  std::string size = "1280x720";
  std::string out;
  bool force = false;
  bool json = false;
  bool no_hook = false;
  std::string driver;
  bool no_marker = false;
  bool overlay = false;
  std::string render = "native";
  std::string frame_copy;
  std::string adapter = "local";
  std::string net;
  std::string net_backend = "relay";
  int vnc_quality = 80;
  std::string vnc_subsampling = "4:2:0";
  int vnc_frame_rate = 0;
  std::string stream;
  int repeat = 1;
  DbArgs db;
  std::string metrics_listen;
  std::string instances;  // "N" or "1,2,3,4" (a sweep); empty: one session
  runner::ContainerSpec container;  // --container, --rootfs, --cpus, --memory
  std::string server, token_file;   // --server HOST:PORT, --token-file F (docs/two-hosts.md)
};

// `--instances N` (N stacks at once) and `--instances 1,2,3,4` (one group per count, the sweep
// table): runner/session_group.h.
void run_instances(const RunArgs& args, const runner::RunOptions& o, Context& ctx) {
  if (args.repeat != 1) throw UsageError("--instances and --repeat cannot be combined");
  if (!args.metrics_listen.empty()) throw UsageError("--metrics-listen serves one session's figures: it cannot be combined with --instances");
  const std::vector<int> counts = runner::parse_instance_counts(args.instances);
  runner::GroupOptions g;
  g.out_dir = o.out_dir;
  g.force = o.force;
  g.quiet = ctx.quiet;
  g.argv = o.argv;
  const std::string name = !o.builtin.empty() ? o.builtin.substr(0, o.builtin.find(':')) : o.command.empty() ? "app" : o.command[0];
  if (args.instances.find(',') != std::string::npos) {
    g.default_dir = runner::default_session_dir(name + "-sweep");
    const runner::SweepResult r = runner::run_sweep(o, counts, g);
    for (const int n : counts)
      if (const std::string d = fmt::format("{}/instances-{}", r.dir, n); std::filesystem::exists(d + "/run.json"))
        record_in_db(args.db, d, ctx.quiet);
    std::printf("%s", r.table.c_str());
    if (!ctx.quiet) std::fprintf(stderr, "pictor: sweep directory %s (sweep.csv, instances-N/)\n", r.dir.c_str());
    end_with(ctx, r.exit_code, r.failure);
    return;
  }
  g.default_dir = runner::default_session_dir(fmt::format("{}-n{}", name, counts[0]));
  const runner::GroupResult r = runner::run_group(runner::instance_members(o, counts[0]), g);
  record_in_db(args.db, r.dir, ctx.quiet);
  if (args.json) std::printf("%s\n", r.summary.dump(2).c_str());
  else std::printf("%s", runner::format_group_table(r.summary).c_str());
  if (!ctx.quiet) std::fprintf(stderr, "pictor: run directory %s (instance-K/ session directories)\n", r.dir.c_str());
  if (r.status == "interrupted") {
    std::fprintf(stderr, "pictor: %s\n", r.failure.c_str());
    ctx.exit_code = r.exit_code;
    return;
  }
  if (r.exit_code != 0) throw RunError(r.failure);
}
}  // namespace

void add_run(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run an OpenGL or Vulkan app (or builtin:NAME) on a private Xvfb under the interposer");
  cmd->add_option("target", args->target,
                  "builtin:NAME[:option=value...], profile:NAME (a real game, profiles/), or -- COMMAND [ARGS...]");
  cmd->add_option("-d,--duration", args->duration, "how long to run (10s, 2m, 1h; 1 s to 24 h)")->capture_default_str();
  cmd->add_option("-s,--size", args->size, "window/screen size WxH")->capture_default_str();
  cmd->add_option("--sample-interval", args->sample_interval,
                  "how often the resource sampler records CPU, memory, network, counters (10ms..10s; resources.csv)")
      ->capture_default_str();
  cmd->add_flag("--no-resources", args->no_resources, "run without the resource sampler (no resources.csv, counters.csv)");
  cmd->add_option("-o,--out", args->out, "session directory (default pictor-out/<time>-<app>, numbered if taken)");
  cmd->add_flag("--force", args->force, "--out holds an earlier session: delete its contents and write there");
  cmd->add_flag("--json", args->json, "print summary.json instead of the table");
  cmd->add_flag("--no-hook", args->no_hook, "run without the interposer (nothing is recorded)");
  cmd->add_option("--driver", args->driver, driver_flag_help());
  cmd->add_flag("--no-marker", args->no_marker,
                "with --driver: do not draw the tag marker (RTT becomes unknown; for overhead runs)");
  cmd->add_flag("--overlay", args->overlay, "draw the in-app overlay (frame-time graph, FPS, in->present; Shift+F12 toggles)");
  cmd->add_option("--render", args->render,
                  "native (the display's own GL) or offload[:device=D] (the interposer serves the app's GLX from EGL "
                  "on a render device, the first one by default, and copies every frame into the X server; "
                  "docs/offload.md)")
      ->capture_default_str();
  cmd->add_option("--frame-copy", args->frame_copy,
                  "with --render offload: how frames reach X: vgl (geometry asked per frame, synchronous read; "
                  "default), memo (geometry cached from ConfigureNotify), async (memo + a pixel-buffer ring: one "
                  "frame of extra latency)")
      ->check(CLI::IsMember({"vgl", "memo", "async"}));
  cmd->add_option("--adapter", args->adapter, adapter_flag_help())->capture_default_str();
  cmd->add_option("--net", args->net, net_flag_help());
  cmd->add_option("--net-backend", args->net_backend,
                  "how --net is emulated: relay (user-space TCP relay, no privileges) or netem (kernel qdisc on "
                  "loopback; needs sch_netem and root)")
      ->capture_default_str();
  cmd->add_option("--vnc-quality", args->vnc_quality, "JPEG quality 1..100 the RFB client asks for")->capture_default_str();
  cmd->add_option("--vnc-subsampling", args->vnc_subsampling, "JPEG chroma subsampling: 4:4:4, 4:2:2, 4:2:0, gray")
      ->check(CLI::IsMember({"4:4:4", "4:2:2", "4:2:0", "gray"}))
      ->capture_default_str();
  cmd->add_option("--vnc-frame-rate", args->vnc_frame_rate,
                  "xvnc: updates per second cap (Xvnc -FrameRate; its own default is 60); 0 = 240");
  cmd->add_option("--stream", args->stream, stream_flag_help());
  cmd->add_option("--repeat", args->repeat,
                  "run N sessions (OUT/repeat-1 … repeat-N) and report each figure with its interval across the runs")
      ->capture_default_str();
  add_db_options(cmd, args->db);
  cmd->add_option("--metrics-listen", args->metrics_listen,
                  "serve live figures (FPS, frame-time percentiles, inputs, RTT, per-process CPU) in Prometheus text "
                  "format at http://HOST:PORT/metrics while the session runs (HOST defaults to 127.0.0.1)");
  cmd->add_option("--instances", args->instances,
                  "run N identical stacks at once (OUT/instance-K/, own display, app and driver seed); a list "
                  "1,2,3,4 runs each count in turn and writes the sweep table (OUT/sweep.csv)");
  cmd->add_option("--container", args->container.engine,
                  "run each stack's X server, proxy and app in a container: podman (--adapter xvnc; docs/resources.md)");
  cmd->add_option("--rootfs", args->container.rootfs,
                  "the container's root file system (build it with scripts/container-rootfs.sh DIR)");
  cmd->add_option("--cpus", args->container.cpus, "with --container: podman's CPU limit (1.5)");
  cmd->add_option("--memory", args->container.memory, "with --container: podman's memory limit (512m, 2g)");
  cmd->add_option("--server", args->server,
                  "run the server half (adapter servers, proxy, app) on another host under `pictor serve` at HOST:PORT; "
                  "the client, driver and --net relay run here (docs/two-hosts.md)");
  cmd->add_option("--token-file", args->token_file, "with --server: the file holding the token the agent was given");
  cmd->footer("Examples:\n  pictor run builtin:spin:objects=500 --duration 5s\n  pictor run -- glxgears\n"
              "  pictor run --driver scripted:rate=10 builtin:latency:delay_ms=30\n"
              "  pictor run --adapter xvnc --net delay=20ms --driver scripted builtin:latency\n"
              "  pictor run --render offload --frame-copy async --adapter xvnc --driver scripted builtin:racing\n"
              "  pictor run --adapter display::0 --render offload:device=nvidia --driver scripted builtin:racing\n"
              "  pictor run --repeat 5 builtin:spin:objects=500 -d 5s\n"
              "  pictor run --instances 1,2,3,4 --adapter xvnc --driver scripted builtin:racing -d 10s");
  cmd->callback([args, &ctx, &app] {
    runner::RunOptions o;
    if (args->target.empty()) throw UsageError("nothing to run: give builtin:NAME, profile:NAME or -- COMMAND");
    // Checked before a --repeat run claims its directory; run_session binds it.
    if (!args->metrics_listen.empty()) runner::parse_listen_address(args->metrics_listen);
    o.duration_s = parse_duration_s(args->duration, "--duration", runner::kMinSessionS, runner::kMaxSessionS);
    o.size = parse_size(args->size);
    o.sample_interval_s = parse_duration_s(args->sample_interval, "--sample-interval", resources::kMinSampleIntervalS,
                                           resources::kMaxSampleIntervalS);
    if (args->target[0].rfind("builtin:", 0) == 0) {
      if (args->target.size() > 1) throw UsageError("builtin:NAME takes no further arguments");
      o.builtin = args->target[0].substr(8);
    } else if (args->target[0].rfind("profile:", 0) == 0) {
      if (args->target.size() > 1) throw UsageError("profile:NAME takes no further arguments");
      suite::apply_profile_target(args->target[0].substr(8), o);
    } else {
      o.command = args->target;
    }
    o.resources = !args->no_resources;
    o.out_dir = args->out;
    o.force = args->force;
    o.quiet = ctx.quiet;
    o.hook = !args->no_hook;
    o.driver = args->driver;
    o.marker = !args->no_marker;
    if (args->overlay && args->no_hook) throw UsageError("--overlay is drawn by the interposer: it cannot be combined with --no-hook");
    o.overlay = args->overlay;
    o.render = args->render;
    o.frame_copy = args->frame_copy;
    o.adapter = args->adapter;
    o.net = args->net;
    o.net_backend = args->net_backend;
    o.vnc_quality = args->vnc_quality;
    o.vnc_subsampling = args->vnc_subsampling;
    o.vnc_frame_rate = args->vnc_frame_rate;
    o.metrics_listen = args->metrics_listen;
    o.stream = args->stream;
    o.container = args->container;
    o.server = args->server;
    o.token_file = args->token_file;
    if (o.server.empty() && !o.token_file.empty()) throw UsageError("--token-file is for --server HOST:PORT");
    if (!o.server.empty() && !args->instances.empty())
      throw UsageError("--server runs one session across two hosts: it cannot be combined with --instances");
    (void)app;
    if (!args->instances.empty()) {
      run_instances(*args, o, ctx);
      return;
    }
    if (args->repeat != 1) {
      const suite::RepeatResult r = suite::run_repeated(o, args->repeat);
      record_in_db(args->db, r.dir, ctx.quiet);
      if (args->json) std::printf("%s\n", r.summary.dump(2).c_str());
      else std::printf("%s", analysis::format_repeat_summary(r.summary).c_str());
      if (!ctx.quiet) std::fprintf(stderr, "pictor: run directory %s (report: %s/report.html)\n", r.dir.c_str(), r.dir.c_str());
      end_with(ctx, r.exit_code, r.failure);
      return;
    }
    const runner::RunResult r = runner::run_session(o);
    record_in_db(args->db, r.dir, ctx.quiet);
    if (!r.summary.is_null()) {
      if (args->json) std::printf("%s\n", r.summary.dump(2).c_str());
      else std::printf("%s%s%s", analysis::format_frame_summary(r.summary).c_str(),
                       analysis::format_rtt_summary(r.summary).c_str(), analysis::format_bottleneck(r.summary).c_str());
    }
    if (!ctx.quiet) std::fprintf(stderr, "pictor: session directory %s (report: %s/report.html, frame-time graph: frametime.png)\n",
                                 r.dir.c_str(), r.dir.c_str());
    if (r.status == "interrupted") {
      // Its own status, not "the app failed": 128 + the signal, as a shell reports it.
      std::fprintf(stderr, "pictor: %s\n", r.failure.c_str());
      ctx.exit_code = r.exit_code;
      return;
    }
    if (r.exit_code != 0) throw RunError(r.failure);
  });
}

}  // namespace pictor::cli
