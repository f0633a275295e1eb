// The built-in scene interface (glmark2-style lifecycle): options declared as data, then
// setup / input / update / draw / teardown with a current GL context. One file per scene.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/units.h"
#include "platform/gl_window.h"

namespace pictor::apps {

// What values an option takes, so every given value is checked before anything starts (`pictor
// run` and `pictor suite` check the spec before they start a display server or the app).
enum class OptionKind { text, integer, number };

struct SceneOption {
  std::string name;
  std::string default_value;
  std::string description;
  std::vector<std::string> allowed;  // text: empty = any value
  OptionKind kind = OptionKind::text;
  double min = 0, max = 0;           // integer/number: the inclusive range
};

SceneOption text_option(std::string name, std::string default_value, std::string description,
                        std::vector<std::string> allowed = {});
SceneOption integer_option(std::string name, std::string default_value, std::string description, int min, int max);
SceneOption number_option(std::string name, std::string default_value, std::string description, double min,
                          double max);

// Options every scene takes besides its own, applied by pictor-app's frame loop: max_fps=N
// (0 = as fast as it can) starts each frame at least 1/N s after the previous one started, as a
// game's frame limiter does (Xvfb and Xvnc never wait for a vertical blank).
const std::vector<SceneOption>& common_scene_options();

// Option values after defaults were applied. The constructor checks every given value against its
// declaration (name, allowed values, kind and range) and throws pictor::UsageError naming the
// first bad one; the getters then return values already known to be good.
class SceneOptions {
 public:
  SceneOptions() = default;
  SceneOptions(const std::vector<SceneOption>& declared, const std::map<std::string, std::string>& given,
               const std::string& scene_name);
  const std::string& text(const std::string& name) const;
  int integer(const std::string& name) const;
  double number(const std::string& name) const;

 private:
  const SceneOption& declared(const std::string& name) const;
  std::map<std::string, std::string> values_;
  std::map<std::string, SceneOption> declared_;
  std::string scene_;
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

// Parses "NAME[:opt=value[:opt=value...]]" (',' also separates options).
struct SceneSpec {
  std::string name;
  std::map<std::string, std::string> options;
};
SceneSpec parse_scene_spec(const std::string& text);

}  // namespace pictor::apps
