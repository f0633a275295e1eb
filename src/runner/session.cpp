#include "runner/session.h"

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
#include "analysis/rtt.h"
#include "client/local_client.h"
#include "drivers/driver.h"
#include "report/trace.h"
#include "apps/scene.h"
#include "analysis/summary.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/progress.h"
#include "report/frametime_graph.h"
#include "runner/install_paths.h"
#include "runner/machine.h"
#include "runner/process.h"
#include "runner/xvfb.h"

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

std::string iso_time_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string default_out_dir(const std::string& name) {
  const std::time_t t = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&t));
  std::string clean;
  for (char c : name) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return "pictor-out/" + std::string(stamp) + "-" + clean.substr(0, 40);
}

void write_json(const fs::path& path, const nlohmann::json& j) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw RunError("cannot write " + path.string());
    out << j.dump(2) << '\n';
    if (!out) throw RunError("cannot write " + path.string() + " (disk full?)");
  }
  fs::rename(tmp, path);
}

void prepare_out_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("cannot create output directory '" + dir.string() + "': " + ec.message());
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError("output directory '" + dir.string() + "' is not writable");
  // Stale files of an earlier session in the same directory would mix with this one.
  for (const char* f : {"frames.csv", "gpu.csv", "hook.json", "hook.log", "summary.json", "frametime.png",
                        "app.log", "xvfb.log", "inputs_read.csv", "inputs.csv", "client_inputs.csv",
                        "client_frames.csv", "trace.json"})
    fs::remove(dir / f, ec);
}

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> out;
  std::string arg;
  while (std::getline(in, arg, '\0')) out.push_back(arg);
  return out;
}

