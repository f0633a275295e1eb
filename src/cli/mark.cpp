// `pictor mark`: the MotionMark-method peak-complexity benchmark, and `pictor mark score`, which
// scores recorded samples without rendering. The work lives in pictor::mark.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <ctime>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "core/out_dir.h"
#include "core/units.h"
#include "mark/harness.h"
#include "mark/mark_output.h"
#include "mark/samples_json.h"
#include "mark/score.h"
#include "mark/tests/catalog.h"
#include "core/time_text.h"

namespace pictor::cli {
namespace {

struct MarkArgs {
  std::string tests, size, fps = "60", duration = "30s", controller = "ramp", out, display;
  bool force = false;
  double complexity = 100;
  int iterations = 1;
  int retry_disturbed = 2;
  bool vsync = false, json = false, list = false;
  std::string samples_path;
  DbArgs db;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string default_out_dir() { return "mark-" + local_stamp_now(); }

mark::MarkOptions to_options(const MarkArgs& a) {
  mark::MarkOptions o;
  o.tests = split_list(a.tests);
  for (const auto& t : o.tests) mark::stages::find_test(t);
  if (!a.size.empty()) o.size = mark::stage_size(a.size);
  if (a.fps == "auto") {
    o.fps_auto = true;
  } else {
    try {
      std::size_t used = 0;
      o.fps = std::stod(a.fps, &used);
      if (used != a.fps.size()) throw std::invalid_argument(a.fps);
    } catch (const std::exception&) {
      throw UsageError("--fps must be a number or 'auto', got '" + a.fps + "'");
    }
  }
  o.duration_s = parse_duration_s(a.duration);
  o.controller = a.controller;
  o.fixed_complexity = a.complexity;
  o.display = a.display;
  o.vsync = a.vsync;
  o.iterations = a.iterations;
  o.retry_disturbed = a.retry_disturbed;
  return o;
}

// On a terminal one line updates in place; otherwise (logs, CI) a plain line every few seconds.
void print_progress(const mark::Progress& p, bool tty) {
  static std::string last_test;
  static double last_printed = -1e9;
  if (!tty) {
    if (p.test == last_test && p.elapsed_s - last_printed < 5) return;
    last_test = p.test;
    last_printed = p.elapsed_s;
  }
  const std::string iteration = p.iterations > 1 ? fmt::format(" iteration {}/{}", p.iteration, p.iterations) : "";
  const std::string attempt = p.attempt > 1 ? fmt::format(" (attempt {}: disturbed before)", p.attempt) : "";
  const auto line = fmt::format("mark{} [{}/{}] {:<10} {:>6.1f} s  {:<8} complexity {:.0f}{}", iteration, p.index, p.count,
                                p.test, p.elapsed_s, p.phase, p.complexity, attempt);
  if (tty)
    std::fprintf(stderr, "\r%-78s", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

void add_mark(CLI::App& app, Context& ctx) {
  static MarkArgs args;
  auto* cmd = app.add_subcommand("mark", "Peak-complexity benchmark with MotionMark 1.3.1's method");
  cmd->require_subcommand(0, 1);
  cmd->add_option("--tests", args.tests,
                  "Comma-separated tests (default: multiply,arcs,leaves,paths,lines,images,design,suits; also focus)");
  cmd->add_option("--size", args.size, "Stage size: small (568x320), medium (900x600), large (1600x800) or WxH "
                                       "(default: from the screen size; medium on the embedded Xvfb)");
  cmd->add_option("--fps", args.fps, "Target frame rate, or 'auto' to detect it (vsync displays)")->capture_default_str();
  cmd->add_option("--duration", args.duration, "Test interval per test (MotionMark: 30s)")->capture_default_str();
  cmd->add_option("--controller", args.controller, "ramp (scores) or fixed (holds --complexity)")
      ->check(CLI::IsMember({"ramp", "fixed"}))
      ->capture_default_str();
  cmd->add_option("--complexity", args.complexity, "Element count for --controller fixed")
      ->check(CLI::Range(1.0, 4e6))
      ->capture_default_str();
  cmd->add_option("--iterations", args.iterations,
                  "Run the whole list of tests this many times in turn (MotionMark runs several): each iteration's "
                  "scores, and their mean with the run-to-run interval")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--retry-disturbed", args.retry_disturbed,
                  "Run a test again, up to this many times, when its later ramps' change points spread by more "
                  "than 30 % (something outside the benchmark took the CPU; docs/mark.md); 0: every test once, "
                  "as MotionMark")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  cmd->add_option("-o,--out", args.out, "Output directory (default: ./mark-YYYYMMDD-HHMMSS, numbered if taken)");
  cmd->add_flag("--force", args.force, "--out holds earlier results: delete its contents and write there");
  cmd->add_option("--display", args.display, "Use this X display (e.g. :0) instead of a private Xvfb");
  cmd->add_flag("--vsync", args.vsync, "Pace frames by the display's vsync instead of an emulated tick");
  cmd->add_flag("--json", args.json, "Print mark.json on stdout instead of the table");
  cmd->add_flag("--list", args.list, "List the tests and exit");
  add_db_options(cmd, args.db);

  auto* score = cmd->add_subcommand("score", "Score samples without rendering (MotionMark-exact); prints JSON");
  score->add_option("SAMPLES.json", args.samples_path,
                    "{\"fps\": 60, \"samples\": [[type, time, complexity, frameLength], ...]}")
      ->required();
  score->callback([] {
    const auto set = mark::read_sample_set(args.samples_path);
    auto out = mark::score_to_json(mark::score_samples(set.samples, set.fps));
    out["fps"] = set.fps;
    std::printf("%s\n", out.dump(2).c_str());
  });

  cmd->callback([score, &ctx] {
    if (score->parsed()) return;
    if (args.list) {
      for (const auto& t : mark::stages::test_catalog())
        std::printf("%-10s %-13s %s%s\n", t.name.c_str(), t.title.c_str(), t.description.c_str(),
                    t.default_suite ? "" : " (not in the default suite)");
      return;
    }
    auto options = to_options(args);
    // Never into an earlier run's directory (its mark.json would mix with this one) unless --force.
    const std::string out = claim_out_dir(args.out, default_out_dir(), args.force).string();
    options.xvfb_log = out + "/xvfb.log";
    const bool tty = isatty(fileno(stderr));
    const bool quiet = ctx.quiet;
    const auto iterations = mark::run_mark_iterations(options, [&](const mark::Progress& p) {
      if (!quiet) print_progress(p, tty);
    });
    if (!quiet && tty) std::fprintf(stderr, "\n");
    if (iterations.size() == 1) {
      const mark::MarkResult& result = iterations.front();
      mark::write_mark_outputs(out, result, options);
      if (args.json)
        std::printf("%s\n", mark::mark_to_json(result, options).dump(1).c_str());
      else
        std::printf("%s", mark::format_mark_table(result).c_str());
    } else {
      const nlohmann::json summary = mark::iterations_to_json(iterations, options);
      mark::write_iteration_outputs(out, iterations, options, summary);
      if (args.json)
        std::printf("%s\n", summary.dump(1).c_str());
      else
        std::printf("%s", mark::format_iterations_table(summary).c_str());
    }
    if (!quiet) std::fprintf(stderr, "mark: wrote %s/mark.json\n", out.c_str());
    record_in_db(args.db, out, quiet);
  });
}

}  // namespace pictor::cli
