#include "apps/scene.h"

#include <cstdlib>

#include "core/error.h"

namespace pictor::apps {

const std::vector<SceneOption>& common_scene_options() {
  static const std::vector<SceneOption> common{
      {"max_fps", "0", "at most this many frames a second, like a swap that waits for the display (0 = no limit)", {}}};
  return common;
}

SceneOptions::SceneOptions(const std::vector<SceneOption>& scene_declared,
                           const std::map<std::string, std::string>& given,
                           const std::string& scene_name)
    : scene_(scene_name) {
  std::vector<SceneOption> declared = scene_declared;
  declared.insert(declared.end(), common_scene_options().begin(), common_scene_options().end());
  for (const auto& opt : declared) values_[opt.name] = opt.default_value;
  for (const auto& [name, value] : given) {
    const SceneOption* decl = nullptr;
    for (const auto& opt : declared)
      if (opt.name == name) decl = &opt;
    if (!decl) {
      std::string known;
      for (const auto& opt : declared) known += (known.empty() ? "" : ", ") + opt.name;
      throw UsageError("scene '" + scene_name + "' has no option '" + name + "' (options: " +
                       (known.empty() ? "none" : known) + ")");
    }
    if (!decl->allowed.empty()) {
      bool ok = false;
      for (const auto& a : decl->allowed) ok = ok || a == value;
      if (!ok) throw UsageError("invalid value '" + value + "' for " + scene_name + ":" + name);
    }
    values_[name] = value;
  }
}

const std::string& SceneOptions::text(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("scene '" + scene_ + "' has no option '" + name + "'");
  return it->second;
}

int SceneOptions::integer(const std::string& name, int min, int max) const {
  const std::string& t = text(name);
  char* end = nullptr;
  const long v = std::strtol(t.c_str(), &end, 10);
  if (t.empty() || *end || v < min || v > max)
    throw UsageError(scene_ + ":" + name + "=" + t + " is not an integer in [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<int>(v);
}

double SceneOptions::number(const std::string& name, double min, double max) const {
  const std::string& t = text(name);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end || !(v >= min && v <= max))
    throw UsageError(scene_ + ":" + name + "=" + t + " is not a number in [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

SceneSpec parse_scene_spec(const std::string& text) {
  SceneSpec spec;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= text.size()) {
    const auto end = text.find_first_of(":,", pos);
    const std::string part = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (first) {
      spec.name = part;
      first = false;
    } else if (!part.empty()) {
      const auto eq = part.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError("invalid scene option '" + part + "' in '" + text + "' (expected name=value)");
      spec.options[part.substr(0, eq)] = part.substr(eq + 1);
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  if (spec.name.empty()) throw UsageError("no scene name in '" + text + "'");
  return spec;
}

const SceneInfo* find_scene(const std::string& name) {
  for (const auto& s : scene_registry())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace pictor::apps
