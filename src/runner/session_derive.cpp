#include "runner/session_derive.h"

#include <filesystem>
#include <fmt/format.h>

#include "analysis/load.h"
#include "analysis/play_window.h"
#include "analysis/rtt.h"
#include "analysis/session_schema.h"
#include "analysis/summary.h"
#include "core/files.h"
#include "core/json_util.h"
#include "core/time_text.h"
#include "report/frametime_graph.h"
#include "report/html/report.h"
#include "report/trace.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

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
  // A server Pictor did not start (--adapter display) has no log of Pictor's to point to.
  return fmt::format("{} died {:.1f} s into the session ({}){}{}; results so far are in {}", cause.name, at_s, cause.how,
                     after.empty() ? "" : "; " + and_list(after) + " ended after it",
                     cause.log.empty() ? "" : "; see " + cause.log, dir.string());
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

// What derive found in the files.
struct Derived {
  std::size_t late = 0;
  std::size_t frames = 0;
  analysis::LaunchRecord launch;
  std::string analysis_failure;  // a failure found after the run: a symptom, named only when nothing caused it
};

// Files → metrics: frames.csv's late GPU results, summary.json, frametime.png, the client's
// block of run.json, the matched inputs (RTT) and trace.json.
Derived derive(const StackRecord& stack, nlohmann::json& summary, SessionWrites& writes) {
  const SessionPlan& plan = stack.plan;
  const RunOptions& options = plan.options;
  const fs::path& dir = stack.dir;
  nlohmann::json& run = stack.run;
  Derived d;
  try {
    d.late = options.hook ? merge_late_gpu(dir.string()) : 0;
  } catch (const files::WriteError& e) {
    writes.failed("late GPU results (frames.csv not rewritten)", e.error());
  }
  // A profile session (pictor-launch wrote launch.json): figures and graph describe play.
  d.launch = analysis::read_launch_record(dir.string());
  if (fs::exists(dir / "frames.csv")) {
    try {
      analysis::FrameSeries series = analysis::load_frames(dir.string());
      series.session_end_ns = stack.end.end_ns;  // the time after the last frame up to here may be a stall
      d.frames = series.swap_ns.empty() ? (series.frame_ms.empty() ? 0 : series.frame_ms.size() + 1) : series.swap_ns.size();
      summary = analysis::summarize_session_frames(series, d.launch);
      if (summary.is_object()) summary["render"] = render_json(plan.render);
      writes.json("summary.json", summary);
      const analysis::FrameSeries shown = analysis::figure_frames(series, d.launch);
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
      d.analysis_failure = std::string("cannot analyse the recorded frames: ") + e.what();
    }
  }
  if (!options.driver.empty()) {
    const client::ClientStats& cs = stack.client_stats;
    run["client"] = {{"driver", cs.driver},
                     {"inputs_sent", cs.inputs_sent},
                     {"motions_sent", cs.motions_sent},
                     {"captures", cs.captures},
                     {"markers_read", cs.markers_read},
                     {"capture_failures", cs.capture_failures},
                     {"window_id", cs.window ? nlohmann::json(cs.window) : nlohmann::json(nullptr)},
                     {"notes", cs.notes},
                     {"driver_report", cs.driver_report},
                     {"failure", cs.failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(cs.failure)}};
    if (!cs.driver.empty()) run["driver"] = cs.driver;
    if (stack.client) stack.client->add_to_run(run);
    try {
      const nlohmann::json rtt = analysis::match_inputs(dir.string());
      if (summary.is_object())
        for (auto it = rtt.begin(); it != rtt.end(); ++it) summary[it.key()] = it.value();
      // A proxy's update cap must not silently bound what is measured (docs/remote.md).
      const nlohmann::json& proxy = run.contains("proxy") ? run["proxy"] : nlohmann::json();
      if (summary.is_object() && proxy.contains("frame_rate_cap") &&
          summary.value("fps_client_updates", nlohmann::json()).is_number()) {
        const double cap = proxy["frame_rate_cap"].get<double>();
        const double ups = summary["fps_client_updates"].get<double>();
        if (ups >= 0.9 * cap)
          summary["adapter_notes"].push_back(fmt::format(
              "client updates/s ({:.0f}) reached Xvnc's -FrameRate cap ({:g}): client FPS and RTT are bounded by "
              "the cap; raise it with --vnc-frame-rate", ups, cap));
      }
      // A stock viewer's own work has no timestamp Pictor can tie to an input: say where it went.
      if (summary.is_object() && proxy.contains("viewer")) {
        const std::string viewer = proxy["viewer"].value("program", "the viewer");
        summary["adapter_notes"].push_back(
            proxy.value("proxy_hook", false)
                ? fmt::format("the client played {0}'s window: CS includes {0} taking the input from its display and "
                              "sending it; the proxy's update (wait_proxy, CP), the network and {0}'s decoding, "
                              "buffering and drawing are the remainder, in unattributed_ms (docs/remote.md, \"Stock "
                              "viewers\")",
                              viewer)
                : fmt::format("the client played {0}'s window, and no hook times the proxy: CS and SP are not "
                              "measured (the input's way through {0}, the socket and the server's injection lies in "
                              "wait_app_ms and PS_ms, sent to the app's read), and SS_ms is the remainder from the "
                              "app's swap to the marker read in {0}'s window: the server's capture and encoding, the "
                              "socket, {0}'s decoding and drawing (docs/remote.md, \"Stock viewers\")",
                              viewer));
      }
      writes.json("summary.json", summary);
      report::write_trace(dir.string());
    } catch (const files::WriteError& e) {
      writes.failed(e);
    } catch (const std::exception& e) {
      if (d.analysis_failure.empty()) d.analysis_failure = std::string("cannot match inputs to frames: ") + e.what();
    }
  } else if (options.hook && d.frames > 0) {
    try {
      report::write_trace(dir.string());
    } catch (const files::WriteError& e) {
      writes.failed(e);
    } catch (const std::exception&) {
      // trace.json is a convenience for sessions without inputs; the frame files stand alone.
    }
  }
  return d;
}

