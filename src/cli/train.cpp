// `pictor train`: trains the intelligent client's detector and policy (DESIGN §9), and registers
// the `ic:MODEL` driver. Without libtorch (no pictor::ic) both report that they are missing.
#include <fmt/format.h>

#include <cstdlib>

#include "cli/commands.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/units.h"
#include "drivers/driver.h"

#ifdef PICTOR_HAVE_IC
#include "ic/ic_driver.h"
#include "ic/trainer.h"
#endif

namespace pictor::cli {

void register_drivers() {
#ifdef PICTOR_HAVE_IC
  drivers::register_driver("ic", [](std::string_view args, std::string_view spec) {
    return ic::make_ic_driver(ic::parse_ic_driver_args(args, spec));
  });
#else
  drivers::register_driver("ic", [](std::string_view, std::string_view) -> std::unique_ptr<drivers::Driver> {
    throw UsageError("driver 'ic': this pictor was built without libtorch");
  });
#endif
}

#ifdef PICTOR_HAVE_IC
void add_train(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("train", "Train a detector and an LSTM policy from recordings (REC dirs)");
  struct Args {
    std::vector<std::string> recordings;
    std::string out;
    int steps = -1, detector_steps = -1, policy_steps = -1;
    std::uint64_t seed = 1;
    int threads = 1;
    std::string aim = "auto";
    std::string input;
    std::string confidence = "0.3";
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("REC", args->recordings, "Recording directories (pictor record)")->required();
  cmd->add_option("--out,-o", args->out, "Model directory to write")->required();
  cmd->add_option("--steps", args->steps, "Training steps for both networks (default: detector 2000, policy 1500)");
  cmd->add_option("--detector-steps", args->detector_steps, "Detector steps (overrides --steps)");
  cmd->add_option("--policy-steps", args->policy_steps, "Policy steps (overrides --steps)");
  cmd->add_option("--input", args->input,
                  "Detector input WxH, multiples of 8 (default 128x72; at most the recordings' frame size)");
  cmd->add_option("--confidence", args->confidence,
                  "Detector decode threshold, 0..1, or auto: the one of 0.05, 0.10 ... 0.95 with the best F1 on the "
                  "held-out frames (default 0.3)");
  cmd->add_option("--seed", args->seed, "Random seed (weights, batches, augmentation)");
  cmd->add_option("--threads", args->threads, "Torch threads (1: deterministic)");
  cmd->add_option("--aim", args->aim,
                  "What the pointer means: pointer (it points at objects), crosshair (its motion turns a first-person "
                  "view), or auto (decided from the recordings)")
      ->check(CLI::IsMember({"auto", "pointer", "crosshair"}));
  cmd->callback([args, &ctx] {
    // Read by OpenMP when its pool starts (first parallel region): idle workers sleep instead
    // of spinning on the shared cores. A value the user set is kept.
    setenv("OMP_WAIT_POLICY", "passive", 0);
    ic::TrainOptions o;
    o.recordings = args->recordings;
    o.out = args->out;
    if (args->steps >= 0) o.detector_steps = o.policy_steps = args->steps;
    if (args->detector_steps >= 0) o.detector_steps = args->detector_steps;
    if (args->policy_steps >= 0) o.policy_steps = args->policy_steps;
    o.seed = args->seed;
    o.threads = args->threads;
    o.aim = args->aim;
    if (args->confidence == "auto") {
      o.confidence.reset();
    } else {  // the range is the trainer's to check
      char* end = nullptr;
      o.confidence = std::strtod(args->confidence.c_str(), &end);
      if (args->confidence.empty() || *end)
        throw UsageError(fmt::format("pictor train: --confidence {}: expected auto or a number between 0 and 1",
                                     args->confidence));
    }
    if (!args->input.empty()) {
      const Size in = parse_size(args->input);
      if (in.width % 8 || in.height % 8)
        throw UsageError(fmt::format("pictor train: --input {}: width and height must be multiples of 8", args->input));
      o.shape.input_width = in.width;
      o.shape.input_height = in.height;
    }
    Progress progress(ctx.quiet);
    o.progress = [&](const std::string& line) { progress.update(line); };
    o.note = [&](const std::string& line) { progress.note(line); };
    const ic::ModelManifest m = ic::train_model(o);
    const auto& losses = m.info["final_losses"];
    fmt::print("model {}: detector loss {}, policy loss {}, held-out key accuracy {} (majority {}), mAP@0.5 {}\n",
               o.out, losses["detector"].dump(), losses["policy"].dump(),
               m.info["metrics"]["policy_on_detector"]["held_accuracy"].dump(),
               m.info["metrics"]["policy_on_detector"]["majority_baseline_accuracy"].dump(),
               m.info["metrics"]["detector"]["map50"].dump());
  });
}
#else
void add_train(CLI::App& app, Context&) {
  auto* cmd = app.add_subcommand("train", "Train a detector and an LSTM policy from recordings");
  cmd->allow_extras();
  cmd->callback([] { throw UsageError("pictor train: this pictor was built without libtorch"); });
}
#endif

}  // namespace pictor::cli
