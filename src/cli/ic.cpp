// `pictor ic eval`: compares input drivers against a reference (paper table 3), and the
// registration of the intelligent client's drivers. The work is in ic::run_ic_eval; this file
// maps options (the benchmark, the driver list) and prints the table.
#include <cstdio>

#include "cli/commands.h"
#include "core/error.h"
#include "drivers/driver.h"
#include "ic/act_modes.h"
#include "ic/drivers.h"
#include "ic/ic_eval.h"
#include "ic/recording.h"

#ifdef PICTOR_HAVE_IC_TORCH
#include "ic/torch/ic_driver.h"
#endif

namespace pictor::cli {

void register_drivers() {
  ic::register_drivers();
  drivers::DriverInfo info{"ic", "the intelligent client: detects objects on each frame, an LSTM policy decides",
                           ic::ic_driver_option_set(), nullptr};
#ifdef PICTOR_HAVE_IC_TORCH
  info.make = [](const options::Values& values, std::string_view) {
    return ic::make_ic_driver(ic::ic_driver_options(values));
  };
#else
  info.make = [](const options::Values&, std::string_view) -> std::unique_ptr<drivers::Driver> {
    throw UsageError("driver 'ic': this pictor was built without libtorch");
  };
#endif
  drivers::register_driver(std::move(info));
}

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

// The benchmark: the one given, or the reference recording's game; a built-in game either way.
std::string eval_target(const EvalArgs& a) {
  std::string target = a.target;
  if (target.empty()) {
    if (a.reference.find(':') != std::string::npos)
      throw UsageError("ic eval: give the benchmark (builtin:GAME) when the reference is a driver");
    target = ic::read_recording(a.reference).info.game;
  }
  if (target.rfind("builtin:", 0) != 0) throw UsageError("ic eval: the benchmark must be builtin:NAME, not '" + target + "'");
  return target;
}

// The command line as evaluation options.
ic::EvalOptions eval_options(const EvalArgs& a, const Context& ctx) {
  ic::EvalOptions o;
  const std::string target = eval_target(a);
  o.run.builtin = target.substr(8);
  o.run.duration_s = parse_duration_s(a.duration, "--duration", runner::kMinSessionS, runner::kMaxSessionS);
  o.run.size = parse_size(a.size);
  o.run.adapter = a.adapter;
  o.run.net = a.net;
  o.run.quiet = ctx.quiet;
  o.target_label = target;
  o.reference = a.reference;
  o.seed = a.seed;
  o.out = a.out;
  o.force = a.force;
  o.rounds = a.rounds;
  o.drivers = ic::split_driver_specs(a.drivers, drivers::driver_names());
  return o;
}

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
  eval->add_option("--net", args->net, net_flag_help());
  eval->add_option("--seed", args->seed, "seed of the reference player when it runs as a driver")->capture_default_str();
  eval->add_option("-o,--out", args->out, "directory for the sessions and ic_eval.json (default pictor-out/ic-eval, numbered if taken)");
  eval->add_flag("--force", args->force, "--out holds earlier results: delete its contents and write there");
  eval->add_option("--rounds", args->rounds, "run the whole set this many times in turn; report medians")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  eval->add_flag("--json", args->json, "print ic_eval.json instead of the table");
  eval->footer("Example:\n  pictor ic eval --reference rec --drivers replay:rec,gated-replay:rec,slow-motion:rec -d 20s -o eval");
  eval->callback([args, &ctx] {
    const nlohmann::json result = ic::run_ic_eval(eval_options(*args, ctx));
    if (args->json) std::printf("%s\n", result.dump(2).c_str());
    else std::printf("%s", ic::format_ic_eval(result).c_str());
  });
}

}  // namespace pictor::cli
