#include "ic/torch/policy_evaluation.h"

#include <algorithm>
#include <string>

#include "ic/calibration.h"
#include "ic/pointer_target.h"
#include "ic/torch/tensors.h"

namespace pictor::ic {

PolicyScore score_policy(PolicyNet& pol, const std::vector<Sequence>& seqs,
                         const std::vector<std::vector<std::vector<float>>>& features,
                         const std::vector<float>& majority, const ModelManifest& m) {
  torch::NoGradGuard no_grad;
  PolicyScore s;
  const std::size_t v = m.vocabulary.size();
  std::size_t right = 0, base_right = 0, cells = 0;
  double motion_err = 0;
  std::size_t motion_n = 0;
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    const std::size_t n = features[q].size();
    const auto f = static_cast<std::int64_t>(m.features.size());
    const torch::Tensor y = std::get<0>(pol->forward(feature_sequence(features[q], f)))[0].contiguous();
    auto ya = y.accessor<float, 2>();
    for (std::size_t i = seqs[q].train_end; i < n; ++i) {
      ++s.frames;
      for (std::size_t k = 0; k < v; ++k) {
        const bool want = seqs[q].held[i][k] > 0.5f;
        right += (ya[static_cast<std::int64_t>(i)][static_cast<std::int64_t>(k)] > 0.0f) == want;
        base_right += (majority[k] > 0.5f) == want;
        ++cells;
      }
      if (m.motion_scale > 0 && seqs[q].moved[i] > 0.5f) {  // the move made, on frames that moved
        const auto sc = static_cast<float>(m.motion_scale);
        const auto row = static_cast<std::int64_t>(i);
        motion_err += std::abs(ya[row][static_cast<std::int64_t>(2 * v + 1)] * sc - seqs[q].motion[i].first) * static_cast<float>(m.window_width);
        motion_err += std::abs(ya[row][static_cast<std::int64_t>(2 * v + 2)] * sc - seqs[q].motion[i].second) * static_cast<float>(m.window_height);
        motion_n += 2;
      }
    }
  }
  if (cells) {
    s.accuracy = static_cast<double>(right) / static_cast<double>(cells);
    s.baseline = static_cast<double>(base_right) / static_cast<double>(cells);
  }
  if (motion_n) s.motion_mae_px = motion_err / static_cast<double>(motion_n);
  return s;
}

// Sets m.hold_thresholds and m.onset_scales from the policy run on the detector's output (what
// the driver sees) over whole sequences, measured on the held-out frames (all frames when none
// are held out): per key the threshold that gives the teacher's share of held frames, and the
// factors that make the expected number of presses and moves equal the teacher's. The teacher's
// shares and rates are those of every frame of the recordings (the held-out stretches are a
// fifth of them: a few seconds, a dozen presses of a key); the network's probabilities are
// those of the frames it was not trained on. A key the teacher never held is never pressed
// (threshold kNever), one it held on every frame is held at every probability from 0.5 down: a
// quantile at the very end of the held-out probabilities is one unlucky frame away from a key
// that flickers down and up live (the tiny threshold of a never-held key pressed it whenever
// the network was a little less sure than usual).
nlohmann::json calibrate_policy(PolicyNet& pol, const std::vector<Sequence>& seqs,
                                const std::vector<std::vector<std::vector<float>>>& features, ModelManifest& m) {
  torch::NoGradGuard no_grad;
  const std::size_t v = m.vocabulary.size();
  std::size_t held_out = 0, all_frames = 0;
  std::vector<double> held_all(v, 0), onset_all(v + 1, 0);
  for (const Sequence& s : seqs) {
    held_out += s.images.size() - s.train_end;
    all_frames += s.images.size();
    for (std::size_t i = 0; i < s.images.size(); ++i) {
      for (std::size_t k = 0; k < v; ++k) {
        held_all[k] += s.held[i][k];
        onset_all[k] += s.pressed[i][k];
      }
      onset_all[v] += s.moved[i];
    }
  }
  std::vector<std::vector<float>> held_p(v), onset_p(v + 1);
  std::vector<double> held_n(v, 0), onset_n(v + 1, 0);
  std::size_t frames = 0;
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    const std::size_t n = features[q].size();
    const torch::Tensor x = feature_sequence(features[q], static_cast<std::int64_t>(m.features.size()));
    const torch::Tensor p = torch::sigmoid(std::get<0>(pol->forward(x))[0]).contiguous();
    auto pa = p.accessor<float, 2>();
    for (std::size_t i = held_out ? seqs[q].train_end : 0; i < n; ++i) {
      const auto row = static_cast<std::int64_t>(i);
      ++frames;
      for (std::size_t k = 0; k < v; ++k) {
        held_p[k].push_back(pa[row][static_cast<std::int64_t>(k)]);
        held_n[k] += seqs[q].held[i][k];
        onset_p[k].push_back(pa[row][static_cast<std::int64_t>(v + k)]);
        onset_n[k] += seqs[q].pressed[i][k];
      }
      onset_p[v].push_back(pa[row][static_cast<std::int64_t>(2 * v)]);
      onset_n[v] += seqs[q].moved[i];
    }
  }
  // The teacher's onsets at its whole-recording rate, over as many frames as are calibrated on.
  const double per_frame = all_frames ? static_cast<double>(frames) / static_cast<double>(all_frames) : 0.0;
  m.hold_thresholds.assign(v, 0.5);
  m.release_thresholds.assign(v, 0.5);
  m.repress_scales.assign(v, 1.0);
  m.onset_scales.assign(v + 1, 1.0);
  nlohmann::json per_key = nlohmann::json::object();
  for (std::size_t k = 0; k <= v; ++k) {
    double predicted = 0;
    for (const float p : onset_p[k]) predicted += static_cast<double>(p);
    const double target_onsets = onset_all[k] * per_frame;
    // Never pressed (or moved) by the teacher: never drawn either.
    m.onset_scales[k] = target_onsets > 0 ? rate_scale(onset_p[k], target_onsets) : 0.0;
    nlohmann::json e = {{"recorded_onsets", onset_n[k]},
                        {"teacher_onsets", target_onsets},
                        {"predicted_onsets", predicted},
                        {"onset_scale", m.onset_scales[k]}};
    if (k < v) {
      const double fraction = all_frames ? held_all[k] / static_cast<double>(all_frames) : 0.0;
      m.hold_thresholds[k] = bounded_threshold(threshold_for_fraction(held_p[k], fraction), fraction);
      std::vector<float> scaled(onset_p[k].size());
      for (std::size_t i = 0; i < scaled.size(); ++i)
        scaled[i] = static_cast<float>(std::min(1.0, static_cast<double>(onset_p[k][i]) * m.onset_scales[k]));
      m.release_thresholds[k] = bounded_threshold(release_threshold(scaled, held_p[k], fraction), fraction);
      e["held_fraction"] = fraction;
      e["held_fraction_held_out"] = frames ? held_n[k] / static_cast<double>(frames) : 0.0;
      e["hold_threshold"] = m.hold_thresholds[k];
      e["release_threshold"] = m.release_thresholds[k];
      m.repress_scales[k] = repress_scale(onset_p[k], held_p[k], m.hold_thresholds[k], target_onsets);
      e["repress_scale"] = m.repress_scales[k];
      e["expected_held_share_onsets"] = expected_held_share(scaled, held_p[k], m.release_thresholds[k]);
    }
    per_key[k < v ? m.vocabulary[k] : std::string("pointer move")] = e;
  }
  return {{"frames", frames},
          {"on", held_out ? "held-out frames, detector features" : "all frames, detector features"},
          {"targets", "the teacher's held shares and onset rates over every recorded frame"},
          {"per_key", per_key}};
}

