// `pictor analyze PATH [--json]`: reads a session directory, a frames.csv, a MangoHud or a
// PresentMon CSV and prints the frame figures of DESIGN 6 (table, or summary.json's frame part);
// for a session directory also its RTT figures and the bottleneck verdict; for the directory of
// several stacks run together (`--instances N`, `pictor colocate`) the per-member table and the
// aggregate, and for a sweep (`--instances 1,2,3,4`) the sweep table.
#include <cstdio>
#include <string>

#include <filesystem>

#include "analysis/bottleneck.h"
#include "analysis/load.h"
#include "analysis/play_window.h"
#include "analysis/rtt.h"
#include "analysis/session_data.h"
#include "analysis/session_end.h"
#include "analysis/summary.h"
#include "cli/commands.h"
#include "resources/resource_summary.h"
#include "runner/group_summary.h"
#include "runner/remote_run.h"

namespace pictor::cli {
namespace fs = std::filesystem;

namespace {

// The group summary of a directory whose run.json lists members (instance-K/, or the colocated
// benchmarks), computed again from the members' summary.json and run.json and the group's
// resources.csv (analyze writes nothing); null when `dir` is no group's directory.
nlohmann::json group_figures(const fs::path& dir) {
  const nlohmann::json run = analysis::read_json_file((dir / "run.json").string());
  if (!run.is_object() || !run.contains("members") || !run["members"].is_array()) return nullptr;
  std::vector<runner::GroupMemberFigures> members;
  for (const auto& m : run["members"]) {
    const fs::path member = dir / m.value("dir", m.value("name", std::string()));
    members.push_back({m.value("name", member.filename().string()), m.value("status", std::string()),
                       analysis::read_json_file((member / "summary.json").string()),
                       analysis::read_json_file((member / "run.json").string())});
  }
  const auto series = resources::load_resources(dir.string());
  return runner::group_summary(members, series ? resources::summarize_resources(*series)
                                                : nlohmann::json{{"unavailable", "no resources.csv"}});
}

// The sweep's rows from each instances-N/ group directory, in the order of sweep.json's counts.
std::vector<nlohmann::json> sweep_rows(const fs::path& dir) {
  const nlohmann::json sweep = analysis::read_json_file((dir / "sweep.json").string());
  std::vector<nlohmann::json> rows;
  if (!sweep.is_object() || !sweep.contains("counts")) return rows;
  for (const auto& n : sweep["counts"]) {
    const nlohmann::json group = group_figures(dir / ("instances-" + std::to_string(n.get<int>())));
    if (group.is_object()) rows.push_back(runner::sweep_row(n.get<int>(), group));
  }
  return rows;
}

}  // namespace

void add_analyze(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand(
      "analyze", "Frame-time figures of a session directory, frames.csv, MangoHud or PresentMon CSV");
  struct Options {
    std::string path;
    bool json = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("PATH", opts->path,
                  "Session directory, Pictor frames.csv, MangoHud CSV log or PresentMon CSV "
                  "(format detected from the content)")
      ->required();
  cmd->add_flag("--json", opts->json, "Print the figures as JSON (the frame part of summary.json)");
  cmd->callback([opts, &ctx] {
    if (fs::is_directory(opts->path)) {
      if (const nlohmann::json group = group_figures(opts->path); group.is_object()) {
        std::fputs((opts->json ? group.dump(2) + "\n" : runner::format_group_table(group)).c_str(), stdout);
        return;
      }
      if (const auto rows = sweep_rows(opts->path); !rows.empty()) {
        std::fputs((opts->json ? nlohmann::json(rows).dump(2) + "\n" : runner::format_sweep_table(rows)).c_str(), stdout);
        return;
      }
    }
    analysis::FrameSeries series = analysis::load_frames(opts->path);
    // A stall after the last frame needs the session's end: run.json's, for a session directory.
    analysis::attach_session_end(series, opts->path);
    // A session directory of a profile: the figures of play, as `pictor run` wrote them.
    const bool is_session = std::filesystem::is_directory(opts->path);
    nlohmann::json summary = is_session
                                 ? analysis::summarize_session_frames(series, analysis::read_launch_record(opts->path))
                                 : analysis::summarize_frames(series);
    // A session with a client's files: the input figures too, computed again from the recorded
    // files (nothing is written: analyze only reads).
    if (is_session && std::filesystem::exists(std::filesystem::path(opts->path) / "client_inputs.csv")) {
      const analysis::RttTimeline timeline = analysis::load_rtt_timeline(opts->path);
      std::vector<std::string> notes;
      const auto matched = analysis::match_timeline(timeline, &notes);
      const nlohmann::json rtt = analysis::rtt_summary(timeline, matched, notes);
      for (auto it = rtt.begin(); it != rtt.end(); ++it) summary[it.key()] = it.value();
    }
    // A session with resources.csv: its resources block, computed again from the rows.
    std::optional<resources::ResourceSeries> res;
    if (is_session) res = resources::load_resources(opts->path);
    const nlohmann::json run =
        is_session ? analysis::read_json_file((std::filesystem::path(opts->path) / "run.json").string()) : nlohmann::json();
    if (res) {
      summary["resources"] = resources::summarize_resources(*res);
      // A two-host session's rows are the render host's (docs/two-hosts.md "Resources").
      if (run.is_object() && run.contains("two_hosts") && run["two_hosts"].value("server", "") != "")
        summary["resources"]["host"] = runner::render_host_resources_label(run["two_hosts"]["server"].get<std::string>());
    }
    // The bottleneck verdict of a session, from the figures above and its files (docs/reports.md).
    if (is_session) analysis::add_bottleneck(summary, run, opts->path);
    // Remarks about the input go to stderr so stdout stays the result alone.
    if (!ctx.quiet) {
      for (const std::string& note : series.notes) {
        std::fprintf(stderr, "pictor: note: %s\n", note.c_str());
      }
    }
    const std::string text =
        opts->json ? summary.dump(2) + "\n"
                   : analysis::format_frame_summary(summary) + analysis::format_rtt_summary(summary) +
                         (res ? resources::format_resources(summary["resources"]) : std::string()) +
                         analysis::format_bottleneck(summary);
    std::fputs(text.c_str(), stdout);
  });
}

}  // namespace pictor::cli
