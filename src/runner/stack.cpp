#include "runner/stack.h"

#include <X11/Xlib.h>
#include <unistd.h>

#include <chrono>
#include <fmt/format.h>
#include <thread>

#include "analysis/session_schema.h"
#include "client/remote_client.h"
#include "client/x_connection.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/preload.h"
#include "core/time_text.h"
#include "net/netem.h"
#include "net/relay.h"
#include "runner/install_paths.h"
#include "runner/machine.h"
#include "stream/stream_options.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

// How --net is emulated, as run.json `net.emulation` records it: the stream adapter relays its
// video over the UDP relay (or, with transport=tcp, a TCP relay) and its input over a TCP relay.
std::string net_emulation(const SessionPlan& p) {
  if (p.net_spec.is_identity()) return "none";
  if (p.use_netem) return "tc netem on lo";
  if (p.options.adapter != "stream") return "user-space TCP relay";
  return stream::parse_stream_options(p.options.stream).transport == stream::Transport::udp
             ? "user-space UDP relay (video) + TCP relay (input)"
             : "user-space TCP relays (video, input)";
}

// run.json as it is before anything starts (docs/session-files.md).
nlohmann::json initial_run_json(const SessionPlan& p) {
  const RunOptions& o = p.options;
  nlohmann::json run{{"schema", 1},
                     {"pictor_version", "0.1.0"},
                     {"command_line", o.argv.empty() ? own_command_line() : o.argv},
                     {"app", {{"label", p.label}, {"argv", p.argv}}},
                     {"adapter", o.adapter},
                     {"driver", p.driver ? nlohmann::json(p.driver->spec()) : nlohmann::json(nullptr)},
                     {"size", fmt::format("{}x{}", o.size.width, o.size.height)},
                     {"duration_requested_s", o.duration_s},
                     {"interposer", o.hook ? nlohmann::json(p.hook_lib) : nlohmann::json(nullptr)},
                     {"render", render_json(p.render)},
                     {"machine", machine_info()},
                     {"start_time", iso_utc_now()},
                     {"status", "running"}};
  if (p.remote) {
    run["net"] = {{"spec", net::to_string(p.net_spec)}, {"emulation", net_emulation(p)}};
    run["proxy_interposer"] = p.proxy_hook_lib.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.proxy_hook_lib);
  }
  return run;
}

}  // namespace

Stack::Stack(SessionPlan plan, fs::path dir, std::string name)
    : plan_(std::move(plan)), dir_(std::move(dir)), name_(std::move(name)), run_(initial_run_json(plan_)) {}

Stack::~Stack() {
  if (!stopped_ && (adapter_ || app_ || container_)) abort();
}

void Stack::remove_container() {
  if (!container_) return;
  container_->remove();
  run_["container"] = container_->describe();
}

std::vector<nlohmann::json> Stack::container_processes() const {
  return container_ ? container_->helpers() : std::vector<nlohmann::json>{};
}

pid_t Stack::app_pid() const { return app_ ? app_->pid() : -1; }

double Stack::seconds_at(std::int64_t now) const { return static_cast<double>(now - start_) * 1e-9; }

SpawnOptions Stack::app_spawn() const {
  SpawnOptions spawn;
  spawn.argv = plan_.argv;
  spawn.env["DISPLAY"] = adapter_->display();
  if (plan_.options.hook) {
    const char* preload = std::getenv("LD_PRELOAD");
    spawn.env["LD_PRELOAD"] = preload_value(plan_.hook_lib + (preload && *preload ? std::string(":") + preload : ""));
    spawn.env["PICTOR_OUT"] = fs::absolute(dir_).string();
    if (plan_.driver && plan_.options.marker) spawn.env["PICTOR_MARKER"] = "1";
    if (plan_.options.overlay) spawn.env["PICTOR_OVERLAY"] = "1";
    // The app's only: servers, proxies and viewers keep their own GL (docs/offload.md).
    for (const auto& [name, value] : render_environment(plan_.render)) spawn.env[name] = value;
    // The interposer is also a Vulkan layer: a private implicit-layer manifest (docs/vulkan.md).
    for (const auto& [name, value] : vulkan_layer_environment()) spawn.env[name] = value;
  }
  spawn.stdout_path = (dir_ / "app.log").string();
  spawn.stderr_path = (dir_ / "app.log").string();
  return spawn;
}

