#include "apps/scene.h"

#include "core/error.h"

namespace pictor::apps {

const std::vector<SceneOption>& common_scene_options() {
  static const std::vector<SceneOption> common{
      options::number("max_fps", "at most this many frames a second, like a swap that waits for the display (0 = no limit)")
          .within(0, 10000)
          .or_default("0")};
  return common;
}

options::OptionSet scene_option_set(const std::vector<SceneOption>& declared, const std::string& scene_name) {
  options::OptionSet set("scene '" + scene_name + "'", declared);
  set.options.insert(set.options.end(), common_scene_options().begin(), common_scene_options().end());
  return set;
}

SceneOptions::SceneOptions(const std::vector<SceneOption>& declared, const std::map<std::string, std::string>& given,
                           const std::string& scene_name) {
  options::Items items;
  items.given.assign(given.begin(), given.end());
  values_ = options::resolve(scene_option_set(declared, scene_name), items);
}

SceneSpec parse_scene_spec(const std::string& text) {
  SceneSpec spec;
  const auto end = text.find_first_of(":,");
  spec.name = text.substr(0, end);
  if (spec.name.empty()) throw UsageError("no scene name in '" + text + "'");
  if (end == std::string::npos) return spec;
  const options::Items items = options::split(options::OptionSet("scene '" + spec.name + "'", {}),
                                              std::string_view(text).substr(end + 1));
  spec.options.insert(items.given.begin(), items.given.end());
  return spec;
}

const SceneInfo* find_scene(const std::string& name) {
  for (const auto& s : scene_registry())
    if (s.name == name) return &s;
  return nullptr;
}

std::string describe_scenes() {
  std::string out;
  for (const auto& info : scene_registry()) {
    out += info.name + std::string(info.name.size() < 10 ? 10 - info.name.size() : 1, ' ') + info.description + "\n";
    out += options::help(options::OptionSet("", info.make()->options()), 4);
  }
  out += "every scene also takes:\n" + options::help(options::OptionSet("", common_scene_options()), 4);
  return out;
}

}  // namespace pictor::apps
