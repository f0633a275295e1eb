// `latency`: a scene with a known response delay for checking RTT measurements. Each key or
// button event it reads costs delay_ms of busy work in its logic before the frame that shows
// the response (the background flips colour), so RTT and AL must grow by exactly that much.
#include <GL/gl.h>

#include "apps/scenes/scenes.h"
#include "core/clock.h"

namespace pictor::apps {
namespace {

class LatencyScene final : public Scene {
 public:
  std::vector<SceneOption> options() const override {
    return {options::number("delay_ms", "busy-wait per input event in the app logic (ms)").within(0, 10000).or_default("0")};
  }
  void setup(const SceneContext& context) override {
    delay_ns_ = static_cast<std::int64_t>(context.options.number("delay_ms") * 1e6);
  }
  void input(const platform::InputEvent& e) override {
    if (e.kind == platform::InputEvent::Kind::motion) return;
    // Busy, not sleeping: this stands for logic work on the app's thread.
    const std::int64_t until = monotonic_ns() + delay_ns_;
    while (monotonic_ns() < until) {
    }
    ++responses_;
  }
  void update(double, double) override {}
  void draw() override {
    const float v = (responses_ % 2) ? 0.85f : 0.15f;
    glClearColor(v, 0.3f, 1.0f - v, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  }

 private:
  std::int64_t delay_ns_ = 0;
  long responses_ = 0;
};

}  // namespace

std::unique_ptr<Scene> make_latency_scene() { return std::make_unique<LatencyScene>(); }

}  // namespace pictor::apps
