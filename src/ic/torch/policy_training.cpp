#include "ic/torch/policy_training.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "ic/pointer_target.h"
#include "ic/target_training.h"

namespace pictor::ic {

PolicyRun train_policy(const TrainingSet& set, const PolicyData& data, const TrainOptions& o, std::mt19937_64& rng,
                       const std::function<double()>& elapsed_s) {
  const ModelManifest& m = set.manifest;
  const std::vector<Sequence>& seqs = set.sequences;
  const std::size_t v = m.vocabulary.size();
  const auto n_out = static_cast<std::int64_t>(m.policy_outputs());
  const std::int64_t n_targets = target_entries(m.features);
  const auto vi = static_cast<std::int64_t>(v);
  PolicyRun run;
  run.net = PolicyNet(m.features.size(), m.shape.policy_hidden, static_cast<int>(n_out));
  PolicyNet& pol = run.net;
  torch::optim::Adam pol_opt(pol->parameters(), torch::optim::AdamOptions(3e-3));
  std::size_t min_train = seqs[0].train_end;
  for (const Sequence& s : seqs) min_train = std::min(min_train, s.train_end);
  const auto t_len = static_cast<std::int64_t>(std::min<std::size_t>(static_cast<std::size_t>(o.sequence), min_train));
  run.sequence = t_len;
  std::uniform_int_distribution<std::size_t> pick_seq(0, seqs.size() - 1);
  std::bernoulli_distribution coin(0.5);
  const auto f_size = static_cast<std::int64_t>(m.features.size());
  const auto t0 = std::chrono::steady_clock::now();
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
            from_detector ? data.detector_features[q][i] : perturbed_features(s.objects[i], m.features, rng);
        std::memcpy(x[b][t].data_ptr<float>(), feat.data(), feat.size() * sizeof(float));
        if (const int label = event_label(data.tracks[q], i, feat, m); label >= 0) {
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
    run.target_losses.push_back(target_loss.item<double>());
    pol_opt.step();
    run.losses.push_back(loss.item<double>());
    if ((step % 10 == 0 || step == o.policy_steps) && o.progress)
      o.progress(fmt::format("train: policy step {}/{} loss {:.4f} {:.0f} s", step, o.policy_steps, run.losses.back(),
                             elapsed_s()));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  pol->eval();
  return run;
}

}  // namespace pictor::ic
