// What an app's LD_PRELOAD holds when Pictor loads one of its interposers into it.
#pragma once
#include <string>

namespace pictor {

// The LD_PRELOAD value that loads `libs` (':'-separated: Pictor's interposers, then whatever else
// is to be preloaded) into an app. In a sanitizer build (PICTOR_SANITIZE, which defines
// PICTOR_SANITIZER_RUNTIME) the sanitizer's runtime goes first: the interposers are instrumented
// there, and ASan starts only as the first library of a process (docs/fuzzing.md, "The sanitizer
// build"). Empty `libs`: empty.
inline std::string preload_value(const std::string& libs) {
#ifdef PICTOR_SANITIZER_RUNTIME
  if (!libs.empty()) return std::string(PICTOR_SANITIZER_RUNTIME) + ":" + libs;
#endif
  return libs;
}

}  // namespace pictor
