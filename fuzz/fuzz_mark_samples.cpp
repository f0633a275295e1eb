// Fuzz target: `pictor mark score`'s samples JSON on any bytes, and the scoring of what parses
// (with a short bootstrap, so that the arithmetic sees every parsed set). Property: errors are
// one short line of plain text.
#include <string>

#include "core/error.h"
#include "fuzz_check.h"
#include "mark/samples_json.h"
#include "mark/score.h"

namespace {

void check_one_plain_line(const std::string& message) {
  FUZZ_CHECK(message.size() < 600);
  for (const char c : message) FUZZ_CHECK(c >= 0x20 && c < 0x7f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pictor::mark;
  SampleSet set;
  try {
    set = parse_sample_set(std::string(pictor::fuzz::as_text(data, size)), "fuzz.json");
  } catch (const pictor::UsageError& e) {
    check_one_plain_line(e.what());
    return 0;
  }
  // Scoring is O(samples x iterations): a few iterations keep the executions fast.
  if (set.samples.size() > 256) return 0;
  try {
    (void)score_to_json(score_samples(set.samples, set.fps, BootstrapOptions{.iterations = 8}));
  } catch (const pictor::UsageError& e) {
    check_one_plain_line(e.what());
  }
  return 0;
}
