#include "ic/trainer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "core/error.h"
#include "ic/calibration.h"
#include "ic/detections.h"
#include "ic/detector_training.h"
#include "ic/networks.h"
#include "ic/policy_evaluation.h"
#include "ic/target_training.h"
#include "ic/training_data.h"
#include "ic/training_sequence.h"

namespace pictor::ic {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Policy features at training time come from the ground-truth labels, perturbed the way a
// detector's output differs from truth: confidence uniform in 0.5..1, centre jitter of up to 1 %
// of the frame, each object dropped with probability 5 %.
std::vector<float> augmented_features(const std::vector<Detection>& objects, const FeatureLayout& layout,
                                      std::mt19937_64& rng) {
  std::uniform_real_distribution<float> conf(0.5f, 1.0f), jitter(-0.01f, 0.01f), drop(0.0f, 1.0f);
  std::vector<Detection> noisy;
  for (Detection d : objects) {
    if (drop(rng) < 0.05f) continue;
    d.confidence = conf(rng);
    d.cx = std::clamp(d.cx + jitter(rng), 0.0f, 1.0f);
    d.cy = std::clamp(d.cy + jitter(rng), 0.0f, 1.0f);
    noisy.push_back(d);
  }
  return frame_features(noisy, layout);
}

double mean_of_last(const std::vector<double>& v, std::size_t n) {
  if (v.empty()) return std::nan("");
  const std::size_t k = std::min(n, v.size());
  double s = 0;
  for (std::size_t i = v.size() - k; i < v.size(); ++i) s += v[i];
  return s / static_cast<double>(k);
}

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

double median_frame_interval_ms(const std::vector<Sequence>& seqs) {
  std::vector<std::int64_t> gaps;
  for (const Sequence& s : seqs)
    for (std::size_t i = 1; i < s.seen_ns.size(); ++i) gaps.push_back(s.seen_ns[i] - s.seen_ns[i - 1]);
  if (gaps.empty()) return 0;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  return static_cast<double>(gaps[gaps.size() / 2]) / 1e6;
}

nlohmann::json policy_score_json(const PolicyScore& s) {
  return {{"held_accuracy", number_or_null(s.accuracy)},
          {"majority_baseline_accuracy", number_or_null(s.baseline)},
          {"motion_mae_px", number_or_null(s.motion_mae_px)},
          {"frames", s.frames}};
}

}  // namespace

int auto_slots_per_class(const std::vector<std::vector<int>>& counts) {
  int most = 0;
  for (const auto& frame : counts)
    for (const int n : frame) most = std::max(most, n);
  return std::clamp(most, kMinSlots, kMaxSlots);
}

