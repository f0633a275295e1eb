// Fuzz target: a suite file (FILE.suite: one benchmark line per line) on any text, as `pictor
// suite FILE` reads it: benchmark lines, built-in scene specs and their options, driver specs,
// durations and sizes. Property: an accepted suite has uniquely named benchmarks with positive
// durations.
#include <set>
#include <string>

#include "core/error.h"
#include "fuzz_check.h"
#include "suite/benchmark.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto suite =
        pictor::suite::parse_suite(std::string(pictor::fuzz::as_text(data, size)), "fuzz", "fuzz.suite");
    FUZZ_CHECK(!suite.benchmarks.empty());
    std::set<std::string> names;
    for (const auto& b : suite.benchmarks) {
      FUZZ_CHECK(names.insert(b.name).second);
      FUZZ_CHECK(b.duration_s > 0 && b.quick_duration_s > 0);
      FUZZ_CHECK(b.size.width > 0 && b.size.height > 0);
    }
  } catch (const pictor::UsageError&) {
  }
  return 0;
}
