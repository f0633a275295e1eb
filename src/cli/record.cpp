// `pictor record`: records a play session for the intelligent client (DESIGN §9). The work is
// in ic::record_session; this file maps options (the target: a built-in game or a profile) and
// prints where the recording went.
#include <cstdio>
#include <fmt/format.h>

#include "cli/commands.h"
#include "core/error.h"
#include "ic/record.h"
#include "suite/suite_runner.h"

namespace pictor::cli {

namespace {
struct RecordArgs {
  std::string target;
  std::string driver = "reference";
  std::string duration = "30s";
  std::string size = "1280x720";
  std::string frame_size = "256x144";
  std::string adapter = "local";
  std::string net;
  std::uint64_t seed = 1;
  std::string out;
  bool force = false;
};

// The command line as recording options: the session (a built-in game, or a profile applied to
// it), the driver, the seed, REC and the recorded frames' size.
ic::RecordOptions record_options(const RecordArgs& a, const Context& ctx) {
  ic::RecordOptions o;
  o.run.duration_s = parse_duration_s(a.duration, "--duration", runner::kMinSessionS, runner::kMaxSessionS);
  o.run.size = parse_size(a.size);
  o.run.adapter = a.adapter;
  o.run.net = a.net;
  o.run.quiet = ctx.quiet;
  if (a.target.rfind("builtin:", 0) == 0) {
    o.run.builtin = a.target.substr(8);
  } else if (a.target.rfind("profile:", 0) == 0) {
    suite::apply_profile_target(a.target.substr(8), o.run);
  } else {
    throw UsageError("record: target must be builtin:GAME or profile:NAME, not '" + a.target + "'");
  }
  o.target_label = a.target;
  o.driver = a.driver;
  o.seed = a.seed;
  o.out = a.out;
  o.force = a.force;
  o.frame_size = parse_size(a.frame_size);
  return o;
}

}  // namespace

void add_record(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<RecordArgs>();
  auto* cmd = app.add_subcommand("record", "Record a play session (frames, inputs, labels) for training");
  cmd->add_option("target", args->target, "builtin:GAME[:options] or profile:NAME")->required();
  cmd->add_option("--driver", args->driver,
                  "who plays: reference (seeded scripted player, built-in games; synthetic), or any driver spec")
      ->capture_default_str();
  cmd->add_option("-d,--duration", args->duration, "how long to play")->capture_default_str();
  cmd->add_option("-s,--size", args->size, "window size WxH")->capture_default_str();
  cmd->add_option("--frame-size", args->frame_size, "size of the recorded frames WxH")->capture_default_str();
  cmd->add_option("--adapter", args->adapter, "display/proxy stack: local, xvnc, x11vnc")->capture_default_str();
  cmd->add_option("--net", args->net, net_flag_help());
  cmd->add_option("--seed", args->seed, "the reference player's seed")->capture_default_str();
  cmd->add_option("-o,--out", args->out, "recording directory REC (created)")->required();
  cmd->add_flag("--force", args->force, "REC holds earlier results: delete its contents and record there");
  cmd->footer("Example:\n  pictor record --driver reference builtin:racing:seed=3 -d 30s --out rec-racing");
  cmd->callback([args, &ctx] {
    const ic::RecordResult r = ic::record_session(record_options(*args, ctx));
    std::printf("recording %s: %zu frames, %zu inputs, %zu labelled frames (session %s)\n", r.dir.c_str(), r.frames,
                r.inputs, r.labelled, r.session.dir.c_str());
    if (r.session.exit_code != 0) throw RunError(r.session.failure);
  });
}

}  // namespace pictor::cli
