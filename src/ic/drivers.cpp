#include "ic/drivers.h"

#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "drivers/driver.h"
#include "ic/baseline_drivers.h"
#include "ic/human_recorder.h"
#include "ic/reference_player.h"

namespace pictor::ic {

void register_drivers() {
  drivers::register_driver("reference", [](std::string_view args, std::string_view spec) {
    return std::make_unique<ReferencePlayer>(parse_reference_options(drivers::parse_driver_options(args, spec), spec));
  });
  drivers::register_driver("human", [](std::string_view args, std::string_view spec) {
    const auto o = drivers::parse_driver_options(args, spec);
    const auto it = o.find("display");
    if (o.size() > (it == o.end() ? 0u : 1u) || (it != o.end() && it->second.empty()))
      throw UsageError("driver '" + std::string(spec) + "': the only option is display=:N (the X display the person plays on)");
    return std::make_unique<HumanDriver>(it == o.end() ? std::string() : it->second);
  });
  drivers::register_driver("replay", make_replay_driver);
  drivers::register_driver("gated-replay", make_gated_replay_driver);
  drivers::register_driver("slow-motion", make_slow_motion_driver);
}

}  // namespace pictor::ic
