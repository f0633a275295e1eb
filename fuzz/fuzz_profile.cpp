// Fuzz target: a real-game profile file (profiles/*.profile) on any text, as `pictor run
// profile:FILE` and `pictor suite` read it. The driver a profile names is built, so the scripted
// driver's options are parsed too. Property: an accepted profile has what parse_profile promises.
#include <sstream>
#include <string>

#include "core/error.h"
#include "fuzz_check.h"
#include "suite/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in{std::string(pictor::fuzz::as_text(data, size))};
  try {
    // Not NAME.profile, so that the shipped profiles (the seeds) are accepted whatever their name.
    const pictor::suite::Profile p = pictor::suite::parse_profile(in, "fuzz");
    FUZZ_CHECK(!p.name.empty());
    FUZZ_CHECK(!p.command.empty() && !p.window.empty() && !p.inputs.empty());
    FUZZ_CHECK(p.duration_s > 0);
  } catch (const pictor::UsageError&) {
  }
  return 0;
}
