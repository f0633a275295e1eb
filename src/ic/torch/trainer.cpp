#include "ic/torch/trainer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <span>

#include "analysis/stats.h"
#include "core/json_util.h"
#include "ic/detections.h"
#include "ic/model_quality.h"
#include "ic/pointer_target.h"
#include "ic/torch/detector_training.h"
#include "ic/torch/networks.h"
#include "ic/torch/policy_evaluation.h"
#include "ic/torch/policy_training.h"
#include "ic/torch/tensors.h"

namespace pictor::ic {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Final losses are the mean of the last kFinalLossSteps steps (NaN when no step ran): one step's
// loss is one batch's, noisy.
constexpr std::size_t kFinalLossSteps = 20;
double final_loss(const std::vector<double>& losses) {
  const std::span<const double> all(losses);
  return analysis::stats::mean(all.last(std::min(kFinalLossSteps, all.size())));
}


void note(const TrainOptions& o, const std::string& line) {
  if (o.note) o.note(line);
}

// Phase "evaluate detector": the trained detector on every frame, detected once at a low
// threshold (AP needs the whole curve); the decode threshold is then the given one or, with
// --confidence auto, the one with the best F1 on the held-out frames (set in the manifest), and
// every frame keeps what that threshold keeps.
struct DetectorEvaluation {
  std::vector<std::vector<std::vector<Detection>>> detected;  // per sequence, per frame, at the threshold
  std::vector<std::vector<Detection>> held_out, held_out_truth;  // the held-out labelled frames
  DetectionScore score;
  DetectionScore visible;  // over the boxes the detector can see (model_quality.h visible_boxes)
};
constexpr double kLowConfidence = 0.05;

DetectorEvaluation evaluate_detector(DetectorNet& det, TrainingSet& set, const TrainOptions& o, double seconds,
                                     const std::vector<double>& losses) {
  ModelManifest& m = set.manifest;
  const auto classes = static_cast<int>(m.classes.size());
  DetectorEvaluation e;
  for (const Sequence& s : set.sequences)
    e.detected.push_back(detect_all(det, s, m, std::min(kLowConfidence, o.confidence.value_or(kLowConfidence))));
  for (const Frame& f : set.detector_held_out) {
    e.held_out.push_back(e.detected[f.seq][f.index]);
    e.held_out_truth.push_back(*set.sequences[f.seq].truth[f.index]);
  }
  if (o.confidence) m.confidence = *o.confidence;
  else if (!e.held_out_truth.empty()) m.confidence = best_f1_confidence(e.held_out, e.held_out_truth, classes, m.confidence);
  // AP over the whole precision/recall curve (down to the low threshold); precision and recall
  // at the chosen one.
  e.score = score_detections(e.held_out, e.held_out_truth, classes, m.confidence);
  e.visible = score_detections(visible_boxes(e.held_out, m.shape.input_width, m.shape.input_height),
                               visible_boxes(e.held_out_truth, m.shape.input_width, m.shape.input_height), classes,
                               m.confidence);
  for (auto& frames : e.detected) frames = above_confidence(frames, m.confidence);
  e.held_out = above_confidence(e.held_out, m.confidence);
  note(o, fmt::format("train: detector {} steps, loss {:.4f}, held-out precision {:.3f} recall {:.3f} at confidence "
                      "{:.2f}{}, mAP@0.5 {:.3f} ({:.0f} s)",
                      o.detector_steps, final_loss(losses), e.score.precision, e.score.recall, m.confidence,
                      o.confidence ? "" : " (best F1)", e.score.map50, seconds));
  std::string per_class;
  for (std::size_t c = 0; c < e.score.per_class.size(); ++c) {
    const DetectionScore::Class& cs = e.score.per_class[c];
    per_class += fmt::format("{}{} AP {:.3f} precision {:.3f} recall {:.3f} ({} boxes; AP {:.3f} on the {} of {} px and "
                             "more)", c ? ", " : "", m.classes[c], cs.ap50, cs.precision, cs.recall, cs.truths,
                             e.visible.per_class[c].ap50, e.visible.per_class[c].truths, kMinVisiblePx);
  }
  note(o, "train: held out per class: " + per_class);
  return e;
}

// What a crosshair driver fires on — a detected box containing the centre — against the truth,
// on the held-out frames: the share of its shots that can hit, and of chances it takes. Null for
// a pointer model.
nlohmann::json crosshair_score(const ModelManifest& m, const DetectorEvaluation& e, const TrainOptions& o) {
  if (m.aim_frame != "crosshair") return nullptr;
  const PointScore ps = score_point(e.held_out, e.held_out_truth, 0.5f, 0.5f);
  note(o, fmt::format("train: a box under the crosshair (held out): detected on {} frames, {} of them right "
                      "(precision {:.3f}); {} of {} true ones found (recall {:.3f})",
                      ps.detected, ps.both, ps.precision(), ps.both, ps.truth, ps.recall()));
  return {{"images", ps.images},          {"detected", ps.detected},
          {"truth", ps.truth},            {"both", ps.both},
          {"precision", number_or_null(ps.precision())}, {"recall", number_or_null(ps.recall())}};
}

nlohmann::json policy_score_json(const PolicyScore& s) {
  return {{"held_accuracy", number_or_null(s.accuracy)},
          {"majority_baseline_accuracy", number_or_null(s.baseline)},
          {"motion_mae_px", number_or_null(s.motion_mae_px)},
          {"frames", s.frames}};
}

// Phase "evaluate and calibrate the policy": its key accuracy on the labels and on the detector's
// output, the calibration of its decisions (set in the manifest), and the pointer target's
// statistics (on the labels of the trained frames: where the teacher aimed) and threshold (on
// the detector's output of the held-out frames: what the driver will see).
struct PolicyEvaluation {
  PolicyScore on_truth, on_detector;
  nlohmann::json calibration, target;
};

PolicyEvaluation evaluate_policy(PolicyRun& run, TrainingSet& set, const PolicyData& data, const TrainOptions& o) {
  ModelManifest& m = set.manifest;
  PolicyNet& pol = run.net;
  PolicyEvaluation e;
  e.on_truth = score_policy(pol, set.sequences, data.truth_features, data.majority, m);
  e.calibration = calibrate_policy(pol, set.sequences, data.detector_features, m);
  e.on_detector = score_policy(pol, set.sequences, data.detector_features, data.majority, m);
  const TargetStats target_stats = target_statistics(data.tracks, data.truth_features, data.train_ends, m);
  m.aim_offsets = target_stats.aim_offsets();
  m.event_given_target = target_stats.event_given_target();
  e.target = calibrate_target(pol, data.tracks, data.detector_features, data.train_ends, m);
  e.target["final_loss"] = number_or_null(final_loss(run.target_losses));
  e.target["event_counts"] = target_stats.counts();
  note(o, fmt::format("train: pointer target: {} held-out events, {} on a box, slot accuracy {}, threshold {:.3f}",
                      e.target["events"].dump(), e.target["events_on_a_box"].dump(), e.target["slot_accuracy"].dump(),
                      m.target_threshold));
  note(o, fmt::format("train: policy {} steps, loss {:.4f}, held-out key accuracy {:.3f} (labels) {:.3f} (detector), "
                      "majority baseline {:.3f} ({:.0f} s)",
                      o.policy_steps, final_loss(run.losses), e.on_truth.accuracy, e.on_detector.accuracy,
                      e.on_truth.baseline, run.seconds));
  return e;
}

// How the model was made (manifest "training", "final_losses", "parameters", versions).
void record_provenance(ModelManifest& m, const TrainingSet& set, const TrainOptions& o, DetectorRun& det,
                       PolicyRun& pol, Clock::time_point t0) {
  nlohmann::json dirs = nlohmann::json::array();
  for (const auto& r : set.recordings) dirs.push_back(r.dir);
  m.info["pictor_version"] = PICTOR_IC_VERSION;
  m.info["libtorch_version"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
  m.info["parameters"] = {{"detector", parameter_count(*det.net)}, {"policy", parameter_count(*pol.net)}};
  m.info["training"] = {
      {"recordings", dirs},
      {"data_hash", training_data_hash(set.recordings)},
      {"data_hash_method", "fnv1a64 over recording.json, frames.csv, inputs.csv, labels/classes.txt, each frame's label and JPEG"},
      {"seed", o.seed},
      {"threads", o.threads},
      {"detector_steps", o.detector_steps},
      {"policy_steps", o.policy_steps},
      {"batch", o.batch},
      {"sequence", pol.sequence},
      {"held_out_fraction", o.held_out},
      {"aim", o.aim},
      {"per_class", o.per_class > 0 ? nlohmann::json(o.per_class)
                                    : nlohmann::json(fmt::format("auto: most objects of one class on a labelled frame, "
                                                                 "clamped to {}..{}", kMinSlots, kMaxSlots))},
      {"frames", set.frames},
      {"frames_trained", set.frames_trained},
      {"policy_features", "half the windows: the trained detector's output; half: ground-truth labels (carried "
                          "over unlabelled frames), confidence uniform 0.5..1, centre jitter up to 1%, 5% of objects dropped"},
      {"detector_augmentation", "half the frames mirrored left-right; learning rate cosine 2e-3 -> 1e-4"},
      {"detector_targets", fmt::format("boxes under {} px wide or high at the input are no targets: their cells are "
                                       "ignored (neither object nor background)", kMinVisiblePx)},
      {"detector_seconds", det.seconds},
      {"policy_seconds", pol.seconds},
      {"seconds", seconds_since(t0)}};
  m.info["final_losses"] = {{"detector", number_or_null(final_loss(det.losses))},
                            {"policy", number_or_null(final_loss(pol.losses))},
                            {"policy_target", number_or_null(final_loss(pol.target_losses))},
                            {"over", "mean of the last 20 steps"}};
}

// How the model does on the held-out frames (manifest "metrics").
void record_metrics(ModelManifest& m, const DetectorEvaluation& det, const PolicyData& data, const PolicyEvaluation& pol,
                    nlohmann::json crosshair) {
  nlohmann::json det_per_class = nlohmann::json::object();
  for (std::size_t c = 0; c < det.score.per_class.size(); ++c) {
    const DetectionScore::Class& cs = det.score.per_class[c];
    det_per_class[m.classes[c]] = {{"ap50", number_or_null(cs.ap50)},
                                   {"precision", number_or_null(cs.precision)},
                                   {"recall", number_or_null(cs.recall)},
                                   {"truths", cs.truths},
                                   {"detections", cs.detections},
                                   {"visible", {{"ap50", number_or_null(det.visible.per_class[c].ap50)},
                                                {"truths", det.visible.per_class[c].truths},
                                                {"min_px", kMinVisiblePx}}}};
  }
  m.info["metrics"] = {
      {"split", fmt::format("the last held_out_fraction of each of up to {} blocks of each recording (at least {} frames "
                            "a block)", kHeldOutBlocks, kMinBlockFrames)},
      {"detector", {{"precision", number_or_null(det.score.precision)},
                    {"recall", number_or_null(det.score.recall)},
                    {"map50", number_or_null(det.score.map50)},
                    {"images", det.score.images},
                    {"truths", det.score.truths},
                    {"detections", det.score.detections},
                    {"per_class", det_per_class}}},
      {"policy_on_labels", policy_score_json(pol.on_truth)},
      {"policy_on_detector", policy_score_json(pol.on_detector)},
      {"pointer_target", pol.target},
      {"aim", data.aim.to_json()},
      {"crosshair_on_a_box", std::move(crosshair)},
      {"calibration", pol.calibration}};
}

}  // namespace

ModelManifest train_model(const TrainOptions& o) {
  const auto t0 = Clock::now();
  const std::function<double()> elapsed_s = [t0] { return seconds_since(t0); };
  check_train_options(o);
  torch::set_num_threads(o.threads);
  torch::manual_seed(o.seed);
  std::mt19937_64 rng(o.seed);  // batches and augmentation, drawn in phase order

  TrainingSet set = load_training_set(o);
  DetectorRun det = train_detector(set, o, rng, elapsed_s);
  const DetectorEvaluation det_eval = evaluate_detector(det.net, set, o, det.seconds, det.losses);
  const PolicyData data = policy_data(set, det_eval.detected, o);
  nlohmann::json crosshair = crosshair_score(set.manifest, det_eval, o);
  PolicyRun pol = train_policy(set, data, o, rng, elapsed_s);
  const PolicyEvaluation pol_eval = evaluate_policy(pol, set, data, o);

  ModelManifest& m = set.manifest;
  record_provenance(m, set, o, det, pol, t0);
  record_metrics(m, det_eval, data, pol_eval, std::move(crosshair));
  m.info["teacher"] = input_mix_json(recorded_mix(set.recordings, m.vocabulary.size()), m.vocabulary);
  const ModelVerdict verdict = assess_model(m.info["metrics"]);
  m.info["verdict"] = verdict_json(verdict);
  std::string why;
  for (const std::string& r : verdict.reasons) why += (why.empty() ? "" : "; ") + r;
  if (verdict.weak && !o.accept_weak)
    throw WeakModelError(fmt::format("train: a weak model, not saved to {}: {} (--accept-weak saves it anyway)", o.out, why),
                         m);
  if (verdict.weak) note(o, fmt::format("train: a weak model, saved because of --accept-weak: {}", why));
  save_model_dir(o.out, m, det.net, pol.net);
  return m;
}

}  // namespace pictor::ic
