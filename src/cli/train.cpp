// `pictor train`: trains the intelligent client's detector and policy (DESIGN §9). Without
// libtorch (no pictor::ic_torch) it reports that it is missing. The phases: the command line as
// training options, ic::train_model, one summary line.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/units.h"

#ifdef PICTOR_HAVE_IC_TORCH
#include "ic/torch/trainer.h"
#endif

namespace pictor::cli {

#ifdef PICTOR_HAVE_IC_TORCH
namespace {

struct TrainArgs {
  std::vector<std::string> recordings;
  std::string out;
  int steps = -1, detector_steps = -1, policy_steps = -1;
  std::uint64_t seed = 1;
  int threads = 1;
  std::string aim = "auto";
  std::string input;
  std::string confidence = "0.3";
  bool accept_weak = false;
};

// The command line as training options. Checks what is about how it was written (a number, a
// size in multiples of 8); the trainer checks the values (check_train_options).
ic::TrainOptions train_options(const TrainArgs& a) {
  ic::TrainOptions o;
  o.recordings = a.recordings;
  o.out = a.out;
  if (a.steps >= 0) o.detector_steps = o.policy_steps = a.steps;
  if (a.detector_steps >= 0) o.detector_steps = a.detector_steps;
  if (a.policy_steps >= 0) o.policy_steps = a.policy_steps;
  o.seed = a.seed;
  o.threads = a.threads;
  o.aim = a.aim;
  o.accept_weak = a.accept_weak;
  if (a.confidence == "auto") {
    o.confidence.reset();
  } else {  // the range is the trainer's to check
    char* end = nullptr;
    o.confidence = std::strtod(a.confidence.c_str(), &end);
    if (a.confidence.empty() || *end)
      throw UsageError(fmt::format("pictor train: --confidence {}: expected auto or a number between 0 and 1",
                                   a.confidence));
  }
  if (!a.input.empty()) {
    const Size in = parse_size(a.input);
    if (in.width % 8 || in.height % 8)
      throw UsageError(fmt::format("pictor train: --input {}: width and height must be multiples of 8", a.input));
    o.shape.input_width = in.width;
    o.shape.input_height = in.height;
  }
  return o;
}

// The one line on stdout: the model's final losses, its held-out figures and its verdict.
void print_summary(const std::string& out, const ic::ModelManifest& m, bool saved) {
  const auto& losses = m.info["final_losses"];
  const bool weak = m.info["verdict"]["weak"] == true;
  fmt::print("model {}{}: detector loss {}, policy loss {}, held-out key accuracy {} (majority {}), mAP@0.5 {}{}\n",
             out, weak ? " (weak)" : "", losses["detector"].dump(), losses["policy"].dump(),
             m.info["metrics"]["policy_on_detector"]["held_accuracy"].dump(),
             m.info["metrics"]["policy_on_detector"]["majority_baseline_accuracy"].dump(),
             m.info["metrics"]["detector"]["map50"].dump(), saved ? "" : ", not saved");
  std::fflush(stdout);
}

}  // namespace

void add_train(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("train", "Train a detector and an LSTM policy from recordings (REC dirs)");
  auto args = std::make_shared<TrainArgs>();
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
  cmd->add_flag("--accept-weak", args->accept_weak,
                "Save the model even when it is weak: its policy no better than each key's majority state, or a "
                "labelled class not detected (docs/intelligent-client.md); without it such a model is refused (exit 1)");
  cmd->callback([args, &ctx] {
    // Read by OpenMP when its pool starts (first parallel region): idle workers sleep instead
    // of spinning on the shared cores. A value the user set is kept.
    setenv("OMP_WAIT_POLICY", "passive", 0);
    ic::TrainOptions o = train_options(*args);
    Progress progress(ctx.quiet);
    o.progress = [&](const std::string& line) { progress.update(line); };
    o.note = [&](const std::string& line) { progress.note(line); };
    try {
      print_summary(o.out, ic::train_model(o), true);
    } catch (const ic::WeakModelError& e) {
      print_summary(o.out, e.manifest, false);  // the figures behind the refusal, then its one line
      throw;
    }
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
