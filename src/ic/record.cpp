#include "ic/record.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "ic/labels.h"
#include "ic/recording_driver.h"
#include "ic/reference_player.h"

namespace pictor::ic {

namespace fs = std::filesystem;

namespace {

// Copies the game's ground truth of each recorded frame's app frame into REC/labels and
// REC/coco.json (boxes are normalised, so the downscale does not change them). Returns the
// number of labelled frames.
std::size_t write_labels(const fs::path& rec, const fs::path& truth, const std::vector<RecFrame>& frames,
                         Size frame_size, std::vector<std::string>& classes) {
  if (!fs::exists(truth / "classes.txt")) return 0;
  classes = read_classes_txt((truth / "classes.txt").string());
  LabelSet set;
  set.classes = classes;
  std::size_t labelled = 0;
  for (const auto& f : frames) {
    LabelledImage img{f.file, frame_size.width, frame_size.height, std::nullopt};
    if (f.app_frame) {
      const fs::path p = truth / "labels" / fmt::format("frame_{:06d}.txt", *f.app_frame);
      if (fs::exists(p)) {
        img.boxes = parse_yolo_text(files::read_file(p), p.string(), static_cast<int>(classes.size()));
        ++labelled;
      }
    }
    set.images.push_back(std::move(img));
  }
  export_yolo_dir(rec.string(), set);
  export_coco((rec / "coco.json").string(), set);
  return labelled;
}

}  // namespace

RecordingPlan plan_recording(const RecordOptions& options) {
  if (options.out.empty()) throw UsageError("pictor record: --out REC is required");
  RecordingPlan plan;
  const fs::path rec = fs::absolute(options.out).lexically_normal();
  plan.dir = rec.string();
  const fs::path truth = rec / "truth";
  const fs::path session = rec / "session";
  plan.truth_dir = truth.string();
  runner::RunOptions& run = plan.run;
  run = options.run;
  const bool builtin = !run.builtin.empty();
  const std::string game = builtin ? scene_name(run.builtin) : "";
  const bool game_with_truth = plays_reference_game(game);
  if (game_with_truth) {
    if (run.builtin.find("truth=") != std::string::npos || run.builtin.find("state=") != std::string::npos)
      throw UsageError("pictor record sets the game's truth= and state= itself; leave them out of the target");
    run.builtin += (run.builtin.find(':') == std::string::npos ? ":" : ",") +
                   fmt::format("truth={},state={}", truth.string(), (session / "state.csv").string());
  }
  std::string spec = options.driver;
  if (is_reference_spec(spec)) {
    if (!game_with_truth)
      throw UsageError("the reference player plays the built-in games only (builtin:racing, builtin:shooter, "
                       "builtin:strategy); use --driver human or a driver spec for " + options.target_label);
    spec = complete_reference_spec(spec, game, options.seed, truth.string());
  }
  run.out_dir = session.string();
  run.driver = spec;
  return plan;
}

void claim_recording_dir(const RecordingPlan& plan, bool force) { claim_out_dir(plan.dir, "", force); }

namespace {

// What the recording wrapper saw during the session, and what the wrapped driver said it is.
struct RecordedSession {
  runner::RunResult session;
  std::shared_ptr<RecordingLog> log = std::make_shared<RecordingLog>();
  // Filled when the session makes its driver: its resolved spec and vocabulary (names).
  std::shared_ptr<std::pair<std::string, std::vector<std::string>>> driver =
      std::make_shared<std::pair<std::string, std::vector<std::string>>>();
};

// Phase "run": REC/frames and REC/labels created, then the session with the plan's driver
// wrapped by the recording wrapper.
RecordedSession run_recorded_session(const RecordingPlan& plan, const RecordOptions& options) {
  const fs::path rec = plan.dir;
  std::error_code ec;
  fs::create_directories(rec / "frames", ec);
  if (!ec) fs::create_directories(rec / "labels", ec);
  if (ec) throw UsageError(fmt::format("cannot create {}: {}", rec.string(), ec.message()));
  RecordedSession r;
  runner::RunOptions run = plan.run;
  const std::string spec = run.driver;
  const std::string rec_dir = plan.dir;
  const Size frame_size = options.frame_size;
  const int quality = options.jpeg_quality;
  run.driver_factory = [spec, rec_dir, frame_size, quality, log = r.log, spec_holder = r.driver] {
    auto inner = drivers::make_driver(spec);
    spec_holder->first = inner->spec();
    for (const auto& c : inner->vocabulary()) spec_holder->second.push_back(drivers::input_code_name(c.button, c.code));
    return std::make_unique<RecordingDriver>(std::move(inner), rec_dir, frame_size, quality, log);
  };
  r.session = runner::run_session(run);
  return r;
}

// Phase "write": frames.csv, inputs.csv, the labels and recording.json from what was recorded,
// whatever became of the session; a frame that could not be saved fails a session that passed.
RecordResult write_recording(const RecordingPlan& plan, const RecordOptions& options, RecordedSession& recorded) {
  const fs::path rec = plan.dir;
  const RecordingLog& log = *recorded.log;
  std::lock_guard lock(recorded.log->mutex);
  RecordResult result;
  result.dir = plan.dir;
  result.session = std::move(recorded.session);
  write_rec_frames((rec / "frames.csv").string(), log.frames);
  write_rec_inputs((rec / "inputs.csv").string(), log.inputs);
  RecordingInfo info;
  info.game = options.target_label;
  info.driver = recorded.driver->first;
  info.synthetic = options.driver.rfind("human", 0) != 0;
  info.adapter = plan.run.adapter;
  info.net = plan.run.net;
  info.window = plan.run.size;
  info.frame_size = options.frame_size;
  info.frames = log.frames.size();
  info.inputs = log.inputs.size();
  info.duration_s = log.frames.size() >= 2
                        ? static_cast<double>(log.frames.back().seen_ns - log.frames.front().seen_ns) * 1e-9
                        : 0.0;
  info.vocabulary = recorded.driver->second;
  info.session = "session";
  result.labelled = write_labels(rec, plan.truth_dir, log.frames, options.frame_size, info.classes);
  write_recording_info((rec / "recording.json").string(), info);
  result.frames = info.frames;
  result.inputs = info.inputs;
  if (!log.failure.empty() && result.session.exit_code == 0) {
    result.session.exit_code = 1;
    result.session.failure = "recording frames failed: " + log.failure;
  }
  return result;
}

}  // namespace

RecordResult record_session(const RecordOptions& options) {
  const RecordingPlan plan = plan_recording(options);
  claim_recording_dir(plan, options.force);
  RecordedSession recorded = run_recorded_session(plan, options);
  return write_recording(plan, options, recorded);
}

}  // namespace pictor::ic
