#include "ic/model_quality.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>


namespace pictor::ic {

namespace {

std::optional<double> number_at(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  const double v = j[key].get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const nlohmann::json& member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

}  // namespace

std::vector<std::vector<Detection>> visible_boxes(const std::vector<std::vector<Detection>>& images, int width,
                                                  int height) {
  std::vector<std::vector<Detection>> out;
  out.reserve(images.size());
  for (const auto& boxes : images) {
    out.emplace_back();
    for (const Detection& d : boxes)
      if (static_cast<double>(d.w) * width >= kMinVisiblePx && static_cast<double>(d.h) * height >= kMinVisiblePx)
        out.back().push_back(d);
  }
  return out;
}

ModelVerdict assess_model(const nlohmann::json& metrics) {
  ModelVerdict v;
  const nlohmann::json& pol = member(metrics, "policy_on_detector");
  const auto acc = number_at(pol, "held_accuracy"), base = number_at(pol, "majority_baseline_accuracy");
  if (acc && base) {
    v.assessed = true;
    if (!(*acc > *base))
      v.reasons.push_back(fmt::format("the policy's held-out key accuracy {:.3f} is not above the majority baseline {:.3f}",
                                      *acc, *base));
  }
  const nlohmann::json& classes = member(member(metrics, "detector"), "per_class");
  if (classes.is_object())
    for (const auto& [name, all] : classes.items()) {
      const nlohmann::json& c = member(all, "visible").is_object() ? member(all, "visible") : all;
      const auto truths = number_at(c, "truths");
      if (!truths || *truths <= 0) continue;  // not on the held-out frames: nothing to judge
      v.assessed = true;
      const auto ap = number_at(c, "ap50");
      if (!ap || *ap < kApFloor)
        v.reasons.push_back(fmt::format("class {} is not detected: AP@0.5 {} on {:.0f} held-out boxes{} (floor {})", name,
                                        ap ? fmt::format("{:.3f}", *ap) : std::string("unknown"), *truths,
                                        &c != &all ? fmt::format(" of {} px and more", kMinVisiblePx) : std::string(),
                                        kApFloor));
    }
  v.weak = !v.reasons.empty();
  return v;
}

nlohmann::json verdict_json(const ModelVerdict& v) {
  return {{"weak", v.weak},
          {"reasons", v.reasons},
          {"assessed", v.assessed},
          {"rule", fmt::format("weak when the policy's held-out key accuracy (on the detector's output) is not above the "
                               "majority baseline, or a class labelled on the held-out frames has AP@0.5 under {} over its boxes of "
                               "{} px and more at the detector's input",
                               kApFloor, kMinVisiblePx)}};
}

nlohmann::json input_mix_json(const InputMix& mix, const std::vector<std::string>& vocabulary) {
  std::uint64_t all = 0;
  for (const std::uint64_t n : mix.presses) all += n;
  nlohmann::json presses = nlohmann::json::object(), share = nlohmann::json::object();
  for (std::size_t k = 0; k < vocabulary.size(); ++k) {
    const std::uint64_t n = k < mix.presses.size() ? mix.presses[k] : 0;
    presses[vocabulary[k]] = n;
    share[vocabulary[k]] = all ? nlohmann::json(static_cast<double>(n) / static_cast<double>(all)) : nlohmann::json();
  }
  return {{"seconds", mix.seconds},
          {"inputs", mix.inputs},
          {"inputs_per_minute", mix.seconds > 0 ? nlohmann::json(static_cast<double>(mix.inputs) / mix.seconds * 60.0)
                                                : nlohmann::json()},
          {"presses", presses},
          {"press_share", share}};
}

InputMix recorded_mix(const std::vector<TrainingRecording>& recs, std::size_t vocabulary) {
  InputMix mix;
  mix.presses.assign(vocabulary, 0);
  for (const TrainingRecording& r : recs) {
    mix.seconds += r.info.duration_s;
    mix.inputs += r.info.inputs;
    for (const TrainingFrame& f : r.frames)
      for (std::size_t k = 0; k < vocabulary && k < f.pressed.size(); ++k) mix.presses[k] += f.pressed[k] > 0.5f ? 1 : 0;
  }
  return mix;
}

nlohmann::json fidelity_json(const InputMix& ic, const nlohmann::json& teacher, const std::vector<std::string>& vocabulary) {
  const nlohmann::json mine = input_mix_json(ic, vocabulary);
  const bool known = teacher.is_object();
  const double ipm = number_at(mine, "inputs_per_minute").value_or(NAN);
  const double t_ipm = number_at(teacher, "inputs_per_minute").value_or(NAN);
  nlohmann::json points = nlohmann::json::object();
  for (const std::string& k : vocabulary) {
    const auto a = number_at(mine["press_share"], k.c_str());
    const auto b = number_at(member(teacher, "press_share"), k.c_str());
    points[k] = a && b ? nlohmann::json((*a - *b) * 100.0) : nlohmann::json();
  }
  return {{"ic", mine},
          {"teacher", known ? teacher : nlohmann::json()},
          {"inputs_per_minute_ratio", std::isfinite(ipm) && t_ipm > 0 ? nlohmann::json(ipm / t_ipm) : nlohmann::json()},
          {"press_share_points", points}};
}

}  // namespace pictor::ic
