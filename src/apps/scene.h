// The built-in scene interface (glmark2-style lifecycle): options declared as data, then
// setup / input / update / draw / teardown with a current GL context. One file per scene.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/units.h"
#include "platform/gl_window.h"

namespace pictor::apps {

// Scenes declare their options with core/options.h, so every given value is checked before
// anything starts (`pictor run` and `pictor suite` check the spec before they start a display
// server or the app) and `pictor list` shows them.
using SceneOption = options::Option;

// Options every scene takes besides its own, applied by pictor-app's frame loop: max_fps=N
// (0 = as fast as it can) starts each frame at least 1/N s after the previous one started, as a
// game's frame limiter does (Xvfb and Xvnc never wait for a vertical blank).
const std::vector<SceneOption>& common_scene_options();

// A scene's own options and the common ones, named "scene 'NAME'" in messages.
options::OptionSet scene_option_set(const std::vector<SceneOption>& declared, const std::string& scene_name);

// Option values after defaults were applied. The constructor checks every given value against its
// declaration (core/options.h: name, type and range) and throws pictor::UsageError naming the
// first bad one; the getters then return values already known to be good.
class SceneOptions {
 public:
  SceneOptions() = default;
  SceneOptions(const std::vector<SceneOption>& declared, const std::map<std::string, std::string>& given,
               const std::string& scene_name);
  const std::string& text(const std::string& name) const { return values_.text(name); }
  int integer(const std::string& name) const { return static_cast<int>(values_.integer(name)); }
  double number(const std::string& name) const { return values_.number(name); }

 private:
  options::Values values_;
};

struct SceneContext {
  Size size;
  SceneOptions options;
};

class Scene {
 public:
  virtual ~Scene() = default;
  virtual std::vector<SceneOption> options() const = 0;
  // GL context current. Throws pictor::RunError when the scene cannot run here.
  virtual void setup(const SceneContext& context) = 0;
  virtual void input(const platform::InputEvent&) {}
  // t: seconds since the first frame; dt: seconds since the previous update.
  virtual void update(double t, double dt) = 0;
  virtual void draw() = 0;
  virtual void teardown() {}
};

struct SceneInfo {
  std::string name;
  std::string description;
  std::unique_ptr<Scene> (*make)();
};

// Every built-in scene, for listing and lookup.
const std::vector<SceneInfo>& scene_registry();
const SceneInfo* find_scene(const std::string& name);
// Every scene, its one line and its options, then the common options: help text generated from
// the declarations (`pictor list`, `pictor-app --list`).
std::string describe_scenes();

// Parses "NAME[:opt=value[:opt=value...]]" (',' also separates options). Throws UsageError for an
// option without '=' or given twice, in core/options.h's wording.
struct SceneSpec {
  std::string name;
  std::map<std::string, std::string> options;
};
SceneSpec parse_scene_spec(const std::string& text);

}  // namespace pictor::apps
