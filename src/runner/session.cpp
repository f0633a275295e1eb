#include "runner/session.h"

#include <X11/Xlib.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <thread>

#include "analysis/load.h"
#include "analysis/play_window.h"
#include "analysis/rtt.h"
#include "analysis/session_schema.h"
#include "client/local_client.h"
#include "client/x_connection.h"
#include "client/remote_client.h"
#include "net/netem.h"
#include "net/relay.h"
#include "net/spec.h"
#include "runner/adapter.h"
#include "drivers/driver.h"
#include "report/trace.h"
#include "apps/scene.h"
#include "analysis/summary.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "core/preload.h"
#include "core/units.h"
#include "core/progress.h"
#include "report/frametime_graph.h"
#include "report/html/report.h"
#include "runner/install_paths.h"
#include "runner/machine.h"
#include "runner/process.h"
#include "runner/session_resources.h"
#include "runner/session_writes.h"
#include "core/time_text.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

std::atomic<int> g_interrupt{0};
void on_interrupt(int sig) { g_interrupt.store(sig); }

// Ctrl-C / SIGTERM / SIGHUP end the measurement early but still tear down and keep results.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupt.store(0);
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~InterruptGuard() {
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old_[i], nullptr);
  }

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[3] {};
};

std::string default_out_dir(const std::string& name) {
  std::string clean;
  for (char c : name) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return "pictor-out/" + local_stamp_now() + "-" + clean.substr(0, 40);
}

// Whole or not at all (temporary name + rename): throws files::WriteError naming the disk.
void write_json(const fs::path& path, const nlohmann::json& j, const files::WriteOptions& options = {}) {
  files::write_file(path, j.dump(2) + "\n", options);
}


std::string and_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// "Xvfb died 2.1 s into the session (killed by SIGKILL from outside pictor); x11vnc and the app
// ended after it; see …/xvfb.log; results so far are in DIR": the first cause, then what followed.
std::string server_died(const ServerEnd& cause, const std::vector<nlohmann::json>& processes, const std::string& label,
                        std::int64_t start, const fs::path& dir) {
  std::vector<std::string> after;
  for (const auto& p : processes) {
    const std::string name = p.value("name", "");
    const bool is_app = &p == &processes.back();  // the app's entry comes after its servers'
    if (name == cause.name || p.value("ended_by", nlohmann::json()) == "pictor") continue;
    after.push_back(is_app ? label : name);
  }
  const double at_s = static_cast<double>(cause.seen_ns - start) * 1e-9;
  return fmt::format("{} died {:.1f} s into the session ({}){}; see {}; results so far are in {}", cause.name, at_s,
                     cause.how, after.empty() ? "" : "; " + and_list(after) + " ended after it", cause.log, dir.string());
}

// "builtin:spin stopped presenting frames 2.0 s into the 6.0 s session (no frame for the last
// 4.0 s)", a suspended server named first as the cause.
std::string stopped_presenting(const std::string& label, double measured_s, double tail_s, bool app_suspended,
                               const std::vector<std::string>& suspended_servers, const fs::path& dir) {
  std::string line = fmt::format("{} stopped presenting frames {:.1f} s into the {:.1f} s session (no frame for the "
                                 "last {:.1f} s)", label, std::max(0.0, measured_s - tail_s), measured_s, tail_s);
  if (!suspended_servers.empty())
    line = fmt::format("{} {} suspended (SIGSTOP or a debugger) when the session ended: ", and_list(suspended_servers),
                       suspended_servers.size() == 1 ? "was" : "were") + line;
  else if (app_suspended)
    line += "; it was suspended (SIGSTOP or a debugger) when the session ended";
  return line + "; see " + (dir / "summary.json").string();
}

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> out;
  std::string arg;
  while (std::getline(in, arg, '\0')) out.push_back(arg);
  return out;
}


}  // namespace