nlohmann::json calibrate_target(PolicyNet& policy, const std::vector<PointerTrack>& tracks,
                                const std::vector<std::vector<std::vector<float>>>& features,
                                const std::vector<std::size_t>& from, ModelManifest& m) {
  torch::NoGradGuard no_grad;
  bool held_out = false;
  for (std::size_t q = 0; q < tracks.size(); ++q) held_out = held_out || from[q] < features[q].size();
  const auto first = static_cast<std::int64_t>(2 * m.vocabulary.size() + 3);
  const auto f = static_cast<std::int64_t>(m.features.size());
  std::vector<float> posteriors;
  std::size_t events = 0, on_box = 0, aimed_right = 0, class_right = 0;
  for (std::size_t q = 0; q < tracks.size(); ++q) {
    const std::size_t n = features[q].size();
    if (n == 0) continue;
    const torch::Tensor p =
        torch::softmax(std::get<0>(policy->forward(feature_sequence(features[q], f)))[0].slice(1, first), 1).contiguous();
    const auto entries = static_cast<std::size_t>(p.size(1));
    for (std::size_t i = held_out ? from[q] : 0; i < n; ++i) {
      const int label = event_label(tracks[q], i, features[q][i], m);
      if (label < 0) continue;
      ++events;
      const std::span<const float> probs(p[static_cast<std::int64_t>(i)].data_ptr<float>(), entries);
      const TargetChoice c = choose_target(probs, features[q][i], m.features, m.event_given_target, tracks[q].event[i]);
      posteriors.push_back(c.slot >= 0 ? static_cast<float>(c.posterior) : 0.0f);
      if (label == no_target(m.features)) continue;
      ++on_box;
      aimed_right += c.slot == label ? 1 : 0;
      class_right += c.slot >= 0 && c.slot / m.features.per_class == label / m.features.per_class ? 1 : 0;
    }
  }
  // No event on a box: threshold above every posterior, the driver never aims.
  m.target_threshold = 2.0;
  if (on_box > 0)
    m.target_threshold = threshold_for_fraction(posteriors, static_cast<double>(on_box) / static_cast<double>(events));
  auto share = [](std::size_t a, std::size_t b) { return b ? nlohmann::json(static_cast<double>(a) / static_cast<double>(b)) : nlohmann::json(nullptr); };
  std::size_t aimed = 0;
  for (const float v : posteriors) aimed += static_cast<double>(v) >= m.target_threshold ? 1 : 0;
  return {{"on", held_out ? "held-out frames, detector features" : "all frames, detector features"},
          {"events", events},
          {"events_on_a_box", on_box},
          {"slot_accuracy", share(aimed_right, on_box)},
          {"class_accuracy", share(class_right, on_box)},
          {"aimed_share", share(aimed, events)},
          {"target_threshold", m.target_threshold}};
}

}  // namespace pictor::ic
