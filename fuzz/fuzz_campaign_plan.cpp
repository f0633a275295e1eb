// Fuzz target: a campaign plan (docs/scale-out.md) on any text, as `pictor campaign` reads it
// (campaign::parse_plan): YAML, every key of the plan, its benchmarks, slurm and kubernetes maps,
// then every benchmark × adapter × --net combination through pictor run's own checks. Properties:
// an error is one line "fuzz.yaml:LINE: cause" with LINE ≥ 1; an accepted plan has uniquely
// named benchmarks, every axis non-empty, repeats and retries in range and at most kMaxCells cells.
// The checks only look for programs (built-in scenes need pictor-app: PICTOR_APP_BIN names this
// binary when it is unset, so they are checked without it), nothing is started or written.
#include <cstdlib>
#include <set>
#include <string>

#include "campaign/plan.h"
#include "core/error.h"
#include "fuzz_check.h"

namespace {

// "fuzz.yaml:" then a line number from 1, then ": " and a cause on the same line.
bool is_plan_error(const std::string& m) {
  constexpr std::string_view kFile = "fuzz.yaml:";
  if (m.rfind(kFile, 0) != 0 || m.find('\n') != std::string::npos) return false;
  std::size_t i = kFile.size();
  long line = 0;
  while (i < m.size() && m[i] >= '0' && m[i] <= '9' && line < 100000000) line = line * 10 + (m[i++] - '0');
  return line >= 1 && m.compare(i, 2, ": ") == 0 && m.size() > i + 2;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool app_named = [] { return ::setenv("PICTOR_APP_BIN", "/proc/self/exe", 0) == 0; }();
  FUZZ_CHECK(app_named);
  try {
    const auto p = pictor::campaign::parse_plan(std::string(pictor::fuzz::as_text(data, size)), "fuzz.yaml");
    FUZZ_CHECK(!p.benchmarks.empty() && !p.adapters.empty() && !p.nets.empty() && !p.instances.empty());
    std::set<std::string> names;
    for (const auto& b : p.benchmarks) {
      FUZZ_CHECK(names.insert(b.name).second);
      FUZZ_CHECK(b.app.empty() != b.command.empty());
      FUZZ_CHECK(b.line >= 1);
    }
    FUZZ_CHECK(p.repeats >= 1 && p.repeats <= pictor::campaign::kMaxRepeats);
    FUZZ_CHECK(p.retries >= 0 && p.retries <= pictor::campaign::kMaxRetries);
    FUZZ_CHECK(p.benchmarks.size() * p.adapters.size() * p.nets.size() * p.instances.size() *
                   static_cast<std::size_t>(p.repeats) <= pictor::campaign::kMaxCells);
    (void)pictor::campaign::target_words(p.benchmarks.front());
  } catch (const pictor::UsageError& e) {
    if (!is_plan_error(e.what())) {
      std::fprintf(stderr, "not a one-line plan error: [%s]\n", e.what());
      FUZZ_CHECK(false);
    }
  }
  return 0;
}
