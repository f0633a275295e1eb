// `pictor analyze PATH [--json]`: reads a session directory, a frames.csv, a MangoHud or a
// PresentMon CSV and prints the frame figures of DESIGN 6 (table, or summary.json's frame part);
// for a session directory also its RTT figures and the bottleneck verdict.
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

namespace pictor::cli {

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
    if (res) summary["resources"] = resources::summarize_resources(*res);
    // The bottleneck verdict of a session, from the figures above and its files (docs/reports.md).
    if (is_session)
      analysis::add_bottleneck(summary, analysis::read_json_file((std::filesystem::path(opts->path) / "run.json").string()),
                               opts->path);
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
