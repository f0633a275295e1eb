// `pictor suite`: runs a named set of benchmarks one after another and prints the suite table.
// The work is in suite::run_suite; this file maps options and prints.
#include <cstdio>
#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "runner/machine.h"
#include "suite/benchmark.h"
#include "suite/colocate.h"
#include "suite/profile.h"
#include "suite/suite_runner.h"

namespace pictor::cli {

namespace {
struct SuiteArgs {
  std::string name = "default";
  bool quick = false;
  std::string out;
  bool force = false;
  bool json = false;
  bool list = false;
  int repeat = 1;
  DbArgs db;
  std::string colocate;  // "pairs": every benchmark alone, then every pair (suite/colocate.h)
};

// `pictor suite --colocate pairs SUITE`: the suite's benchmarks alone and in every pair.
void run_colocated_suite(const suite::SuiteDefinition& definition, const SuiteArgs& args, Context& ctx) {
  if (args.colocate != "pairs") throw UsageError("--colocate takes 'pairs' (got '" + args.colocate + "')");
  if (args.repeat != 1) throw UsageError("--colocate and --repeat cannot be combined");
  std::vector<suite::ColocateMember> members;
  for (const suite::Benchmark& b : definition.benchmarks) {
    if (b.is_profile() && !suite::profile_installed(suite::load_profile(suite::find_profile(b.target())))) continue;
    members.push_back({b.name, suite::session_options(b, args.quick, "")});
  }
  suite::ColocateOptions co;
  co.pairs = true;
  co.out_dir = args.out;
  co.force = args.force;
  co.quiet = ctx.quiet;
  co.argv = runner::own_command_line();
  const suite::ColocateResult r = suite::run_colocate(members, co);
  if (args.json) std::printf("%s\n", r.report.dump(2).c_str());
  else std::printf("%s", suite::format_colocate(r.report).c_str());
  if (!ctx.quiet) std::fprintf(stderr, "pictor: colocate directory %s (colocate.json)\n", r.dir.c_str());
  end_with(ctx, r.exit_code, r.failure);
}

void print_list() {
  for (const auto& s : suite::builtin_suites()) {
    std::printf("%s: %s\n", s.name.c_str(), s.description.c_str());
    for (const auto& b : s.benchmarks) std::printf("    %s\n", b.text.c_str());
  }
  std::printf("profiles (profile:NAME):\n");
  for (const auto& name : suite::known_profiles()) {
    try {
      const auto p = suite::load_profile(suite::find_profile(name));
      std::printf("    %-16s %s%s\n", name.c_str(), p.description.c_str(),
                  suite::profile_installed(p) ? "" : "  [not installed]");
    } catch (const UsageError& e) {
      std::printf("    %-16s broken: %s\n", name.c_str(), e.what());
    }
  }
}
}  // namespace

void add_suite(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<SuiteArgs>();
  auto* cmd = app.add_subcommand("suite", "Run a suite of benchmarks (built-in games, real games) one after another");
  cmd->add_option("suite", args->name, "suite name (pictor suite --list) or FILE.suite")->capture_default_str();
  cmd->add_flag("--quick", args->quick, "short durations (the default suite then takes under two minutes)");
  cmd->add_option("-o,--out", args->out, "suite directory (default pictor-out/suite-<time>-<name>, numbered if taken)");
  cmd->add_flag("--force", args->force, "--out holds earlier results: delete its contents and write there");
  cmd->add_flag("--json", args->json, "print suite.json instead of the table");
  cmd->add_flag("--list", args->list, "list the built-in suites and the profiles, then exit");
  cmd->add_option("--repeat", args->repeat,
                  "run every benchmark N times (interleaved rounds, NN-name/repeat-K/) and report each figure with its "
                  "interval across the runs")
      ->capture_default_str();
  add_db_options(cmd, args->db);
  cmd->add_option("--colocate", args->colocate,
                  "pairs: run every benchmark alone, then every pair together, and report each one's loss (colocate.json)");
  cmd->footer("A benchmark line: APP [name=N] [driver=SPEC|none] [duration=D] [quick=D] [adapter=local] [size=WxH]\n"
              "  APP is builtin:SCENE[:option=value...] or profile:NAME.\n"
              "Examples:\n  pictor suite --quick\n  pictor suite real-games\n  pictor suite my.suite --out results");
  cmd->callback([args, &ctx] {
    if (args->list) {
      print_list();
      return;
    }
    const suite::SuiteDefinition definition = suite::find_suite(args->name);
    if (!args->colocate.empty()) {
      run_colocated_suite(definition, *args, ctx);
      return;
    }
    suite::SuiteOptions o;
    o.quick = args->quick;
    o.out_dir = args->out;
    o.force = args->force;
    o.quiet = ctx.quiet;
    o.argv = runner::own_command_line();
    o.repeat = args->repeat;
    const nlohmann::json result = suite::run_suite(definition, o);
    record_in_db(args->db, result.value("dir", ""), ctx.quiet);
    if (args->json) std::printf("%s\n", result.dump(2).c_str());
    else std::printf("%s", suite::format_suite_table(result).c_str());
    if (!ctx.quiet)
      std::fprintf(stderr, "pictor: suite directory %s (report: %s/report.html)\n", result.value("dir", "").c_str(),
                   result.value("dir", "").c_str());
    const auto& counts = result["counts"];
    if (result.value("interrupted", false)) {
      // Interruption has its own status (130 for Ctrl-C), not the one of a failed benchmark.
      std::fprintf(stderr, "pictor: suite interrupted after %d of %zu benchmarks; results are in %s\n",
                   counts.value("ok", 0) + counts.value("failed", 0), definition.benchmarks.size(),
                   result.value("dir", "").c_str());
      ctx.exit_code = result.value("interrupted_exit_code", 130);
      return;
    }
    if (counts.value("failed", 0) > 0 || result.value("interrupted", false))
      throw RunError(fmt::format("{} of {} benchmarks failed{}; results are in {}", counts.value("failed", 0),
                                 definition.benchmarks.size(), result.value("interrupted", false) ? " (interrupted)" : "",
                                 result.value("dir", "")));
  });
}

}  // namespace pictor::cli