void Stack::start(Progress& progress, const std::function<void(Stack&)>& on_app) {
  const RunOptions& o = plan_.options;
  AdapterOptions ao;
  ao.size = o.size;
  ao.out_dir = dir_.string();
  ao.proxy_hook = plan_.proxy_hook_lib;
  ao.frame_rate = o.vnc_frame_rate;
  ao.stream = o.stream;
  ao.net = plan_.net_spec;
  ao.net_backend = o.net_backend;
  ao.vnc_quality = o.vnc_quality;
  ao.display = plan_.display;
  if (!o.container.engine.empty()) {
    // One container per stack, named after Pictor and the stack's directory so a leftover says
    // whose it is; the client stays outside and reaches it through the published port.
    static int containers = 0;
    const std::string cname = fmt::format("pictor-{}-{}", ::getpid(), ++containers);
    progress.note(fmt::format("pictor: starting container {} ({}, rootfs {})", cname, o.container.engine, o.container.rootfs));
    container_ = Container::start(o.container, cname, pick_free_port(), {fs::absolute(dir_).string()},
                                  (dir_ / "container.log").string());
    run_["container"] = container_->describe();
    ao.container = container_.get();
  }
  adapter_ = start_adapter(o.adapter, ao);
  run_["display"] = adapter_->display();
  if (plan_.remote) run_["proxy"] = adapter_->describe();
  // A display Pictor did not start: which, and that it was left running (docs/remote.md).
  if (o.adapter == "display") run_["display_server"] = adapter_->describe();
  if (plan_.driver) {
    // A held key must not auto-repeat: the X server would synthesise press/release pairs the
    // client never sent, each a tracked event for the interposer, and the app's count of tags
    // would run ahead of the client's. The setting lives in the server (-noreset keeps it).
    auto x = client::XConnection::open(adapter_->display());
    XAutoRepeatOff(x->display());
    XSync(x->display(), False);
    run_["keyboard_auto_repeat"] = false;
    if (o.adapter == "display") windows_before_app_ = client::top_level_windows(*x);
  }
  std::optional<RfbEndpoint> served;  // where the adapter serves the display over RFB
  if (plan_.remote && (served = adapter_->rfb())) {
    progress.note(fmt::format("pictor: {} serves the session's display on {}:{} (a VNC viewer can watch and play)",
                              o.adapter, served->host, served->port));
    if (plan_.use_netem) {
      // On the proxy's port itself, so a viewer gets the same network as Pictor's client.
      netem_ = net::NetemLink::apply(plan_.net_spec, static_cast<std::uint16_t>(served->port));
      run_["net"]["commands"] = netem_->commands();
    }
  }
  if (plan_.driver && !plan_.server_half) {
    drivers::SessionContext context{adapter_->display(), o.adapter, std::nullopt};
    if (served) context.rfb_port = served->port;
    plan_.driver->attach(context);
  }
  const SpawnOptions spawn = app_spawn();
  const std::string where = plan_.remote            ? o.adapter
                            : o.adapter == "display" ? std::string("the X server (not started by pictor) on")
                                                     : std::string("Xvfb");
  progress.note(fmt::format("pictor: running {} on {} {} for {:g} s", plan_.label, where, adapter_->display(), o.duration_s));
  start_ = monotonic_ns();
  app_ = container_ ? container_->spawn(spawn) : Process::spawn(spawn);
  if (on_app) on_app(*this);
  // While it runs, run.json already says which processes are Pictor's (their pids).
  run_["app"]["pid"] = app_->pid();
  run_["start_ns"] = start_;
  run_["processes"] = adapter_->running_processes();
  run_["processes"].push_back({{"name", app_->name()}, {"pid", app_->pid()}});
  if (plan_.driver && !plan_.server_half) {
    try {
      start_client(served);
    } catch (const RunError& e) {
      // The app stays measured; the failure is reported with the results.
      client_stats_.failure = e.what();
    }
  }
}

void Stack::start_client(const std::optional<RfbEndpoint>& served) {
  const RunOptions& o = plan_.options;
  Process* app = &*app_;
  if (adapter_->has_own_client()) {
    client_ = wrap_client(adapter_->start_client({dir_.string(), o.marker, [app] { return app->running(); }, o.window_timeout_s}, std::move(plan_.driver)));
    return;
  }
  if (!plan_.remote) {
    client::LocalClientOptions co;
    co.display = adapter_->display();
    co.out_dir = dir_.string();
    co.app_running = [app] { return app->running(); };
    co.expect_marker = o.marker;
    co.window_timeout_s = o.window_timeout_s;
    co.ignore_windows = windows_before_app_;
    client_ = wrap_client(client::LocalClient::start(co, std::move(plan_.driver)));
    return;
  }
  // The client is remote: it finds the app's window in the framebuffer through the geometry
  // the X server reports (a thin client would be told by the server side).
  auto x = client::XConnection::open(adapter_->display());
  const client::WindowInfo w = client::wait_for_app_window(*x, o.window_timeout_s, [app] { return app->running(); });
  x.reset();
  run_["window"] = {{"x", w.x}, {"y", w.y}, {"width", w.width}, {"height", w.height}};
  int port = served->port;
  if (!plan_.net_spec.is_identity() && !plan_.use_netem) {
    net::RelayOptions ro;
    ro.target_host = served->host;
    ro.target_port = static_cast<uint16_t>(served->port);
    relay_ = std::make_unique<net::TcpRelay>(plan_.net_spec, ro);
    relay_->start();
    port = relay_->port();
  }
  client::RemoteClientOptions co;
  co.host = "127.0.0.1";
  co.port = port;
  co.out_dir = dir_.string();
  co.window = tag::WindowRect{w.x, w.y, w.width, w.height};
  co.window_id = w.id;  // followed when pictor-launch moves it on screen
  co.jpeg_quality = o.vnc_quality;
  co.subsampling = o.vnc_subsampling;
  co.app_running = [app] { return app->running(); };
  co.expect_marker = o.marker;
  co.keycode_display = adapter_->display();
  auto remote = client::RemoteClient::start(co, std::move(plan_.driver));
  run_["rfb"] = remote->server_info();
  client_ = wrap_client(std::move(remote));
}

