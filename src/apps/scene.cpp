#include "apps/scene.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace pictor::apps {

SceneOption text_option(std::string name, std::string default_value, std::string description,
                        std::vector<std::string> allowed) {
  return {std::move(name), std::move(default_value), std::move(description), std::move(allowed), OptionKind::text, 0, 0};
}

SceneOption integer_option(std::string name, std::string default_value, std::string description, int min, int max) {
  return {std::move(name), std::move(default_value), std::move(description), {}, OptionKind::integer, static_cast<double>(min), static_cast<double>(max)};
}

SceneOption number_option(std::string name, std::string default_value, std::string description, double min,
                          double max) {
  return {std::move(name), std::move(default_value), std::move(description), {}, OptionKind::number, min, max};
}

const std::vector<SceneOption>& common_scene_options() {
  static const std::vector<SceneOption> common{number_option(
      "max_fps", "0", "at most this many frames a second, like a swap that waits for the display (0 = no limit)", 0,
      10000)};
  return common;
}

namespace {

std::string range_text(const SceneOption& o) {
  char buf[96];
  if (o.kind == OptionKind::integer)
    std::snprintf(buf, sizeof buf, "[%.0f, %.0f]", o.min, o.max);
  else
    std::snprintf(buf, sizeof buf, "[%g, %g]", o.min, o.max);
  return buf;
}

// The value as its declaration says, or a UsageError naming scene, option and what it takes.
void check_value(const SceneOption& o, const std::string& value, const std::string& scene) {
  const std::string what = scene + ":" + o.name + "=" + value;
  char* end = nullptr;
  switch (o.kind) {
    case OptionKind::text:
      if (!o.allowed.empty() && std::find(o.allowed.begin(), o.allowed.end(), value) == o.allowed.end()) {
        std::string allowed;
        for (const auto& a : o.allowed) allowed += (allowed.empty() ? "" : ", ") + a;
        throw UsageError("invalid value '" + value + "' for " + scene + ":" + o.name + " (allowed: " + allowed + ")");
      }
      return;
    case OptionKind::integer: {
      errno = 0;
      const long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end || errno == ERANGE || static_cast<double>(v) < o.min || static_cast<double>(v) > o.max)
        throw UsageError(what + " is not an integer in " + range_text(o) + " (" + o.description + ")");
      return;
    }
    case OptionKind::number: {
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !(v >= o.min && v <= o.max))
        throw UsageError(what + " is not a number in " + range_text(o) + " (" + o.description + ")");
      return;
    }
  }
}

}  // namespace

SceneOptions::SceneOptions(const std::vector<SceneOption>& scene_declared,
                           const std::map<std::string, std::string>& given,
                           const std::string& scene_name)
    : scene_(scene_name) {
  std::vector<SceneOption> all = scene_declared;
  all.insert(all.end(), common_scene_options().begin(), common_scene_options().end());
  for (const auto& opt : all) {
    declared_[opt.name] = opt;
    values_[opt.name] = opt.default_value;
  }
  for (const auto& [name, value] : given) {
    const auto it = declared_.find(name);
    if (it == declared_.end()) {
      std::string known;
      for (const auto& opt : all) known += (known.empty() ? "" : ", ") + opt.name;
      throw UsageError("scene '" + scene_name + "' has no option '" + name + "' (options: " +
                       (known.empty() ? "none" : known) + ")");
    }
    check_value(it->second, value, scene_name);
    values_[name] = value;
  }
}

const SceneOption& SceneOptions::declared(const std::string& name) const {
  const auto it = declared_.find(name);
  if (it == declared_.end()) throw UsageError("scene '" + scene_ + "' has no option '" + name + "'");
  return it->second;
}

const std::string& SceneOptions::text(const std::string& name) const {
  declared(name);
  return values_.at(name);
}

int SceneOptions::integer(const std::string& name) const {
  const SceneOption& o = declared(name);
  if (o.kind != OptionKind::integer) throw UsageError("scene '" + scene_ + "' option '" + name + "' is not an integer");
  const std::string& t = values_.at(name);
  check_value(o, t, scene_);  // a default is checked like a given value
  return static_cast<int>(std::strtoll(t.c_str(), nullptr, 10));
}

double SceneOptions::number(const std::string& name) const {
  const SceneOption& o = declared(name);
  if (o.kind != OptionKind::number) throw UsageError("scene '" + scene_ + "' option '" + name + "' is not a number");
  const std::string& t = values_.at(name);
  check_value(o, t, scene_);
  return std::strtod(t.c_str(), nullptr);
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
