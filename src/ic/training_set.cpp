#include "ic/training_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "ic/pointer_target.h"

namespace pictor::ic {

namespace {

void report(const std::function<void(const std::string&)>& to, const std::string& line) {
  if (to) to(line);
}

}  // namespace

int auto_slots_per_class(const std::vector<std::vector<int>>& counts) {
  int most = 0;
  for (const auto& frame : counts)
    for (const int n : frame) most = std::max(most, n);
  return std::clamp(most, kMinSlots, kMaxSlots);
}

void check_train_options(const TrainOptions& o) {
  if (o.recordings.empty()) throw UsageError("train: no recordings given");
  if (o.detector_steps < 0 || o.policy_steps < 0) throw UsageError("train: steps must be >= 0");
  if (o.threads < 1) throw UsageError("train: --threads must be >= 1");
  if (o.batch < 1 || o.sequence < 1) throw UsageError("train: batch and sequence must be >= 1");
  if (!(o.held_out >= 0.0 && o.held_out <= 0.9)) throw UsageError("train: held-out fraction must be 0..0.9");
  if (o.confidence && !(*o.confidence > 0 && *o.confidence < 1))
    throw UsageError(fmt::format("train: --confidence {}: expected auto or a number between 0 and 1", *o.confidence));
}

TrainingSet load_training_set(const TrainOptions& o) {
  TrainingSet set;
  std::vector<TrainingRecording>& recs = set.recordings;
  for (const std::string& dir : o.recordings) recs.push_back(load_training_recording(dir));
  check_compatible(recs);
  if (o.shape.input_width > recs[0].info.frame_size.width || o.shape.input_height > recs[0].info.frame_size.height)
    throw UsageError(fmt::format("train: detector input {}x{} is larger than the recorded frames ({}x{})",
                                 o.shape.input_width, o.shape.input_height, recs[0].info.frame_size.width,
                                 recs[0].info.frame_size.height));
  ModelManifest& m = set.manifest;
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

  for (const auto& r : recs) {
    report(o.progress, fmt::format("train: decoding {} frames of {}", r.frames.size(), r.dir));
    for (Sequence& s : prepare(r, m.shape, o.held_out)) set.sequences.push_back(std::move(s));
    set.frames += r.frames.size();
  }
  for (std::size_t q = 0; q < set.sequences.size(); ++q) {
    const Sequence& s = set.sequences[q];
    set.frames_trained += s.train_end;
    for (std::size_t i = 0; i < s.images.size(); ++i)
      if (s.truth[i]) (i < s.train_end ? set.detector_pool : set.detector_held_out).push_back({q, i});
  }
  if (set.detector_pool.empty())
    throw UsageError(fmt::format("{}: no labelled frames to train the detector on", recs[0].dir));
  report(o.note, fmt::format("train: {} recording(s) in {} blocks, {} frames ({} trained on), {} labelled for the "
                             "detector, {} held out (the end of each block)",
                             recs.size(), set.sequences.size(), set.frames, set.frames_trained, set.detector_pool.size(),
                             set.detector_held_out.size()));
  return set;
}

double median_frame_interval_ms(const std::vector<Sequence>& seqs) {
  std::vector<std::int64_t> gaps;
  for (const Sequence& s : seqs)
    for (std::size_t i = 1; i < s.seen_ns.size(); ++i) gaps.push_back(s.seen_ns[i] - s.seen_ns[i - 1]);
  if (gaps.empty()) return 0;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  return static_cast<double>(gaps[gaps.size() / 2]) / 1e6;
}

PolicyData policy_data(TrainingSet& set, const std::vector<std::vector<std::vector<Detection>>>& detected,
                       const TrainOptions& o) {
  ModelManifest& m = set.manifest;
  std::vector<Sequence>& seqs = set.sequences;
  const std::size_t v = m.vocabulary.size();
  PolicyData d;
  double sq = 0;
  std::size_t sq_n = 0;
  d.majority.assign(v, 0.0f);
  for (const Sequence& s : seqs)
    for (std::size_t i = 0; i < s.train_end; ++i) {
      if (s.moved[i] > 0.5f) {
        sq += s.motion[i].first * s.motion[i].first + s.motion[i].second * s.motion[i].second;
        sq_n += 2;
      }
      for (std::size_t k = 0; k < v; ++k) d.majority[k] += s.held[i][k];
    }
  for (float& x : d.majority) x /= static_cast<float>(std::max<std::size_t>(1, set.frames_trained));
  const double rms = sq_n ? std::sqrt(sq / static_cast<double>(sq_n)) : 0.0;
  m.motion_scale = rms > 1e-6 ? rms : 0.0;
  m.frame_interval_ms = median_frame_interval_ms(seqs);
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    d.truth_features.emplace_back();
    d.detector_features.emplace_back();
    for (std::size_t i = 0; i < seqs[q].images.size(); ++i) {
      d.truth_features.back().push_back(frame_features(seqs[q].objects[i], m.features));
      d.detector_features.back().push_back(frame_features(detected[q][i], m.features));
    }
  }
  m.target_radius = kTargetRadius;
  // What the pointer means in this game, on the trained frames' labels; a crosshair game's
  // events are moved to the screen points they aimed at before anything learns from them.
  // The pointer events leave the sequences here: the head, its statistics and its calibration
  // all read these tracks.
  for (Sequence& s : seqs) {
    d.tracks.push_back(std::move(s.pointer));
    d.train_ends.push_back(s.train_end);
  }
  d.aim = fit_aim(d.tracks, d.truth_features, d.train_ends, m, o.aim);
  const AimFit& fit = d.aim;
  m.aim_frame = fit.frame;
  m.aim_gain = m.aim_frame == "crosshair" ? fit.gain : 0.0;
  m.press_on_box = m.aim_frame == "crosshair" ? fit.press_on_box_share() : 0.0;
  m.aim_interval_ms = m.aim_frame == "crosshair" ? fit.interval_ms : 0.0;
  if (m.aim_frame == "crosshair")
    for (PointerTrack& t : d.tracks) to_crosshair(t, m.aim_gain, static_cast<int>(v));
  report(o.note, fmt::format("train: aim frame {} ({} pointer moves: {} on a box, {} toward a box at gain {:.3f}, {}; {} of {} "
                             "presses with a box under the centre)", m.aim_frame, fit.move_events, fit.on_a_box,
                             fit.crosshair_fits, fit.gain,
                             fit.interval_ms > 0 ? fmt::format("one every {:.0f} ms", fit.interval_ms) : std::string("interval unknown"),
                             fit.press_on_a_box, fit.press_events));
  return d;
}

std::vector<float> perturbed_features(const std::vector<Detection>& objects, const FeatureLayout& layout,
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

}  // namespace pictor::ic
