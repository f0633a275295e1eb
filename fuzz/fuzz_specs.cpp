// Fuzz target: the one-line specs of the command line. The first byte chooses the parser, the
// rest is its text: `--net` (net::parse_net_spec), `--driver` (drivers::make_driver, then a few
// steps of the driver it built), a built-in scene with options (apps::parse_scene_spec and the
// scene's declared options), durations and sizes (core/units), key and button names.
#include <string>

#include "apps/scene.h"
#include "core/error.h"
#include "core/units.h"
#include "drivers/driver.h"
#include "fuzz_check.h"
#include "net/spec.h"

namespace {

void net_spec(const std::string& text) {
  const auto spec = pictor::net::parse_net_spec(text);
  FUZZ_CHECK(spec.loss >= 0 && spec.loss <= 1);
  FUZZ_CHECK(spec.delay_s >= 0 && spec.jitter_s >= 0 && spec.rate_bits_s >= 0);
  (void)pictor::net::to_string(spec);
}

void driver_spec(const std::string& text) {
  auto driver = pictor::drivers::make_driver(text);
  (void)driver->spec();
  (void)driver->vocabulary();
  // The client asks at the times the driver gives, and after each frame: follow a few answers,
  // starting far into the clock as a long session would.
  pictor::drivers::ClientView view;
  view.now_ns = 1'000'000'000'000'000;
  for (int i = 0; i < 8; ++i) {
    const auto step = driver->step(view);
    if (step.finished) break;
    FUZZ_CHECK(step.next_ns >= view.now_ns || !step.send.empty());
    view.now_ns = std::max(view.now_ns + 1, step.next_ns);
  }
}

void scene_spec(const std::string& text) {
  const auto spec = pictor::apps::parse_scene_spec(text);
  FUZZ_CHECK(!spec.name.empty());
  if (const auto* info = pictor::apps::find_scene(spec.name)) {
    const auto scene = info->make();
    const pictor::apps::SceneOptions options(scene->options(), spec.options, spec.name);
    for (const auto& [name, value] : spec.options) FUZZ_CHECK(options.text(name) == value);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(pictor::fuzz::as_text(data + 1, size - 1));
  try {
    switch (data[0] % 6) {
      case 0: net_spec(text); break;
      case 1: driver_spec(text); break;
      case 2: scene_spec(text); break;
      case 3: FUZZ_CHECK(pictor::parse_duration_s(text) >= 0); break;
      case 4: {
        const auto s = pictor::parse_size(text);
        FUZZ_CHECK(s.width > 0 && s.height > 0);
        break;
      }
      case 5: (void)pictor::drivers::parse_input_code(text); break;
    }
  } catch (const pictor::UsageError&) {
  }
  return 0;
}
