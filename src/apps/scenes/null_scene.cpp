// `null`: clears and swaps, nothing else, so a run of it measures Pictor's own per-frame cost.
#include <GL/gl.h>

#include "apps/scenes/scenes.h"

namespace pictor::apps {
namespace {

class NullScene final : public Scene {
 public:
  std::vector<SceneOption> options() const override { return {}; }
  void setup(const SceneContext&) override { glClearColor(0.1f, 0.1f, 0.12f, 1.0f); }
  void update(double, double) override {}
  void draw() override { glClear(GL_COLOR_BUFFER_BIT); }
};

}  // namespace

std::unique_ptr<Scene> make_null_scene() { return std::make_unique<NullScene>(); }

}  // namespace pictor::apps