// The verdict: what the user has to know, in one line naming the first cause. Causes rank before
// their symptoms: a dead server makes the app exit and the client lose its connection; a client
// that failed to start leaves no client_inputs.csv to match; a session that ended before play
// has no inputs at all.
std::string verdict(const StackRecord& stack, const Derived& d, const nlohmann::json& summary, int interrupted_by) {
  const SessionPlan& plan = stack.plan;
  const RunOptions& options = plan.options;
  const StackEnd& e = stack.end;
  const fs::path& dir = stack.dir;
  const std::string& label = plan.label;
  const auto& st = stack.app_status;
  const bool by_itself = e.app_exited_first && !e.dead_server;
  const std::optional<std::string> no_play = analysis::play_never_started(d.launch, options.duration_s);
  const nlohmann::json stalls = summary.is_object() ? summary.value("stalls", nlohmann::json()) : nlohmann::json();
  const bool ended_in_stall = stalls.is_object() && stalls.value("ended_in_stall", nlohmann::json()) == true;
  const std::string& client_failure = stack.client_stats.failure;
  if (interrupted_by)
    return fmt::format("interrupted by {} after {:.1f} s; results so far are in {}", signal_name(interrupted_by),
                       e.measured_s, dir.string());
  if (e.dead_server) return server_died(*e.dead_server, stack.processes, label, stack.start_ns, dir);
  if (by_itself && (d.frames == 0 || !st || !st->exited || st->code != 0))
    return fmt::format("{} exited after {:.1f} s ({}){}; see {}", label, e.measured_s,
                       st ? st->describe() : "unknown status", d.frames == 0 ? " before presenting a frame" : "",
                       (dir / "app.log").string());
  if (!by_itself && d.frames > 0 && ended_in_stall && !no_play)
    // Frozen (a hang, SIGSTOP, a suspended X server): the app is the cause of its client's troubles.
    // A profile still in its start-up is said so below instead (loading screens may show nothing).
    return stopped_presenting(label, e.measured_s, stalls["last_frame_to_end_s"].get<double>(), e.app_suspended,
                              e.suspended_servers, dir);
  if (!client_failure.empty()) return "input client failed: " + client_failure;
  if (no_play) return *no_play + "; see " + (dir / "launch.json").string();
  if (options.hook && d.frames == 0)
    return fmt::format("{} presented no frame in {:.1f} s (not an OpenGL or Vulkan app, it rendered offscreen, or it "
                       "needs longer than that to start); see {}", label, e.measured_s, (dir / "app.log").string());
  return d.analysis_failure;
}

}  // namespace