nlohmann::json status_json(const Process& p, const std::string& how) {
  nlohmann::json j{{"name", p.name()}, {"pid", p.pid()}, {"ended", how}};
  if (const auto& s = p.status()) {
    j["status"] = s->describe();
    j["exit_code"] = s->exited ? nlohmann::json(s->code) : nlohmann::json(nullptr);
    j["signal"] = s->exited ? nlohmann::json(nullptr) : nlohmann::json(s->signal);
  }
  return j;
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
  if (!(options.duration_s > 0)) throw UsageError("--duration must be positive");
  std::unique_ptr<drivers::Driver> driver;
  if (!options.driver.empty()) {
    if (!options.hook) throw UsageError("--driver needs the interposer (drop --no-hook)");
    driver = options.driver_factory ? options.driver_factory() : drivers::make_driver(options.driver);
  }
  const fs::path dir = options.out_dir.empty() ? default_out_dir(fs::path(label).filename().string()) : options.out_dir;
  prepare_out_dir(dir);
  const std::string hook_lib = options.hook ? find_hook_library() : std::string();

  RunResult result;
  result.dir = dir.string();
  nlohmann::json run{{"schema", 1},
                     {"pictor_version", "0.1.0"},
                     {"command_line", options.argv.empty() ? own_command_line() : options.argv},
                     {"app", {{"label", label}, {"argv", argv}}},
                     {"adapter", "local"},
                     {"driver", driver ? nlohmann::json(driver->spec()) : nlohmann::json(nullptr)},
                     {"size", fmt::format("{}x{}", options.size.width, options.size.height)},
                     {"duration_requested_s", options.duration_s},
                     {"interposer", options.hook ? nlohmann::json(hook_lib) : nlohmann::json(nullptr)},
                     {"machine", machine_info()},
                     {"start_time", iso_time_now()},
                     {"status", "running"}};
  write_json(dir / "run.json", run);

  Progress progress(options.quiet);
  InterruptGuard interrupts;
  std::unique_ptr<Xvfb> xvfb;
  std::optional<Process> app;
  std::unique_ptr<client::LocalClient> input_client;
  client::ClientStats client_stats;
  std::string app_end = "not started";
  double measured_s = 0;
  try {
    xvfb = Xvfb::start({options.size.width, options.size.height}, (dir / "xvfb.log").string());
    run["display"] = xvfb->display();
    SpawnOptions spawn;
    spawn.argv = argv;
    spawn.env["DISPLAY"] = xvfb->display();
    if (options.hook) {
      const char* preload = std::getenv("LD_PRELOAD");
      spawn.env["LD_PRELOAD"] = hook_lib + (preload && *preload ? std::string(":") + preload : "");
      spawn.env["PICTOR_OUT"] = fs::absolute(dir).string();
      if (driver && options.marker) spawn.env["PICTOR_MARKER"] = "1";
    }
    spawn.stdout_path = (dir / "app.log").string();
    spawn.stderr_path = (dir / "app.log").string();
    progress.note(fmt::format("pictor: running {} on Xvfb {} for {:g} s", label, xvfb->display(), options.duration_s));
    const std::int64_t start = monotonic_ns();
    app = Process::spawn(spawn);
    if (driver) {
      client::LocalClientOptions co;
      co.display = xvfb->display();
      co.out_dir = dir.string();
      co.app_running = [&app] { return app->running(); };
      co.expect_marker = options.marker;
      try {
        input_client = client::LocalClient::start(co, std::move(driver));
      } catch (const RunError& e) {
        // The app stays measured; the failure is reported with the results.
        client_stats.failure = e.what();
      }
    }
    bool client_ended_noted = false;
    bool inputs_finished = false;
    for (;;) {
      measured_s = static_cast<double>(monotonic_ns() - start) * 1e-9;
      if (!app->running()) {
        app_end = "exited by itself";
        break;
      }
      if (g_interrupt.load()) {
        app_end = "stopped by pictor (interrupted)";
        break;
      }
      if (measured_s >= options.duration_s) {
        app_end = "stopped by pictor after the duration";
        break;
      }
      if (!xvfb->process().running()) {
        app_end = "stopped by pictor (Xvfb died)";
        break;
      }
      // The last inputs need time to be answered and seen: no new input in the final 300 ms.
      if (input_client && measured_s >= options.duration_s - 0.3 && !inputs_finished) {
        inputs_finished = true;
        input_client->finish_inputs();
      }
      if (input_client && !input_client->running() && !client_ended_noted) {
        client_ended_noted = true;
        progress.note("pictor: the input client stopped early; the app keeps running");
      }
      progress.update(fmt::format("pictor: {} {:.0f}/{:g} s", label, measured_s, options.duration_s));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // The client first: it releases held keys while the app can still read them.
    if (input_client) {
      client_stats = input_client->stop();
      // Let the app read any release the client still had to send, so it is not "not read".
      if (app->running()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    app->stop(options.grace_s);
  } catch (...) {
    if (input_client) input_client->stop();
    if (app) app->stop(0.5);
    if (xvfb) xvfb->stop();
    run["status"] = "failed to start";
    run["end_time"] = iso_time_now();
    write_json(dir / "run.json", run);
    throw;
  }
  const ExitStatus xvfb_status = xvfb->stop();
  (void)xvfb_status;

  // Derived files, from what the hook recorded.
  const std::size_t late = options.hook ? merge_late_gpu(dir.string()) : 0;
  bool have_frames = fs::exists(dir / "frames.csv");
  std::size_t frames = 0;
  if (have_frames) {
    try {
      const analysis::FrameSeries series = analysis::load_frames(dir.string());
      frames = series.swap_ns.empty() ? (series.frame_ms.empty() ? 0 : series.frame_ms.size() + 1) : series.swap_ns.size();
      result.summary = analysis::summarize_frames(series);
      write_json(dir / "summary.json", result.summary);
      if (series.frame_ms.size() >= 1) report::write_frametime_png(series, (dir / "frametime.png").string());
    } catch (const std::exception& e) {
      result.exit_code = 1;
      result.failure = std::string("cannot analyse the recorded frames: ") + e.what();
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
    try {
      const nlohmann::json rtt = analysis::match_inputs(dir.string());
      if (result.summary.is_object())
        for (auto it = rtt.begin(); it != rtt.end(); ++it) result.summary[it.key()] = it.value();
      write_json(dir / "summary.json", result.summary);
      report::write_trace(dir.string());
    } catch (const std::exception& e) {
      if (result.failure.empty()) {
        result.exit_code = 1;
        result.failure = std::string("cannot match inputs to frames: ") + e.what();
      }
    }
    if (!client_stats.failure.empty() && result.failure.empty()) {
      result.exit_code = 1;
      result.failure = "input client failed: " + client_stats.failure;
    }
  } else if (options.hook && frames > 0) {
    try {
      report::write_trace(dir.string());
    } catch (const std::exception&) {
      // trace.json is a convenience for sessions without inputs; the frame files stand alone.
    }
  }
  if (fs::exists(dir / "hook.json")) {
    try {
      std::ifstream in(dir / "hook.json");
      run["gl"] = nlohmann::json::parse(in);
    } catch (...) {
      run["gl"] = nullptr;
    }
  }

  // Verdict: what the user has to know, in one line.
  const auto& st = app->status();
  const bool by_itself = app_end == "exited by itself";
  if (g_interrupt.load()) {
    result.exit_code = 1;
    result.failure = fmt::format("interrupted after {:.1f} s; results so far are in {}", measured_s, dir.string());
  } else if (app_end == "stopped by pictor (Xvfb died)") {
    result.exit_code = 1;
    result.failure = "Xvfb died during the run; see " + (dir / "xvfb.log").string();
  } else if (by_itself && (frames == 0 || !st || !st->exited || st->code != 0)) {
    result.exit_code = 1;
    result.failure = fmt::format("{} exited after {:.1f} s ({}){}; see {}", label, measured_s,
                                 st ? st->describe() : "unknown status",
                                 frames == 0 ? " before presenting a frame" : "",
                                 (dir / "app.log").string());
  } else if (options.hook && frames == 0 && result.failure.empty()) {
    result.exit_code = 1;
    result.failure = fmt::format("{} presented no frame in {:.1f} s (not an OpenGL app, or it rendered "
                                 "offscreen); see {}", label, measured_s, (dir / "app.log").string());
  }
  run["processes"] = {status_json(xvfb->process(), "stopped by pictor"), status_json(*app, app_end)};
  run["duration_measured_s"] = measured_s;
  run["late_gpu_results_merged"] = late;
  run["end_time"] = iso_time_now();
  run["status"] = result.exit_code == 0 ? "ok" : "failed";
  if (!result.failure.empty()) run["failure"] = result.failure;
  write_json(dir / "run.json", run);
  return result;
}

}  // namespace pictor::runner
