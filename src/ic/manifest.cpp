#include "ic/manifest.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/error.h"
#include "core/json_read.h"

namespace pictor::ic {

nlohmann::json manifest_json(const ModelManifest& m) {
  nlohmann::json j = m.info;
  j["schema"] = kModelSchema;
  j["input_size"] = {m.shape.input_width, m.shape.input_height};
  j["classes"] = m.classes;
  j["vocabulary"] = m.vocabulary;
  j["feature_layout"] = {{"per_class", m.features.per_class},
                         {"slot", FeatureLayout::slot_fields()},
                         {"size", m.features.size()},
                         {"order", "class-major; per class by descending confidence"}};
  j["detector"]["channels"] = m.shape.detector_channels;
  j["detector"]["grid"] = {m.shape.grid_width(), m.shape.grid_height()};
  j["detector"]["cell_outputs"] = 5 + static_cast<int>(m.classes.size());
  j["detector"]["confidence"] = m.confidence;
  j["detector"]["nms_iou"] = m.nms_iou;
  j["policy"]["input"] = m.features.size();
  j["policy"]["hidden"] = m.shape.policy_hidden;
  j["policy"]["outputs"] = m.policy_outputs();
  j["policy"]["output_order"] =
      "held logit per key, press-onset logit per key, pointer-move logit, dx, dy, pointer-target logit per feature slot "
      "(class-major) then no object";
  j["policy"]["motion_scale"] = m.motion_scale;
  j["policy"]["hold_thresholds"] = m.hold_thresholds;
  j["policy"]["release_thresholds"] = m.release_thresholds;
  j["policy"]["onset_scales"] = m.onset_scales;
  j["policy"]["repress_scales"] = m.repress_scales;
  j["policy"]["frame_interval_ms"] = m.frame_interval_ms;
  j["policy"]["target_entries"] = m.features.classes * m.features.per_class + 1;
  j["policy"]["target_radius"] = m.target_radius;
  j["policy"]["aim_offsets"] = m.aim_offsets;
  j["policy"]["event_given_target"] = m.event_given_target;
  j["policy"]["target_threshold"] = m.target_threshold;
  j["policy"]["aim"] = {{"frame", m.aim_frame}, {"gain", m.aim_gain}, {"press_on_box", m.press_on_box},
                        {"interval_ms", m.aim_interval_ms}};
  j["window"] = {m.window_width, m.window_height};
  return j;
}

ModelManifest parse_manifest(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) throw UsageError(fmt::format("{}: not a JSON object", path));
  const int schema = json_member<int>(j, "schema", path);
  if (schema != kModelSchema)
    throw UsageError(fmt::format("{}: model schema {} (this pictor reads schema {}{})", path, schema, kModelSchema,
                                 schema < kModelSchema ? "; retrain the model with `pictor train`" : ""));
  ModelManifest m;
  const auto size = json_member<std::vector<int>>(j, "input_size", path);
  if (size.size() != 2 || size[0] < 8 || size[1] < 8 || size[0] % 8 || size[1] % 8 || size[0] > 4096 || size[1] > 4096)
    throw UsageError(fmt::format("{}: input_size must be [W, H], multiples of 8", path));
  m.shape.input_width = size[0];
  m.shape.input_height = size[1];
  m.classes = json_member<std::vector<std::string>>(j, "classes", path);
  m.vocabulary = json_member<std::vector<std::string>>(j, "vocabulary", path);
  if (m.classes.empty()) throw UsageError(fmt::format("{}: no classes", path));
  if (m.vocabulary.empty()) throw UsageError(fmt::format("{}: empty vocabulary", path));
  const auto layout = json_member<nlohmann::json>(j, "feature_layout", path);
  m.features.classes = static_cast<int>(m.classes.size());
  m.features.per_class = json_member<int>(layout, "per_class", path + ": feature_layout");
  if (m.features.per_class < 1 || m.features.per_class > 64)
    throw UsageError(fmt::format("{}: feature_layout.per_class must be 1..64", path));
  if (json_member<std::vector<std::string>>(layout, "slot", path + ": feature_layout") != FeatureLayout::slot_fields())
    throw UsageError(fmt::format("{}: feature_layout.slot differs from this pictor's", path));
  if (json_member<int>(layout, "size", path + ": feature_layout") != m.features.size())
    throw UsageError(fmt::format("{}: feature_layout.size does not match classes x per_class x slot", path));
  const auto det = json_member<nlohmann::json>(j, "detector", path);
  m.shape.detector_channels = json_member<std::vector<int>>(det, "channels", path + ": detector");
  if (m.shape.detector_channels.size() != 4)
    throw UsageError(fmt::format("{}: detector.channels must list 4 convolutions", path));
  for (const int c : m.shape.detector_channels)
    if (c < 1 || c > 1024) throw UsageError(fmt::format("{}: detector.channels must be 1..1024", path));
  const auto grid = json_member<std::vector<int>>(det, "grid", path + ": detector");
  if (grid != std::vector<int>{m.shape.grid_width(), m.shape.grid_height()})
    throw UsageError(fmt::format("{}: detector.grid does not match input_size / 8", path));
  if (json_member<int>(det, "cell_outputs", path + ": detector") != 5 + static_cast<int>(m.classes.size()))
    throw UsageError(fmt::format("{}: detector.cell_outputs does not match the classes", path));
  m.confidence = json_member<double>(det, "confidence", path + ": detector");
  m.nms_iou = json_member<double>(det, "nms_iou", path + ": detector");
  if (!(m.confidence >= 0 && m.confidence < 1))  // at 1 or above no cell could ever be an object
    throw UsageError(fmt::format("{}: detector.confidence must be in [0, 1)", path));
  if (!(m.nms_iou > 0 && m.nms_iou <= 1)) throw UsageError(fmt::format("{}: detector.nms_iou must be in (0, 1]", path));
  const auto pol = json_member<nlohmann::json>(j, "policy", path);
  if (json_member<int>(pol, "input", path + ": policy") != m.features.size())
    throw UsageError(fmt::format("{}: policy.input does not match the feature layout", path));
  m.shape.policy_hidden = json_member<int>(pol, "hidden", path + ": policy");
  if (m.shape.policy_hidden < 1 || m.shape.policy_hidden > 4096)
    throw UsageError(fmt::format("{}: policy.hidden must be 1..4096", path));
  if (json_member<int>(pol, "outputs", path + ": policy") != m.policy_outputs())
    throw UsageError(fmt::format("{}: policy.outputs does not match the vocabulary", path));
  m.motion_scale = json_member<double>(pol, "motion_scale", path + ": policy");
  m.hold_thresholds = json_member<std::vector<double>>(pol, "hold_thresholds", path + ": policy");
  if (m.hold_thresholds.size() != m.vocabulary.size())
    throw UsageError(fmt::format("{}: policy.hold_thresholds must have one entry per vocabulary entry", path));
  m.release_thresholds = json_member<std::vector<double>>(pol, "release_thresholds", path + ": policy");
  if (m.release_thresholds.size() != m.vocabulary.size())
    throw UsageError(fmt::format("{}: policy.release_thresholds must have one entry per vocabulary entry", path));
  m.onset_scales = json_member<std::vector<double>>(pol, "onset_scales", path + ": policy");
  if (m.onset_scales.size() != m.vocabulary.size() + 1)
    throw UsageError(fmt::format("{}: policy.onset_scales must have one entry per vocabulary entry and one for the pointer", path));
  m.repress_scales = json_member<std::vector<double>>(pol, "repress_scales", path + ": policy");
  if (m.repress_scales.size() != m.vocabulary.size())
    throw UsageError(fmt::format("{}: policy.repress_scales must have one entry per vocabulary entry", path));
  for (const double x : m.repress_scales)
    if (!(x >= 0 && x < 1e6)) throw UsageError(fmt::format("{}: policy.repress_scales must be finite and >= 0", path));
  for (const double x : m.onset_scales)
    if (!(x >= 0 && x < 1e6)) throw UsageError(fmt::format("{}: policy.onset_scales must be finite and >= 0", path));
  m.frame_interval_ms = json_member<double>(pol, "frame_interval_ms", path + ": policy");
  if (!(m.frame_interval_ms >= 0 && m.frame_interval_ms < 1e6))
    throw UsageError(fmt::format("{}: policy.frame_interval_ms must be finite and >= 0", path));
  const std::string pp = path + ": policy";
  if (json_member<int>(pol, "target_entries", pp) != m.features.classes * m.features.per_class + 1)
    throw UsageError(fmt::format("{}: policy.target_entries does not match the feature layout", path));
  m.target_radius = json_member<double>(pol, "target_radius", pp);
  if (!(m.target_radius >= 0 && m.target_radius <= 2))
    throw UsageError(fmt::format("{}: policy.target_radius must be 0..2", path));
  m.aim_offsets = json_member<std::vector<std::array<double, 2>>>(pol, "aim_offsets", pp);
  if (m.aim_offsets.size() != m.classes.size())
    throw UsageError(fmt::format("{}: policy.aim_offsets must have one [ox, oy] per class", path));
  for (const auto& o : m.aim_offsets)
    if (!(std::abs(o[0]) <= 10 && std::abs(o[1]) <= 10))
      throw UsageError(fmt::format("{}: policy.aim_offsets must be finite box units", path));
  m.event_given_target = json_member<std::vector<std::vector<double>>>(pol, "event_given_target", pp);
  if (m.event_given_target.size() != m.classes.size() + 1)
    throw UsageError(fmt::format("{}: policy.event_given_target must have one row per class and one for no object", path));
  for (const auto& row : m.event_given_target) {
    if (row.size() != m.vocabulary.size() + 1)
      throw UsageError(fmt::format("{}: policy.event_given_target rows must have one entry per vocabulary entry and one for the pointer move", path));
    for (const double x : row)
      if (!(x >= 0 && x <= 1)) throw UsageError(fmt::format("{}: policy.event_given_target must be probabilities 0..1", path));
  }
  m.target_threshold = json_member<double>(pol, "target_threshold", pp);
  if (!(m.target_threshold >= 0 && m.target_threshold < 1e6))
    throw UsageError(fmt::format("{}: policy.target_threshold must be finite and >= 0", path));
  if (pol.contains("aim")) {  // absent in models trained before crosshair aiming: "pointer"
    const nlohmann::json& aim = pol["aim"];
    if (!aim.is_object()) throw UsageError(fmt::format("{}: policy.aim must be an object", path));
    m.aim_frame = json_member<std::string>(aim, "frame", pp + ".aim");
    m.aim_gain = json_member<double>(aim, "gain", pp + ".aim");
    m.press_on_box = aim.contains("press_on_box") ? json_member<double>(aim, "press_on_box", pp + ".aim") : 0.0;
    if (!(m.press_on_box >= 0 && m.press_on_box <= 1))
      throw UsageError(fmt::format("{}: policy.aim.press_on_box must be a share 0..1", path));
    m.aim_interval_ms = aim.contains("interval_ms") ? json_member<double>(aim, "interval_ms", pp + ".aim") : 0.0;
    if (!(m.aim_interval_ms >= 0 && m.aim_interval_ms <= 60'000))
      throw UsageError(fmt::format("{}: policy.aim.interval_ms must be 0..60000", path));
    if (m.aim_frame != "pointer" && m.aim_frame != "crosshair")
      throw UsageError(fmt::format("{}: policy.aim.frame must be pointer or crosshair", path));
    if (!(m.aim_gain >= 0 && m.aim_gain < 1e3) || (m.aim_frame == "crosshair" && !(m.aim_gain > 0)))
      throw UsageError(fmt::format("{}: policy.aim.gain must be finite, and > 0 for a crosshair", path));
  }
  const auto window = json_member<std::vector<int>>(j, "window", path);
  if (window.size() != 2) throw UsageError(fmt::format("{}: window must be [W, H]", path));
  m.window_width = window[0];
  m.window_height = window[1];
  if (j.contains("verdict")) {  // absent in models trained before verdicts: unknown
    const nlohmann::json& v = j["verdict"];
    if (!v.is_object() || !v.contains("weak") || !v["weak"].is_boolean())
      throw UsageError(fmt::format("{}: verdict.weak must be true or false", path));
    m.weak = v["weak"].get<bool>();
    if (v.contains("reasons")) {
      if (!v["reasons"].is_array()) throw UsageError(fmt::format("{}: verdict.reasons must be a list of strings", path));
      for (const auto& r : v["reasons"]) {
        if (!r.is_string()) throw UsageError(fmt::format("{}: verdict.reasons must be a list of strings", path));
        m.weak_reasons.push_back(r.get<std::string>());
      }
    }
  }
  m.info = j;
  for (const char* k : {"schema", "input_size", "classes", "vocabulary", "feature_layout", "detector", "policy", "window"})
    m.info.erase(k);
  return m;
}

}  // namespace pictor::ic