void write_run_json(const fs::path& dir, const nlohmann::json& run) {
  write_json_file(dir / "run.json", run, kRunJsonWrite);
}

StackRecord record_of(Stack& s) {
  return {s.plan(), s.dir(), s.run(), s.end_state(), s.client_stats(), s.client(), s.app().status(), s.processes(), s.start_ns(), s.name()};
}

RunResult conclude(Stack& stack, const ConcludeOptions& options, SessionWrites& writes, Progress& progress) {
  return conclude(record_of(stack), options, writes, progress);
}

RunResult conclude(const StackRecord& stack, const ConcludeOptions& options, SessionWrites& writes, Progress& progress) {
  const fs::path& dir = stack.dir;
  nlohmann::json& run = stack.run;
  RunResult result;
  result.dir = dir.string();
  const Derived d = derive(stack, result.summary, writes);
  if (options.resources) {
    if (options.shared) options.resources->add_stack_to(stack.name, result.summary, run, writes);
    else options.resources->add_to(result.summary, run, writes);
  } else if (options.remote_resources && !options.remote_resources->is_null()) {
    if (result.summary.is_object()) {
      result.summary["resources"] = *options.remote_resources;
      writes.json("summary.json", result.summary);
    } else {
      run["resources"] = *options.remote_resources;
    }
  }
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
  const int interrupted_by = stack.end.interrupted_by;
  result.failure = verdict(stack, d, result.summary, interrupted_by);
  // A full disk ranks first: every file written after it filled is suspect, and the symptoms it
  // causes (no frame, an analysis that failed, a client that stopped) are not causes. An
  // interruption keeps its own status and exit code.
  writes.read_recorders(stack.plan.options.hook);
  if (const std::optional<std::string> disk = writes.verdict()) result.failure = *disk;
  const nlohmann::json stalls = result.summary.is_object() ? result.summary.value("stalls", nlohmann::json()) : nlohmann::json();
  if (result.failure.empty() && stalls.is_object() && stalls.value("count", 0) > 0)
    progress.note(fmt::format("pictor: note: {} stall(s) of 1 s or more without a frame, {:.1f} s in all (summary.json stalls)",
                              stalls["count"].get<int>(), stalls.value("total_s", 0.0)));
  result.exit_code = interrupted_by ? 128 + interrupted_by : result.failure.empty() ? 0 : 1;
  result.status = interrupted_by ? "interrupted" : result.failure.empty() ? "ok" : "failed";
  run["processes"] = stack.processes;
  run["duration_measured_s"] = stack.end.measured_s;
  run["late_gpu_results_merged"] = d.late;
  run["files"] = analysis::session_files_json(dir.string());
  run["end_time"] = iso_utc_now();
  run["status"] = result.status;
  if (interrupted_by) run["interrupted_by"] = signal_name(interrupted_by);
  if (!result.failure.empty()) run["failure"] = result.failure;
  run["write_errors"] = writes.to_json();
  try {
    write_run_json(dir, run);
  } catch (const files::WriteError& e) {
    // Even the room kept for it was not enough: the last line is all that says so.
    writes.failed(e);
    result.failure = writes.verdict().value_or(e.what());
    result.exit_code = 1;
  }
  // report.html from the files above; one that cannot be drawn is a note, never a failed session.
  // It comes after run.json (it shows it), so its failure is added to run.json's write_errors then.
  if (const std::string note = report::try_write_session_report(dir.string()); !note.empty()) {
    progress.note("pictor: note: " + note);
    const std::string prefix = "report.html not written: ";
    add_write_error(dir / "run.json", "report.html", note.rfind(prefix, 0) == 0 ? note.substr(prefix.size()) : note);
  }
  return result;
}

}  // namespace pictor::runner
