// Benchmarks and suites as data (glmark2-style strings): one benchmark is an app plus options,
// driver, duration and adapter in one line; a suite is a named list of such lines.
#pragma once
#include <string>
#include <vector>

#include "core/units.h"

namespace pictor::suite {

// "APP [name=N] [driver=SPEC] [duration=D] [quick=D] [adapter=A] [size=WxH]", e.g.
//   builtin:racing:seed=1 driver=scripted:rate=4,keys=Up|Left|Right|Down duration=30s quick=10s
// APP is builtin:SCENE[:opt=value...] or profile:NAME (a real game through its profile).
struct Benchmark {
  std::string name;                // unique within a suite; default: the scene or profile name
  std::string app;
  std::string driver;              // empty: no inputs (or the profile's default driver)
  bool driver_given = false;       // "driver=none" gives an explicit empty driver
  double duration_s = 30;
  bool duration_given = false;     // profiles default to their own duration
  double quick_duration_s = 10;    // the duration under --quick
  std::string adapter = "local";
  Size size{1280, 720};
  std::string text;                // the line as written

  bool is_profile() const { return app.rfind("profile:", 0) == 0; }
  std::string target() const;      // the part after "builtin:" or "profile:"
};

// Throws pictor::UsageError naming the bad part; checks builtin scenes and their options,
// driver specs and adapters (today: local).
Benchmark parse_benchmark(const std::string& text);

struct SuiteDefinition {
  std::string name;
  std::string description;
  std::vector<Benchmark> benchmarks;
};

// The suites that ship with Pictor (default, games, detail, baseline, real-games).
const std::vector<SuiteDefinition>& builtin_suites();
// A suite by name, or from a file (contains '/' or ends in .suite): one benchmark line per line,
// '#' comments, "description = ..." optional. Throws UsageError "<file>:<line>: <cause>".
SuiteDefinition find_suite(const std::string& name_or_path);
SuiteDefinition parse_suite(const std::string& text, const std::string& name, const std::string& file);

}  // namespace pictor::suite
