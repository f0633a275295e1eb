// `pictor ic eval`: compares input drivers against a reference (paper table 3). The work is in
// icdata::run_ic_eval; this file maps options and prints the table.
#include <cstdio>

#include "cli/commands.h"
#include "core/error.h"
#include "drivers/driver.h"
#include "icdata/ic_eval.h"
#include "icdata/recording.h"

namespace pictor::cli {

namespace {
struct EvalArgs {
  std::string target;
  std::string reference;
  std::string drivers;
  std::string duration = "20s";
  std::string size = "1280x720";
  std::string adapter = "local";
  std::string net;
  std::uint64_t seed = 1;
  int rounds = 1;
  std::string out;
  bool force = false;
  bool json = false;
};
}  // namespace

void add_ic(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("ic", "Intelligent client tools");
  cmd->require_subcommand(1);
  auto args = std::make_shared<EvalArgs>();
  auto* eval = cmd->add_subcommand("eval", "Run drivers on one benchmark and compare their RTTs with a reference (table 3)");
  eval->add_option("target", args->target, "builtin:GAME[:options] (default: the reference recording's game)");
  eval->add_option("--reference", args->reference, "a recording REC (its session's RTTs) or a driver spec run first")
      ->required();
  eval->add_option("--drivers", args->drivers, "comma-separated driver specs (ic:MODEL,replay:REC,gated-replay:REC,...)")
      ->required();
  eval->add_option("-d,--duration", args->duration, "length of each session")->capture_default_str();
  eval->add_option("-s,--size", args->size, "window size WxH")->capture_default_str();
  eval->add_option("--adapter", args->adapter, "display/proxy stack")->capture_default_str();
  eval->add_option("--net", args->net, "emulated network (delay=20ms,...)");
  eval->add_option("--seed", args->seed, "seed of the reference player when it runs as a driver")->capture_default_str();
  eval->add_option("-o,--out", args->out, "directory for the sessions and ic_eval.json (default pictor-out/ic-eval, numbered if taken)");
  eval->add_flag("--force", args->force, "--out holds earlier results: delete its contents and write there");
  eval->add_option("--rounds", args->rounds, "run the whole set this many times in turn; report medians")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  eval->add_flag("--json", args->json, "print ic_eval.json instead of the table");
  eval->footer("Example:\n  pictor ic eval --reference rec --drivers replay:rec,gated-replay:rec,slow-motion:rec -d 20s -o eval");
  eval->callback([args, &ctx] {
    icdata::EvalOptions o;
    std::string target = args->target;
    if (target.empty()) {
      if (args->reference.find(':') != std::string::npos)
        throw UsageError("ic eval: give the benchmark (builtin:GAME) when the reference is a driver");
      target = icdata::read_recording(args->reference).info.game;
    }
    if (target.rfind("builtin:", 0) != 0) throw UsageError("ic eval: the benchmark must be builtin:NAME, not '" + target + "'");
    o.run.builtin = target.substr(8);
    o.run.duration_s = parse_duration_s(args->duration, "--duration", runner::kMinSessionS, runner::kMaxSessionS);
    o.run.size = parse_size(args->size);
    o.run.adapter = args->adapter;
    o.run.net = args->net;
    o.run.quiet = ctx.quiet;
    o.target_label = target;
    o.reference = args->reference;
    o.seed = args->seed;
    o.out = args->out;
    o.force = args->force;
    o.rounds = args->rounds;
    // Driver specs use ',' for their own options, so the list is split where a new spec starts:
    // at a comma followed by a registered driver name and ':' (or the end).
    for (const auto& item : {args->drivers}) {
      std::string current;
      std::size_t pos = 0;
      while (pos <= item.size()) {
        std::size_t comma = item.find(',', pos);
        if (comma == std::string::npos) comma = item.size();
        const std::string part = item.substr(pos, comma - pos);
        const std::string name = part.substr(0, part.find(':'));
        bool starts_spec = false;
        for (const auto& n : drivers::driver_names()) starts_spec = starts_spec || n == name;
        if (starts_spec && !current.empty()) {
          o.drivers.push_back(current);
          current.clear();
        }
        current += (current.empty() ? "" : ",") + part;
        pos = comma + 1;
      }
      if (!current.empty()) o.drivers.push_back(current);
    }
    const nlohmann::json result = icdata::run_ic_eval(o);
    if (args->json) std::printf("%s\n", result.dump(2).c_str());
    else std::printf("%s", icdata::format_ic_eval(result).c_str());
  });
}

}  // namespace pictor::cli