ModelManifest train_model(const TrainOptions& o) {
  const auto t0 = Clock::now();
  auto progress = [&](const std::string& line) { if (o.progress) o.progress(line); };
  auto note = [&](const std::string& line) { if (o.note) o.note(line); };
  if (o.recordings.empty()) throw UsageError("train: no recordings given");
  if (o.detector_steps < 0 || o.policy_steps < 0) throw UsageError("train: steps must be >= 0");
  if (o.threads < 1) throw UsageError("train: --threads must be >= 1");
  if (o.batch < 1 || o.sequence < 1) throw UsageError("train: batch and sequence must be >= 1");
  if (!(o.held_out >= 0.0 && o.held_out <= 0.9)) throw UsageError("train: held-out fraction must be 0..0.9");
  if (o.confidence && !(*o.confidence > 0 && *o.confidence < 1))
    throw UsageError(fmt::format("train: --confidence {}: expected auto or a number between 0 and 1", *o.confidence));
  torch::set_num_threads(o.threads);
  torch::manual_seed(o.seed);
  std::mt19937_64 rng(o.seed);

  std::vector<TrainingRecording> recs;
  for (const std::string& dir : o.recordings) recs.push_back(load_training_recording(dir));
  check_compatible(recs);
  if (o.shape.input_width > recs[0].info.frame_size.width || o.shape.input_height > recs[0].info.frame_size.height)
    throw UsageError(fmt::format("train: detector input {}x{} is larger than the recorded frames ({}x{})",
                                 o.shape.input_width, o.shape.input_height, recs[0].info.frame_size.width,
                                 recs[0].info.frame_size.height));
  ModelManifest m;
  m.shape = o.shape;
  m.classes = recs[0].info.classes;
  m.vocabulary = recs[0].info.vocabulary;
  m.features.classes = static_cast<int>(m.classes.size());
  m.features.per_class = o.per_class;
  if (o.per_class <= 0) {
    std::vector<std::vector<int>> counts;
    for (const auto& r : recs)
      for (const TrainingFrame& f : r.frames) {
        if (!f.objects) continue;
        counts.emplace_back(m.classes.size(), 0);
        for (const Detection& d : *f.objects)
          if (d.cls >= 0 && d.cls < static_cast<int>(m.classes.size())) ++counts.back()[static_cast<std::size_t>(d.cls)];
      }
    m.features.per_class = auto_slots_per_class(counts);
  }
  m.window_width = recs[0].info.window.width;
  m.window_height = recs[0].info.window.height;
  const auto classes = static_cast<int>(m.classes.size());
  const std::size_t v = m.vocabulary.size();

  std::vector<Sequence> seqs;
  std::size_t frames_total = 0;
  for (const auto& r : recs) {
    progress(fmt::format("train: decoding {} frames of {}", r.frames.size(), r.dir));
    seqs.push_back(prepare(r, m.shape, o.held_out));
    frames_total += r.frames.size();
  }
  std::vector<Frame> det_pool, det_eval;
  std::size_t train_frames = 0;
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    train_frames += seqs[q].train_end;
    for (std::size_t i = 0; i < seqs[q].images.size(); ++i)
      if (seqs[q].truth[i]) (i < seqs[q].train_end ? det_pool : det_eval).push_back({q, i});
  }
  if (det_pool.empty()) throw UsageError(fmt::format("{}: no labelled frames to train the detector on", recs[0].dir));
  note(fmt::format("train: {} recording(s), {} frames ({} trained on), {} labelled for the detector, {} held out",
                   recs.size(), frames_total, train_frames, det_pool.size(), det_eval.size()));

  // Detector.
  DetectorNet det(m.shape, classes);
  torch::optim::Adam det_opt(det->parameters(), torch::optim::AdamOptions(2e-3));
  std::vector<double> det_losses;
  std::uniform_int_distribution<std::size_t> pick_det(0, det_pool.size() - 1);
  const auto det_t0 = Clock::now();
  std::bernoulli_distribution coin(0.5);
  for (int step = 1; step <= o.detector_steps; ++step) {
    // Cosine decay from 2e-3 to 1e-4: the late steps refine the boxes instead of jumping around.
    const double progress_share = static_cast<double>(step - 1) / std::max(1, o.detector_steps - 1);
    static_cast<torch::optim::AdamOptions&>(det_opt.param_groups()[0].options())
        .lr(1e-4 + 0.5 * (2e-3 - 1e-4) * (1.0 + std::cos(3.14159265358979323846 * progress_share)));
    std::vector<const std::vector<std::uint8_t>*> imgs;
    std::vector<std::vector<Detection>> flipped;
    flipped.reserve(static_cast<std::size_t>(o.batch));
    std::vector<const std::vector<Detection>*> truth;
    std::vector<bool> flip;
    for (int b = 0; b < o.batch; ++b) {
      const Frame& f = det_pool[pick_det(rng)];
      imgs.push_back(&seqs[f.seq].images[f.index]);
      // Half the frames mirrored: the games look the same either way round, and the detector
      // sees twice the layouts the few recorded seconds show.
      flip.push_back(coin(rng));
      if (flip.back()) {
        flipped.push_back(mirrored(*seqs[f.seq].truth[f.index]));
        truth.push_back(&flipped.back());
      } else {
        truth.push_back(&*seqs[f.seq].truth[f.index]);
      }
    }
    det_opt.zero_grad();
    const DetectorLoss loss =
        detector_loss(det->forward(image_batch(imgs, m.shape, flip)), detector_targets(truth, m.shape));
    loss.total.backward();
    det_opt.step();
    det_losses.push_back(loss.total.item<double>());
    if (step % 10 == 0 || step == o.detector_steps)
      progress(fmt::format("train: detector step {}/{} loss {:.4f} (objectness {:.4f} box {:.4f} class {:.4f}) {:.0f} s",
                           step, o.detector_steps, det_losses.back(), loss.obj, loss.box, loss.cls, seconds_since(t0)));
  }
  const double det_seconds = seconds_since(det_t0);
  det->eval();
  // Detected once at a low threshold (AP needs the whole curve); the decode threshold is then the
  // given one or, with --confidence auto, the one with the best F1 on the held-out frames, and
  // every frame keeps what that threshold keeps.
  constexpr double kLowConfidence = 0.05;
  std::vector<std::vector<std::vector<Detection>>> detected;  // per sequence, per frame
  for (const Sequence& s : seqs) detected.push_back(detect_all(det, s, m, std::min(kLowConfidence, o.confidence.value_or(kLowConfidence))));
  std::vector<std::vector<Detection>> eval_det, eval_truth;
  for (const Frame& f : det_eval) {
    eval_det.push_back(detected[f.seq][f.index]);
    eval_truth.push_back(*seqs[f.seq].truth[f.index]);
  }
  if (o.confidence) m.confidence = *o.confidence;
  else if (!eval_truth.empty()) m.confidence = best_f1_confidence(eval_det, eval_truth, classes, m.confidence);
  // AP over the whole precision/recall curve (down to the low threshold); precision and recall
  // at the chosen one.
  const DetectionScore det_score = score_detections(eval_det, eval_truth, classes, m.confidence);
  for (auto& frames : detected) frames = above_confidence(frames, m.confidence);
  eval_det = above_confidence(eval_det, m.confidence);
  note(fmt::format("train: detector {} steps, loss {:.4f}, held-out precision {:.3f} recall {:.3f} at confidence "
                   "{:.2f}{}, mAP@0.5 {:.3f} ({:.0f} s)",
                   o.detector_steps, mean_of_last(det_losses, 20), det_score.precision, det_score.recall, m.confidence,
                   o.confidence ? "" : " (best F1)", det_score.map50, det_seconds));
  std::string per_class;
  for (std::size_t c = 0; c < det_score.per_class.size(); ++c) {
    const DetectionScore::Class& cs = det_score.per_class[c];
    per_class += fmt::format("{}{} AP {:.3f} precision {:.3f} recall {:.3f} ({} boxes)", c ? ", " : "", m.classes[c],
                             cs.ap50, cs.precision, cs.recall, cs.truths);
  }
  note("train: held out per class: " + per_class);

  // Policy.
  double sq = 0;
  std::size_t sq_n = 0;
  std::vector<float> majority(v, 0.0f);
  for (const Sequence& s : seqs)
    for (std::size_t i = 0; i < s.train_end; ++i) {
      if (s.moved[i] > 0.5f) {
        sq += s.motion[i].first * s.motion[i].first + s.motion[i].second * s.motion[i].second;
        sq_n += 2;
      }
      for (std::size_t k = 0; k < v; ++k) majority[k] += s.held[i][k];
    }
  for (float& x : majority) x /= static_cast<float>(std::max<std::size_t>(1, train_frames));
  const double rms = sq_n ? std::sqrt(sq / static_cast<double>(sq_n)) : 0.0;
  m.motion_scale = rms > 1e-6 ? rms : 0.0;
  m.frame_interval_ms = median_frame_interval_ms(seqs);
  std::vector<std::vector<std::vector<float>>> truth_features, detector_features;
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    truth_features.emplace_back();
    detector_features.emplace_back();
    for (std::size_t i = 0; i < seqs[q].images.size(); ++i) {
      truth_features.back().push_back(frame_features(seqs[q].objects[i], m.features));
      detector_features.back().push_back(frame_features(detected[q][i], m.features));
    }
  }
  m.target_radius = kTargetRadius;
  // What the pointer means in this game, on the trained frames' labels; a crosshair game's
  // events are moved to the screen points they aimed at before anything learns from them.
  // The pointer events leave the sequences here: the head, its statistics and its calibration
  // all read these tracks.
  std::vector<PointerTrack> tracks;
  std::vector<std::size_t> ends;
  for (Sequence& s : seqs) {
    tracks.push_back(std::move(s.pointer));
    ends.push_back(s.train_end);
  }
  const AimFit aim_fit = fit_aim(tracks, truth_features, ends, m, o.aim);
  m.aim_frame = aim_fit.frame;
  m.aim_gain = m.aim_frame == "crosshair" ? aim_fit.gain : 0.0;
  m.press_on_box = m.aim_frame == "crosshair" ? aim_fit.press_on_box_share() : 0.0;
  m.aim_interval_ms = m.aim_frame == "crosshair" ? aim_fit.interval_ms : 0.0;
  if (m.aim_frame == "crosshair")
    for (PointerTrack& t : tracks) to_crosshair(t, m.aim_gain, static_cast<int>(v));
  note(fmt::format("train: aim frame {} ({} pointer moves: {} on a box, {} toward a box at gain {:.3f}, {}; {} of {} "
                   "presses with a box under the centre)", m.aim_frame, aim_fit.move_events, aim_fit.on_a_box,
                   aim_fit.crosshair_fits, aim_fit.gain,
                   aim_fit.interval_ms > 0 ? fmt::format("one every {:.0f} ms", aim_fit.interval_ms) : std::string("interval unknown"),
                   aim_fit.press_on_a_box, aim_fit.press_events));
  // What a crosshair driver fires on — a detected box containing the centre — against the truth,
  // on the held-out frames: the share of its shots that can hit, and of chances it takes.
  nlohmann::json crosshair_score = nullptr;
  if (m.aim_frame == "crosshair") {
    const PointScore ps = score_point(eval_det, eval_truth, 0.5f, 0.5f);
    crosshair_score = {{"images", ps.images},          {"detected", ps.detected},
                       {"truth", ps.truth},            {"both", ps.both},
                       {"precision", number_or_null(ps.precision())}, {"recall", number_or_null(ps.recall())}};
    note(fmt::format("train: a box under the crosshair (held out): detected on {} frames, {} of them right "
                     "(precision {:.3f}); {} of {} true ones found (recall {:.3f})",
                     ps.detected, ps.both, ps.precision(), ps.both, ps.truth, ps.recall()));
  }
  const auto n_out = static_cast<std::int64_t>(m.policy_outputs());
  const std::int64_t n_targets = target_entries(m.features);
  const auto vi = static_cast<std::int64_t>(v);
  PolicyNet pol(m.features.size(), m.shape.policy_hidden, static_cast<int>(n_out));
  torch::optim::Adam pol_opt(pol->parameters(), torch::optim::AdamOptions(3e-3));
  std::size_t min_train = seqs[0].train_end;
  for (const Sequence& s : seqs) min_train = std::min(min_train, s.train_end);
  const auto t_len = static_cast<std::int64_t>(std::min<std::size_t>(static_cast<std::size_t>(o.sequence), min_train));
  std::uniform_int_distribution<std::size_t> pick_seq(0, seqs.size() - 1);
  std::vector<double> pol_losses, target_losses;
  const auto f_size = static_cast<std::int64_t>(m.features.size());
  const auto pol_t0 = Clock::now();
  namespace F = torch::nn::functional;
  for (int step = 1; step <= o.policy_steps; ++step) {
    torch::Tensor x = torch::empty({o.batch, t_len, f_size});
    // Targets: held (v), onsets (v), moved (1); motion (2) with its mask (frames that moved).
    torch::Tensor events = torch::empty({o.batch, t_len, 2 * vi + 1});
    torch::Tensor motion = torch::zeros({o.batch, t_len, 2});
    torch::Tensor motion_mask = torch::zeros({o.batch, t_len, 1});
    // Pointer target: the slot of this window's own features that the event went to.
    torch::Tensor target = torch::zeros({o.batch, t_len}, torch::kLong);
    torch::Tensor target_mask = torch::zeros({o.batch, t_len});
    auto target_a = target.accessor<std::int64_t, 2>();
    auto target_mask_a = target_mask.accessor<float, 2>();
    for (std::int64_t b = 0; b < o.batch; ++b) {
      const std::size_t q = pick_seq(rng);
      const Sequence& s = seqs[q];
      std::uniform_int_distribution<std::size_t> pick_start(0, s.train_end - static_cast<std::size_t>(t_len));
      const std::size_t start = pick_start(rng);
      // Half the windows see what the detector made of the frames (what the driver will see:
      // misses, false boxes), half the perturbed labels (what the frames really showed).
      const bool from_detector = coin(rng);
      for (std::int64_t t = 0; t < t_len; ++t) {
        const std::size_t i = start + static_cast<std::size_t>(t);
        const std::vector<float> feat =
            from_detector ? detector_features[q][i] : augmented_features(s.objects[i], m.features, rng);
        std::memcpy(x[b][t].data_ptr<float>(), feat.data(), feat.size() * sizeof(float));
        if (const int label = event_label(tracks[q], i, feat, m); label >= 0) {
          target_a[b][t] = label;
          target_mask_a[b][t] = 1.0f;
        }
        float* e = events[b][t].data_ptr<float>();
        std::memcpy(e, s.held[i].data(), v * sizeof(float));
        std::memcpy(e + v, s.pressed[i].data(), v * sizeof(float));
        e[2 * v] = s.moved[i];
        if (m.motion_scale > 0 && s.moved[i] > 0.5f) {
          motion[b][t][0] = s.motion[i].first / static_cast<float>(m.motion_scale);
          motion[b][t][1] = s.motion[i].second / static_cast<float>(m.motion_scale);
          motion_mask[b][t][0] = 1.0f;
        }
      }
    }
    pol_opt.zero_grad();
    const torch::Tensor y = std::get<0>(pol->forward(x));
    // Plain (unweighted) cross-entropy keeps the onset probabilities calibrated: the driver
    // samples from them, and their sum over frames is the expected number of presses.
    torch::Tensor loss = F::binary_cross_entropy_with_logits(y.slice(2, 0, 2 * vi + 1), events);
    if (m.motion_scale > 0)
      loss = loss + ((y.slice(2, 2 * vi + 1, 2 * vi + 3) - motion).pow(2) * motion_mask).sum() / (2 * motion_mask.sum().clamp_min(1.0));
    // Cross-entropy of the pointer target, only on frames with a pointer event.
    const torch::Tensor ce = F::cross_entropy(y.slice(2, 2 * vi + 3).reshape({-1, n_targets}), target.reshape({-1}),
                                              F::CrossEntropyFuncOptions().reduction(torch::kNone));
    const torch::Tensor target_loss = (ce * target_mask.reshape({-1})).sum() / target_mask.sum().clamp_min(1.0);
    loss = loss + target_loss;
    loss.backward();
    target_losses.push_back(target_loss.item<double>());
    pol_opt.step();
    pol_losses.push_back(loss.item<double>());
    if (step % 10 == 0 || step == o.policy_steps)
      progress(fmt::format("train: policy step {}/{} loss {:.4f} {:.0f} s", step, o.policy_steps, pol_losses.back(),
                           seconds_since(t0)));
  }
  const double pol_seconds = seconds_since(pol_t0);
  pol->eval();
  const PolicyScore on_truth = score_policy(pol, seqs, truth_features, majority, m);
  const nlohmann::json calibration = calibrate_policy(pol, seqs, detector_features, m);
  const PolicyScore on_detector = score_policy(pol, seqs, detector_features, majority, m);
  // Where the teacher aimed: on the labels of the trained frames. The threshold: on what the
  // driver will see, the detector's output, on the held-out frames.
  const TargetStats target_stats = target_statistics(tracks, truth_features, ends, m);
  m.aim_offsets = target_stats.aim_offsets();
  m.event_given_target = target_stats.event_given_target();
  nlohmann::json target_metrics = calibrate_target(pol, tracks, detector_features, ends, m);
  target_metrics["final_loss"] = number_or_null(mean_of_last(target_losses, 20));
  target_metrics["event_counts"] = target_stats.counts();
  note(fmt::format("train: pointer target: {} held-out events, {} on a box, slot accuracy {}, threshold {:.3f}",
                   target_metrics["events"].dump(), target_metrics["events_on_a_box"].dump(),
                   target_metrics["slot_accuracy"].dump(), m.target_threshold));
  note(fmt::format("train: policy {} steps, loss {:.4f}, held-out key accuracy {:.3f} (labels) {:.3f} (detector), "
                   "majority baseline {:.3f} ({:.0f} s)",
                   o.policy_steps, mean_of_last(pol_losses, 20), on_truth.accuracy, on_detector.accuracy,
                   on_truth.baseline, pol_seconds));

  nlohmann::json dirs = nlohmann::json::array();
  for (const auto& r : recs) dirs.push_back(r.dir);
  m.info["pictor_version"] = PICTOR_IC_VERSION;
  m.info["libtorch_version"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
  m.info["parameters"] = {{"detector", parameter_count(*det)}, {"policy", parameter_count(*pol)}};
  m.info["training"] = {
      {"recordings", dirs},
      {"data_hash", training_data_hash(recs)},
      {"data_hash_method", "fnv1a64 over recording.json, frames.csv, inputs.csv, labels/classes.txt, each frame's label and JPEG"},
      {"seed", o.seed},
      {"threads", o.threads},
      {"detector_steps", o.detector_steps},
      {"policy_steps", o.policy_steps},
      {"batch", o.batch},
      {"sequence", t_len},
      {"held_out_fraction", o.held_out},
      {"aim", o.aim},
      {"per_class", o.per_class > 0 ? nlohmann::json(o.per_class)
                                    : nlohmann::json(fmt::format("auto: most objects of one class on a labelled frame, "
                                                                 "clamped to {}..{}", kMinSlots, kMaxSlots))},
      {"frames", frames_total},
      {"frames_trained", train_frames},
      {"policy_features", "half the windows: the trained detector's output; half: ground-truth labels (carried "
                          "over unlabelled frames), confidence uniform 0.5..1, centre jitter up to 1%, 5% of objects dropped"},
      {"detector_augmentation", "half the frames mirrored left-right; learning rate cosine 2e-3 -> 1e-4"},
      {"detector_seconds", det_seconds},
      {"policy_seconds", pol_seconds},
      {"seconds", seconds_since(t0)}};
  m.info["final_losses"] = {{"detector", number_or_null(mean_of_last(det_losses, 20))},
                            {"policy", number_or_null(mean_of_last(pol_losses, 20))},
                            {"policy_target", number_or_null(mean_of_last(target_losses, 20))},
                            {"over", "mean of the last 20 steps"}};
  nlohmann::json det_per_class = nlohmann::json::object();
  for (std::size_t c = 0; c < det_score.per_class.size(); ++c) {
    const DetectionScore::Class& cs = det_score.per_class[c];
    det_per_class[m.classes[c]] = {{"ap50", number_or_null(cs.ap50)},
                                   {"precision", number_or_null(cs.precision)},
                                   {"recall", number_or_null(cs.recall)},
                                   {"truths", cs.truths},
                                   {"detections", cs.detections}};
  }
  m.info["metrics"] = {
      {"split", "last held_out_fraction of each recording's frames"},
      {"detector", {{"precision", number_or_null(det_score.precision)},
                    {"recall", number_or_null(det_score.recall)},
                    {"map50", number_or_null(det_score.map50)},
                    {"images", det_score.images},
                    {"truths", det_score.truths},
                    {"detections", det_score.detections},
                    {"per_class", det_per_class}}},
      {"policy_on_labels", policy_score_json(on_truth)},
      {"policy_on_detector", policy_score_json(on_detector)},
      {"pointer_target", target_metrics},
      {"aim", aim_fit.to_json()},
      {"crosshair_on_a_box", crosshair_score},
      {"calibration", calibration}};
  save_model_dir(o.out, m, det, pol);
  return m;
}

}  // namespace pictor::ic
