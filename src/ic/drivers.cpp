#include "ic/drivers.h"

#include <memory>
#include <string>
#include <string_view>

#include "drivers/driver.h"
#include "ic/baseline_drivers.h"
#include "ic/human_recorder.h"
#include "ic/reference_player.h"

namespace pictor::ic {

void register_drivers() {
  drivers::register_driver({"reference", "a seeded, scripted player of the built-in games, from their ground truth",
                            reference_option_set(),
                            [](const options::Values& values, std::string_view) {
                              return std::make_unique<ReferencePlayer>(reference_options(values));
                            }});
  drivers::register_driver(
      {"human", "sends nothing: records what a person plays on the session's display (or display=:N)",
       // ',' alone separates: the display's name starts with ':'.
       options::OptionSet("driver 'human'", {options::text("display", "the X display the person plays on (:N)")}, ","),
       [](const options::Values& values, std::string_view) {
         return std::make_unique<HumanDriver>(values.has("display") ? values.text("display") : std::string());
       }});
  drivers::register_driver(replay_driver_info());
  drivers::register_driver(gated_replay_driver_info());
  drivers::register_driver(slow_motion_driver_info());
}

}  // namespace pictor::ic
