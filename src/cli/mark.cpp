// `pictor mark`: the MotionMark-method peak-complexity benchmark, and `pictor mark score`, which
// scores recorded samples without rendering. The work lives in pictor::mark.
#include <cstdio>

#include "cli/commands.h"
#include "core/error.h"
#include "mark/samples_json.h"
#include "mark/score.h"

namespace pictor::cli {

void add_mark(CLI::App& app, Context& /*ctx*/) {
  auto* cmd = app.add_subcommand("mark", "Peak-complexity benchmark (MotionMark 1.3.1 method)");
  cmd->require_subcommand(0, 1);

  auto* score = cmd->add_subcommand("score", "Score samples without rendering (MotionMark-exact); prints JSON");
  static std::string samples_path;
  score->add_option("SAMPLES.json", samples_path,
                    "{\"fps\": 60, \"samples\": [[type, time, complexity, frameLength], ...]}")
      ->required();
  score->callback([] {
    const auto set = mark::read_sample_set(samples_path);
    const auto result = mark::score_samples(set.samples, set.fps);
    auto out = mark::score_to_json(result);
    out["fps"] = set.fps;
    std::printf("%s\n", out.dump(2).c_str());
  });

  cmd->callback([cmd, score] {
    if (score->parsed()) return;
    (void)cmd;
    throw UsageError("'mark' runs are not available in this build yet; use 'pictor mark score'");
  });
}

}  // namespace pictor::cli
