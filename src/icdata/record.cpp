#include "icdata/record.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/out_dir.h"
#include "icdata/baseline_drivers.h"
#include "icdata/human_recorder.h"
#include "icdata/labels.h"
#include "icdata/recording_driver.h"
#include "icdata/reference_player.h"

namespace pictor::icdata {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "racing:seed=3" → "racing".
std::string scene_name(const std::string& builtin) { return builtin.substr(0, builtin.find(':')); }

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
        img.boxes = parse_yolo_text(read_text(p), p.string(), static_cast<int>(classes.size()));
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

RecordResult record_session(const RecordOptions& options) {
  if (options.out.empty()) throw UsageError("pictor record: --out REC is required");
  // Never over an earlier recording or session (their files would mix) unless --force.
  const fs::path rec = fs::absolute(claim_out_dir(options.out, "", options.force)).lexically_normal();

  runner::RunOptions run = options.run;
  const fs::path truth = rec / "truth";
  const fs::path session = rec / "session";
  const bool builtin = !run.builtin.empty();
  const std::string game = builtin ? scene_name(run.builtin) : "";
  const bool game_with_truth = game == "racing" || game == "shooter" || game == "strategy";
  if (game_with_truth) {
    if (run.builtin.find("truth=") != std::string::npos || run.builtin.find("state=") != std::string::npos)
      throw UsageError("pictor record sets the game's truth= and state= itself; leave them out of the target");
    run.builtin += (run.builtin.find(':') == std::string::npos ? ":" : ",") +
                   fmt::format("truth={},state={}", truth.string(), (session / "state.csv").string());
  }
  std::string spec = options.driver;
  if (spec == "reference" || spec.rfind("reference:", 0) == 0) {
    if (!game_with_truth)
      throw UsageError("the reference player plays the built-in games only (builtin:racing, builtin:shooter, "
                       "builtin:strategy); use --driver human or a driver spec for " + options.target_label);
    const std::string extra = spec.size() > 10 ? "," + spec.substr(10) : "";
    spec = fmt::format("reference:game={},seed={},truth={}{}", game, options.seed, truth.string(), extra);
  }
  std::error_code ec;
  fs::create_directories(rec / "frames", ec);
  if (!ec) fs::create_directories(rec / "labels", ec);
  if (ec) throw UsageError(fmt::format("cannot create {}: {}", rec.string(), ec.message()));
  auto log = std::make_shared<RecordingLog>();
  auto spec_holder = std::make_shared<std::pair<std::string, std::vector<std::string>>>();
  run.out_dir = session.string();
  run.driver = spec;
  const std::string rec_dir = rec.string();
  const Size frame_size = options.frame_size;
  const int quality = options.jpeg_quality;
  run.driver_factory = [spec, rec_dir, frame_size, quality, log, spec_holder] {
    auto inner = drivers::make_driver(spec);
    spec_holder->first = inner->spec();
    for (const auto& c : inner->vocabulary()) spec_holder->second.push_back(drivers::input_code_name(c.button, c.code));
    return std::make_unique<RecordingDriver>(std::move(inner), rec_dir, frame_size, quality, log);
  };

  RecordResult result;
  result.dir = rec.string();
  result.session = runner::run_session(run);

  std::lock_guard lock(log->mutex);
  write_rec_frames((rec / "frames.csv").string(), log->frames);
  write_rec_inputs((rec / "inputs.csv").string(), log->inputs);
  RecordingInfo info;
  info.game = options.target_label;
  info.driver = spec_holder->first;
  info.synthetic = options.driver.rfind("human", 0) != 0;
  info.adapter = run.adapter;
  info.net = run.net;
  info.window = run.size;
  info.frame_size = frame_size;
  info.frames = log->frames.size();
  info.inputs = log->inputs.size();
  info.duration_s = log->frames.size() >= 2
                        ? static_cast<double>(log->frames.back().seen_ns - log->frames.front().seen_ns) * 1e-9
                        : 0.0;
  info.vocabulary = spec_holder->second;
  info.session = "session";
  result.labelled = write_labels(rec, truth, log->frames, frame_size, info.classes);
  write_recording_info((rec / "recording.json").string(), info);
  result.frames = info.frames;
  result.inputs = info.inputs;
  if (!log->failure.empty() && result.session.exit_code == 0) {
    result.session.exit_code = 1;
    result.session.failure = "recording frames failed: " + log->failure;
  }
  return result;
}

void register_drivers() {
  drivers::register_driver("reference", [](std::string_view args, std::string_view spec) {
    return std::make_unique<ReferencePlayer>(parse_reference_options(drivers::parse_driver_options(args, spec), spec));
  });
  drivers::register_driver("human", [](std::string_view args, std::string_view spec) {
    const auto o = drivers::parse_driver_options(args, spec);
    const auto it = o.find("display");
    if (o.size() > (it == o.end() ? 0u : 1u) || (it != o.end() && it->second.empty()))
      throw UsageError("driver '" + std::string(spec) + "': the only option is display=:N (the X display the person plays on)");
    return std::make_unique<HumanDriver>(it == o.end() ? std::string() : it->second);
  });
  drivers::register_driver("replay", make_replay_driver);
  drivers::register_driver("gated-replay", make_gated_replay_driver);
  drivers::register_driver("slow-motion", make_slow_motion_driver);
}

}  // namespace pictor::icdata