bool Stack::poll_app(std::int64_t now) {
  if (end_.ended) return false;
  if (app_->running()) return true;
  // An app whose display server died exits at once, often before the server is reaped: the
  // server is the cause, so give it up to 200 ms to show as dead before blaming the app.
  end_.dead_server = adapter_->dead();
  for (int i = 0; i < 10 && !end_.dead_server; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    end_.dead_server = adapter_->dead();
  }
  end_.app_exited_first = true;
  end_.ended = true;
  end_.end_ns = now;
  end_.measured_s = seconds_at(now);
  return false;
}

bool Stack::poll_servers(std::int64_t now) {
  if (end_.ended) return false;
  if ((end_.dead_server = adapter_->dead())) {
    end(now, "after " + end_.dead_server->name + " died");
    return false;
  }
  return true;
}

void Stack::drive(std::int64_t now, double deadline_s, Progress& progress) {
  if (end_.ended) return;
  // The last inputs need time to be answered and seen: no new input in the final 300 ms.
  if (client_ && seconds_at(now) >= deadline_s - 0.3 && !inputs_finished_) {
    inputs_finished_ = true;
    client_->finish_inputs();
  }
  if (client_ && !client_stopped_ && !client_->running() && !client_ended_noted_) {
    client_ended_noted_ = true;
    progress.note("pictor: " + (name_.empty() ? "" : name_ + ": ") + "the input client stopped early; the app keeps running");
  }
}

void Stack::end(std::int64_t now, const std::string& reason, int signal) {
  if (end_.ended) return;
  end_.ended = true;
  end_.interrupted_by = signal;
  end_.stop_reason = reason;
  end_.end_ns = now;
  end_.measured_s = seconds_at(now);
}

void Stack::stop_client() {
  if (client_ && !client_stopped_) {
    client_stats_ = client_->stop();
    client_stopped_ = true;
  }
}

void Stack::stop() {
  stopped_ = true;
  // A suspended process (SIGSTOP) runs no code: seen now, before the stop, it explains a freeze.
  end_.suspended_servers = adapter_->suspended();
  end_.app_suspended = app_->suspended();
  run_["end_ns"] = end_.end_ns;
  // The client first: it releases held keys while the app can still read them.
  if (client_ && !client_stopped_) {
    stop_client();
    // Let the app read any release the client still had to send, so it is not "not read".
    if (app_->running() && !end_.dead_server) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  app_->stop(plan_.options.grace_s);
  if (relay_) {
    relay_->stop();
    run_["net"]["bytes_up"] = relay_->bytes_up();
    run_["net"]["bytes_down"] = relay_->bytes_down();
    run_["net"]["connections"] = relay_->connections();
  }
  netem_.reset();
  processes_ = adapter_->stop({"at the end of the session", start_});
  if (plan_.options.adapter == "display") run_["display_server"] = adapter_->describe();
  remove_container();
  // The app's entry: why Pictor stopped it, or what had died before it ended by itself.
  processes_.push_back(process_status_json(*app_, {end_.stop_reason, start_},
                                           end_.dead_server ? end_.dead_server->name + " died" : ""));
}

void Stack::abort() {
  stopped_ = true;
  end_.ended = true;
  stop_client();
  if (relay_) relay_->stop();
  netem_.reset();
  if (app_) app_->stop(0.5);
  std::vector<nlohmann::json> stopped;
  if (adapter_) stopped = adapter_->stop({"after a failed start", start_});
  if (adapter_ && plan_.options.adapter == "display") run_["display_server"] = adapter_->describe();
  remove_container();
  if (app_) stopped.push_back(process_status_json(*app_, {"after a failed start", start_}));
  if (adapter_ || app_) run_["processes"] = stopped;
  run_["status"] = "failed to start";
  run_["end_time"] = iso_utc_now();
  run_["files"] = analysis::session_files_json(dir_.string());
}

}  // namespace pictor::runner
