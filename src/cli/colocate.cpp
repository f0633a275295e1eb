// `pictor colocate A B [C…]`: different benchmarks on one server, each alone and then together,
// and each one's loss against its solo run. The work is in suite::run_colocate.
#include <cstdio>
#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "resources/sampler.h"
#include "runner/adapter.h"
#include "runner/session.h"
#include "suite/colocate.h"
#include "suite/suite_runner.h"

namespace pictor::cli {

namespace {
struct ColocateArgs {
  std::vector<std::string> targets;
  std::string duration = "10s";
  std::string size = "1280x720";
  std::string driver;
  std::string adapter = "local";
  std::string sample_interval = "100ms";
  bool no_resources = false;
  bool pairs = false;
  std::string out;
  bool force = false;
  bool json = false;
};
}  // namespace

void add_colocate(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ColocateArgs>();
  auto* cmd = app.add_subcommand("colocate",
                                 "Run different benchmarks alone, then together on this machine, and report each one's loss");
  cmd->add_option("targets", args->targets, "two or more builtin:NAME[:option=value...] or profile:NAME")->required();
  cmd->add_option("-d,--duration", args->duration, "how long each run lasts (10s, 2m)")->capture_default_str();
  cmd->add_option("-s,--size", args->size, "window/screen size WxH")->capture_default_str();
  cmd->add_option("--driver", args->driver, "every benchmark's input driver (see pictor run --driver); none by default");
  cmd->add_option("--adapter", args->adapter, "every benchmark's " + adapter_flag_help())->capture_default_str();
  cmd->add_option("--sample-interval", args->sample_interval, "the resource sampler's interval (10ms..10s)")
      ->capture_default_str();
  cmd->add_flag("--no-resources", args->no_resources, "run without the resource sampler");
  cmd->add_flag("--pairs", args->pairs, "every pair instead of all of them at once (the loss matrix)");
  cmd->add_option("-o,--out", args->out, "directory (default pictor-out/<time>-colocate, numbered if taken)");
  cmd->add_flag("--force", args->force, "--out holds earlier results: delete its contents and write there");
  cmd->add_flag("--json", args->json, "print colocate.json instead of the table");
  cmd->footer("Examples:\n  pictor colocate builtin:racing builtin:shooter -d 10s\n"
              "  pictor colocate --pairs --adapter xvnc --driver scripted builtin:racing builtin:shooter builtin:platformer");
  cmd->callback([args, &ctx] {
    if (args->targets.size() < 2) throw UsageError("colocate needs at least two benchmarks");
    const std::vector<std::string> names = suite::member_names(args->targets);
    std::vector<suite::ColocateMember> members;
    for (std::size_t i = 0; i < args->targets.size(); ++i) {
      const std::string& t = args->targets[i];
      runner::RunOptions o;
      o.duration_s = parse_duration_s(args->duration, "--duration", runner::kMinSessionS, runner::kMaxSessionS);
      o.size = parse_size(args->size);
      o.sample_interval_s = parse_duration_s(args->sample_interval, "--sample-interval", resources::kMinSampleIntervalS,
                                             resources::kMaxSampleIntervalS);
      o.resources = !args->no_resources;
      o.driver = args->driver;
      o.adapter = args->adapter;
      if (t.rfind("builtin:", 0) == 0) o.builtin = t.substr(8);
      else if (t.rfind("profile:", 0) == 0) suite::apply_profile_target(t.substr(8), o);
      else throw UsageError("colocate takes builtin:NAME or profile:NAME targets (got '" + t + "')");
      members.push_back({names[i], o});
    }
    suite::ColocateOptions co;
    co.pairs = args->pairs;
    co.out_dir = args->out;
    co.force = args->force;
    co.quiet = ctx.quiet;
    const suite::ColocateResult r = suite::run_colocate(members, co);
    if (args->json) std::printf("%s\n", r.report.dump(2).c_str());
    else std::printf("%s", suite::format_colocate(r.report).c_str());
    if (!ctx.quiet) std::fprintf(stderr, "pictor: colocate directory %s (colocate.json)\n", r.dir.c_str());
    end_with(ctx, r.exit_code, r.failure);
  });
}

}  // namespace pictor::cli