RunResult run_session(const RunOptions& options) {
  std::vector<std::string> argv;
  std::string label;
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
    argv = {find_app_binary(), options.builtin, "--size",
            std::to_string(options.size.width) + "x" + std::to_string(options.size.height)};
    label = "builtin:" + options.builtin;
  } else {
    if (options.command.empty()) throw UsageError("no command given (pictor run -- COMMAND or builtin:NAME)");
    if (!find_executable(options.command[0])) throw UsageError("command not found: " + options.command[0]);
    argv = options.command;
    label = options.command[0];
  }
  if (!(options.duration_s >= kMinSessionS && options.duration_s <= kMaxSessionS))
    throw UsageError(fmt::format("--duration must be between {} and {} (got {:g} s)", format_duration(kMinSessionS),
                                 format_duration(kMaxSessionS), options.duration_s));
  check_sample_interval(options.sample_interval_s);
  require_adapter_name(options.adapter);
  const bool remote = is_remote_adapter(options.adapter);
  net::NetSpec net_spec;
  if (!options.net.empty()) {
    net_spec = net::parse_net_spec(options.net);
    if (!remote)
      throw UsageError("--net needs a remote adapter (--adapter xvnc or x11vnc): the local client has no network");
  }
  if (options.net_backend != "relay" && options.net_backend != "netem")
    throw UsageError("unknown --net-backend '" + options.net_backend + "' (known: relay, netem)");
  const bool use_netem = options.net_backend == "netem" && !net_spec.is_identity();
  if (options.net_backend == "netem" && net_spec.is_identity())
    throw UsageError("--net-backend netem needs --net with something to emulate (delay=, jitter=, loss=, rate=)");
  if (options.vnc_quality < 1 || options.vnc_quality > 100)
    throw UsageError(fmt::format("--vnc-quality must be 1..100 (got {})", options.vnc_quality));
  if (options.vnc_frame_rate < 0) throw UsageError("--vnc-frame-rate must be positive");
  std::unique_ptr<drivers::Driver> driver;
  if (!options.driver.empty()) {
    if (!options.hook) throw UsageError("--driver needs the interposer (drop --no-hook)");
    driver = options.driver_factory ? options.driver_factory() : drivers::make_driver(options.driver);
  }
  // Never into an earlier session's directory (its files would mix with this one's) unless --force.
  const fs::path dir = claim_out_dir(options.out_dir, default_out_dir(fs::path(label).filename().string()), options.force);
  const std::string hook_lib = options.hook ? find_hook_library() : std::string();
  const std::string proxy_hook_lib = remote && options.hook ? find_proxy_hook_library() : std::string();

  RunResult result;
  result.dir = dir.string();
  nlohmann::json run{{"schema", 1},
                     {"pictor_version", "0.1.0"},
                     {"command_line", options.argv.empty() ? own_command_line() : options.argv},
                     {"app", {{"label", label}, {"argv", argv}}},
                     {"adapter", options.adapter},
                     {"driver", driver ? nlohmann::json(driver->spec()) : nlohmann::json(nullptr)},
                     {"size", fmt::format("{}x{}", options.size.width, options.size.height)},
                     {"duration_requested_s", options.duration_s},
                     {"interposer", options.hook ? nlohmann::json(hook_lib) : nlohmann::json(nullptr)},
                     {"machine", machine_info()},
                     {"start_time", iso_utc_now()},
                     {"status", "running"}};
  if (remote) {
    run["net"] = {{"spec", net::to_string(net_spec)}, {"emulation", net_spec.is_identity() ? "none" : use_netem ? "tc netem on lo" : "user-space TCP relay"}};
    run["proxy_interposer"] = proxy_hook_lib.empty() ? nlohmann::json(nullptr) : nlohmann::json(proxy_hook_lib);
  }
  write_json(dir / "run.json", run, kRunJsonWrite);
  SessionWrites writes(dir);

  Progress progress(options.quiet);
  InterruptGuard interrupts;
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<net::TcpRelay> relay;
  std::unique_ptr<net::NetemLink> netem;
  std::optional<Process> app;
  std::unique_ptr<SessionResources> resources;  // the resource sampler (docs/resources.md)
  std::unique_ptr<client::LocalClient> local_client;
  std::unique_ptr<client::RemoteClient> remote_client;
  // The one client of this session, whichever adapter it belongs to.
  std::function<client::ClientStats()> client_stop;
  std::function<void()> client_finish;
  std::function<bool()> client_running;
  client::ClientStats client_stats;
  // How the measurement ended: why Pictor stopped the app, or that it exited first (by itself, or
  // after its display server died), and the server that died first.
  std::string stop_reason = "at the end of the session";
  bool app_exited_first = false;
  std::optional<ServerEnd> dead_server;
  std::vector<std::string> suspended_servers;
  bool app_suspended = false;
  int interrupted_by = 0;
  double measured_s = 0;
  std::int64_t start = 0, end = 0;
  auto stop_client = [&] {
    if (client_stop) {
      client_stats = client_stop();
      client_stop = nullptr;
    }
  };
  try {
    AdapterOptions ao;
    ao.size = options.size;
    ao.out_dir = dir.string();
    ao.proxy_hook = proxy_hook_lib;
    ao.frame_rate = options.vnc_frame_rate;
    adapter = start_adapter(options.adapter, ao);
    run["display"] = adapter->display();
    if (remote) run["proxy"] = adapter->describe();
    if (driver) {
      // A held key must not auto-repeat: the X server would synthesise press/release pairs the
      // client never sent, each a tracked event for the interposer, and the app's count of
      // tags would run ahead of the client's. The setting lives in the server (-noreset keeps it).
      auto x = client::XConnection::open(adapter->display());
      XAutoRepeatOff(x->display());
      XSync(x->display(), False);
      run["keyboard_auto_repeat"] = false;
    }
    std::optional<RfbEndpoint> served;  // where the adapter serves the display over RFB
    if (remote) {
      served = adapter->rfb();
      const RfbEndpoint& server = *served;
      progress.note(fmt::format("pictor: {} serves the session's display on {}:{} (a VNC viewer can watch and play)",
                                options.adapter, server.host, server.port));
      if (use_netem) {
        // On the proxy's port itself, so a viewer gets the same network as Pictor's client.
        netem = net::NetemLink::apply(net_spec, static_cast<std::uint16_t>(server.port));
        run["net"]["commands"] = netem->commands();
      }
    }
    if (driver) {
      drivers::SessionContext context{adapter->display(), options.adapter, std::nullopt};
      if (served) context.rfb_port = served->port;
      driver->attach(context);
    }
    SpawnOptions spawn;
    spawn.argv = argv;
    spawn.env["DISPLAY"] = adapter->display();
    if (options.hook) {
      const char* preload = std::getenv("LD_PRELOAD");
      spawn.env["LD_PRELOAD"] = preload_value(hook_lib + (preload && *preload ? std::string(":") + preload : ""));
      spawn.env["PICTOR_OUT"] = fs::absolute(dir).string();
      if (driver && options.marker) spawn.env["PICTOR_MARKER"] = "1";
      // The interposer is also a Vulkan layer: a private implicit-layer manifest (docs/vulkan.md).
      for (const auto& [name, value] : vulkan_layer_environment()) spawn.env[name] = value;
    }
    spawn.stdout_path = (dir / "app.log").string();
    spawn.stderr_path = (dir / "app.log").string();
    progress.note(fmt::format("pictor: running {} on {} {} for {:g} s", label,
                              remote ? options.adapter : std::string("Xvfb"), adapter->display(), options.duration_s));
    start = monotonic_ns();
    app = Process::spawn(spawn);
    if (options.resources)
      resources = SessionResources::start(dir.string(), options.sample_interval_s, *adapter, app->pid(), label);
    // While it runs, run.json already says which processes are Pictor's (their pids).
    run["app"]["pid"] = app->pid();
    run["start_ns"] = start;
    run["processes"] = adapter->running_processes();
    run["processes"].push_back({{"name", app->name()}, {"pid", app->pid()}});
    if (driver) {
      try {
        if (!remote) {
          client::LocalClientOptions co;
          co.display = adapter->display();
          co.out_dir = dir.string();
          co.app_running = [&app] { return app->running(); };
          co.expect_marker = options.marker;
          local_client = client::LocalClient::start(co, std::move(driver));
          client_stop = [&] { return local_client->stop(); };
          client_finish = [&] { local_client->finish_inputs(); };
          client_running = [&] { return local_client->running(); };
        }
        else {
          // The client is remote: it finds the app's window in the framebuffer through the
          // geometry the X server reports (a thin client would be told by the server side).
          auto x = client::XConnection::open(adapter->display());
          const client::WindowInfo w = client::wait_for_app_window(*x, 10.0, [&app] { return app->running(); });
          x.reset();
          run["window"] = {{"x", w.x}, {"y", w.y}, {"width", w.width}, {"height", w.height}};
          const RfbEndpoint& server = *served;
          int port = server.port;
          if (!net_spec.is_identity() && !use_netem) {
            net::RelayOptions ro;
            ro.target_host = server.host;
            ro.target_port = static_cast<uint16_t>(server.port);
            relay = std::make_unique<net::TcpRelay>(net_spec, ro);
            relay->start();
            port = relay->port();
          }
          client::RemoteClientOptions co;
          co.host = "127.0.0.1";
          co.port = port;
          co.out_dir = dir.string();
          co.window = tag::WindowRect{w.x, w.y, w.width, w.height};
          co.window_id = w.id;  // followed when pictor-launch moves it on screen
          co.jpeg_quality = options.vnc_quality;
          co.subsampling = options.vnc_subsampling;
          co.app_running = [&app] { return app->running(); };
          co.expect_marker = options.marker;
          co.keycode_display = adapter->display();
          remote_client = client::RemoteClient::start(co, std::move(driver));
          run["rfb"] = remote_client->server_info();
          client_stop = [&] { return remote_client->stop(); };
          client_finish = [&] { remote_client->finish_inputs(); };
          client_running = [&] { return remote_client->running(); };
        }
      } catch (const RunError& e) {
        // The app stays measured; the failure is reported with the results.
        client_stats.failure = e.what();
      }
    }
    write_json(dir / "run.json", run, kRunJsonWrite);
    if (resources) resources->watch_network(relay.get(), remote_client.get());
    bool client_ended_noted = false;
    bool inputs_finished = false;
    for (;;) {
      end = monotonic_ns();
      measured_s = static_cast<double>(end - start) * 1e-9;
      if (!app->running()) {
        // An app whose display server died exits at once, often before the server is reaped:
        // the server is the cause, so give it up to 200 ms to show as dead before blaming the app.
        dead_server = adapter->dead();
        for (int i = 0; i < 10 && !dead_server; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          dead_server = adapter->dead();
        }
        app_exited_first = true;
        break;
      }
      if (const int sig = g_interrupt.load()) {
        interrupted_by = sig;
        stop_reason = "when interrupted (" + signal_name(sig) + ")";
        break;
      }
      if (measured_s >= options.duration_s) {
        stop_reason = "after the duration";
        break;
      }
      if ((dead_server = adapter->dead())) {
        stop_reason = "after " + dead_server->name + " died";
        break;
      }
      // The last inputs need time to be answered and seen: no new input in the final 300 ms.
      if (client_finish && measured_s >= options.duration_s - 0.3 && !inputs_finished) {
        inputs_finished = true;
        client_finish();
      }
      if (client_running && !client_running() && !client_ended_noted) {
        client_ended_noted = true;
        progress.note("pictor: the input client stopped early; the app keeps running");
      }
      progress.update(fmt::format("pictor: {} {:.0f}/{:g} s", label, measured_s, options.duration_s));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (resources) resources->stop();
    // A suspended process (SIGSTOP) runs no code: seen now, before the stop, it explains a freeze.
    suspended_servers = adapter->suspended();
    app_suspended = app->suspended();
    run["end_ns"] = end;
    // The client first: it releases held keys while the app can still read them.
    if (client_stop) {
      stop_client();
      // Let the app read any release the client still had to send, so it is not "not read".
      if (app->running() && !dead_server) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    app->stop(options.grace_s);
  } catch (...) {
    stop_client();
    if (relay) relay->stop();
    netem.reset();
    if (app) app->stop(0.5);
    std::vector<nlohmann::json> stopped;
    if (adapter) stopped = adapter->stop({"after a failed start", start});
    if (app) stopped.push_back(process_status_json(*app, {"after a failed start", start}));
    if (adapter || app) run["processes"] = stopped;
    run["status"] = "failed to start";
    run["end_time"] = iso_utc_now();
    run["files"] = analysis::session_files_json(dir.string());
    write_json(dir / "run.json", run, kRunJsonWrite);
    throw;
  }
  if (relay) {
    relay->stop();
    run["net"]["bytes_up"] = relay->bytes_up();
    run["net"]["bytes_down"] = relay->bytes_down();
    run["net"]["connections"] = relay->connections();
  }
  netem.reset();
  std::vector<nlohmann::json> server_status = adapter->stop({"at the end of the session", start});

  // Derived files, from what the hook recorded.
  std::size_t late = 0;
  try {
    late = options.hook ? merge_late_gpu(dir.string()) : 0;
  } catch (const files::WriteError& e) {
    writes.failed("late GPU results (frames.csv not rewritten)", e.error());
  }
  bool have_frames = fs::exists(dir / "frames.csv");
  std::size_t frames = 0;
  // A profile session (pictor-launch wrote launch.json): figures and graph describe play.
  const analysis::LaunchRecord launch = analysis::read_launch_record(dir.string());
  // Failures found after the run (analysis): symptoms, named only when nothing caused them.
  std::string analysis_failure;
  if (have_frames) {
    try {
      analysis::FrameSeries series = analysis::load_frames(dir.string());
      series.session_end_ns = end;  // the time after the last frame up to here may be a stall
      frames = series.swap_ns.empty() ? (series.frame_ms.empty() ? 0 : series.frame_ms.size() + 1) : series.swap_ns.size();
      result.summary = analysis::summarize_session_frames(series, launch);
      writes.json("summary.json", result.summary);
      const analysis::FrameSeries shown = analysis::figure_frames(series, launch);
      if (shown.frame_ms.size() >= 1) {
        // A long session gets wider rows rather than no graph; only a PNG no width can hold is left out.
        if (const auto fit = report::png_options_that_fit(shown))
          report::write_frametime_png(shown, (dir / "frametime.png").string(), *fit);
        else
          run["notes"].push_back("frametime.png not drawn: the session is too long for a PNG even at --width 20000; "
                                 "pictor graph DIR -o graph.svg draws it");
      }
    } catch (const files::WriteError& e) {
      writes.failed(e);
    } catch (const std::exception& e) {
      analysis_failure = std::string("cannot analyse the recorded frames: ") + e.what();
    }
  }
  if (!options.driver.empty()) {
    nlohmann::json c{{"driver", client_stats.driver},
                     {"inputs_sent", client_stats.inputs_sent},
                     {"motions_sent", client_stats.motions_sent},
                     {"captures", client_stats.captures},
                     {"markers_read", client_stats.markers_read},
                     {"capture_failures", client_stats.capture_failures},
                     {"notes", client_stats.notes},
                     {"driver_report", client_stats.driver_report},
                     {"failure", client_stats.failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(client_stats.failure)}};
    run["client"] = c;
    if (!client_stats.driver.empty()) run["driver"] = client_stats.driver;
    if (remote_client) {
      const client::RemoteClientStats rs = remote_client->rfb_stats();
      run["rfb"] = rs.server;
      run["window"] = {{"x", rs.window.x}, {"y", rs.window.y}, {"width", rs.window.width}, {"height", rs.window.height}};
      run["client"]["updates"] = rs.updates;
      run["client"]["marker_updates"] = rs.marker_updates;
      run["client"]["bytes"] = rs.bytes;
    }
    try {
      const nlohmann::json rtt = analysis::match_inputs(dir.string());
      if (result.summary.is_object())
        for (auto it = rtt.begin(); it != rtt.end(); ++it) result.summary[it.key()] = it.value();
      // A proxy's update cap must not silently bound what is measured (docs/remote.md).
      const nlohmann::json& proxy = run.contains("proxy") ? run["proxy"] : nlohmann::json();
      if (result.summary.is_object() && proxy.contains("frame_rate_cap") &&
          result.summary.value("fps_client_updates", nlohmann::json()).is_number()) {
        const double cap = proxy["frame_rate_cap"].get<double>();
        const double ups = result.summary["fps_client_updates"].get<double>();
        if (ups >= 0.9 * cap)
          result.summary["adapter_notes"].push_back(fmt::format(
              "client updates/s ({:.0f}) reached Xvnc's -FrameRate cap ({:g}): client FPS and RTT are bounded by "
              "the cap; raise it with --vnc-frame-rate", ups, cap));
      }
      writes.json("summary.json", result.summary);
      report::write_trace(dir.string());
    } catch (const files::WriteError& e) {
      writes.failed(e);
    } catch (const std::exception& e) {
      if (analysis_failure.empty()) analysis_failure = std::string("cannot match inputs to frames: ") + e.what();
    }
  } else if (options.hook && frames > 0) {
    try {
      report::write_trace(dir.string());
    } catch (const files::WriteError& e) {
      writes.failed(e);
    } catch (const std::exception&) {
      // trace.json is a convenience for sessions without inputs; the frame files stand alone.
    }
  }
  if (resources) resources->add_to(result.summary, run, writes);
  // The bottleneck verdict, from the figures above (resources included) and the session's files
  // (docs/reports.md).
  if (result.summary.is_object()) {
    analysis::add_bottleneck(result.summary, run, dir.string());
    writes.json("summary.json", result.summary);
  }
  if (fs::exists(dir / "hook.json")) {
    try {
      run["gl"] = nlohmann::json::parse(files::read_file(dir / "hook.json"));
    } catch (...) {
      run["gl"] = nullptr;
    }
  }

  // Verdict: what the user has to know, in one line naming the first cause. Causes rank before
  // their symptoms: a dead server makes the app exit and the client lose its connection; a
  // client that failed to start leaves no client_inputs.csv to match; a session that ended before
  // play has no inputs at all.
  const auto& st = app->status();
  const bool by_itself = app_exited_first && !dead_server;
  const std::optional<std::string> no_play = analysis::play_never_started(launch, options.duration_s);
  // The app's entry: why Pictor stopped it, or what had died before it ended by itself.
  server_status.push_back(process_status_json(*app, {stop_reason, start}, dead_server ? dead_server->name + " died" : ""));
  const nlohmann::json stalls = result.summary.is_object() ? result.summary.value("stalls", nlohmann::json()) : nlohmann::json();
  const bool ended_in_stall = stalls.is_object() && stalls.value("ended_in_stall", nlohmann::json()) == true;
  if (interrupted_by) {
    result.failure = fmt::format("interrupted by {} after {:.1f} s; results so far are in {}", signal_name(interrupted_by),
                                 measured_s, dir.string());
  } else if (dead_server) {
    result.failure = server_died(*dead_server, server_status, label, start, dir);
  } else if (by_itself && (frames == 0 || !st || !st->exited || st->code != 0)) {
    result.failure = fmt::format("{} exited after {:.1f} s ({}){}; see {}", label, measured_s,
                                 st ? st->describe() : "unknown status",
                                 frames == 0 ? " before presenting a frame" : "",
                                 (dir / "app.log").string());
  } else if (!by_itself && frames > 0 && ended_in_stall && !no_play) {
    // Frozen (a hang, SIGSTOP, a suspended X server): the app is the cause of its client's troubles.
    // A profile still in its start-up is said so below instead (loading screens may show nothing).
    result.failure = stopped_presenting(label, measured_s, stalls["last_frame_to_end_s"].get<double>(), app_suspended,
                                        suspended_servers, dir);
  } else if (!client_stats.failure.empty()) {
    result.failure = "input client failed: " + client_stats.failure;
  } else if (no_play) {
    result.failure = *no_play + "; see " + (dir / "launch.json").string();
  } else if (options.hook && frames == 0) {
    result.failure = fmt::format("{} presented no frame in {:.1f} s (not an OpenGL or Vulkan app, it rendered offscreen, or it "
                                 "needs longer than that to start); see {}", label, measured_s, (dir / "app.log").string());
  } else if (!analysis_failure.empty()) {
    result.failure = analysis_failure;
  }
  // A full disk ranks first: every file written after it filled is suspect, and the symptoms it
  // causes (no frame, an analysis that failed, a client that stopped) are not causes. An
  // interruption keeps its own status and exit code.
  writes.read_recorders(options.hook);
  if (const std::optional<std::string> disk = writes.verdict()) result.failure = *disk;
  if (result.failure.empty() && stalls.is_object() && stalls.value("count", 0) > 0)
    progress.note(fmt::format("pictor: note: {} stall(s) of 1 s or more without a frame, {:.1f} s in all (summary.json stalls)",
                              stalls["count"].get<int>(), stalls.value("total_s", 0.0)));
  result.exit_code = interrupted_by ? 128 + interrupted_by : result.failure.empty() ? 0 : 1;
  result.status = interrupted_by ? "interrupted" : result.failure.empty() ? "ok" : "failed";
  run["processes"] = server_status;
  run["duration_measured_s"] = measured_s;
  run["late_gpu_results_merged"] = late;
  run["files"] = analysis::session_files_json(dir.string());
  run["end_time"] = iso_utc_now();
  run["status"] = result.status;
  if (interrupted_by) run["interrupted_by"] = signal_name(interrupted_by);
  if (!result.failure.empty()) run["failure"] = result.failure;
  run["write_errors"] = writes.to_json();
  try {
    write_json(dir / "run.json", run, kRunJsonWrite);
  } catch (const files::WriteError& e) {
    // Even the room kept for it was not enough: the last line is all that says so.
    writes.failed(e);
    result.failure = writes.verdict().value_or(e.what());
    result.exit_code = 1;
  }
  // report.html from the files above; one that cannot be drawn is a note, never a failed session.
  if (const std::string note = report::try_write_session_report(dir.string()); !note.empty()) progress.note("pictor: note: " + note);
  return result;
}

}  // namespace pictor::runner
