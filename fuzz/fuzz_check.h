// What every fuzz target shares: FUZZ_CHECK for the properties a target asserts beyond "does not
// crash", and the input as text. Targets catch the error a parser is allowed to throw
// (pictor::UsageError) and nothing else: any other exception is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// A broken property is a crash to libFuzzer (and a failed run to the replay).
#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (false)

namespace pictor::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace pictor::fuzz
