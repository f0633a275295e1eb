#include "suite/benchmark.h"

#include <filesystem>
#include <set>
#include <sstream>
#include <string_view>

#include "apps/scene.h"
#include "core/error.h"
#include "core/files.h"
#include "core/options.h"
#include "drivers/driver.h"

namespace pictor::suite {

namespace {

// The built-in suites, as data. Drivers name only inputs each game reacts to; seeds differ so the
// driver's tap pattern is not the same in every game. Quick durations keep `--quick` of the
// default suite under two minutes on a 2-core machine, start-up and teardown included.
struct SuiteText {
  const char* name;
  const char* description;
  std::vector<const char*> lines;
};
const std::vector<SuiteText> kSuites = {
    {"default",
     "the three built-in games with the scripted driver on the local display",
     {"builtin:racing:seed=1 name=racing driver=scripted:rate=4,keys=Up|Left|Right|Down,seed=1 duration=30s quick=10s",
      "builtin:shooter:seed=1 name=shooter driver=scripted:rate=5,keys=button1|w|a|s|d,seed=2 duration=30s quick=10s",
      "builtin:strategy:seed=1 name=strategy "
      "driver=scripted:rate=4,keys=button1|button3|Left|Right|Up|Down,seed=3 duration=30s quick=10s"}},
    {"detail",
     "the built-in games at three load levels (detail 0.5, 1, 2), no inputs: how frame rate scales",
     {"builtin:racing:detail=0.5 name=racing-0.5 duration=20s quick=6s",
      "builtin:racing:detail=1 name=racing-1 duration=20s quick=6s",
      "builtin:racing:detail=2 name=racing-2 duration=20s quick=6s",
      "builtin:shooter:detail=0.5 name=shooter-0.5 duration=20s quick=6s",
      "builtin:shooter:detail=1 name=shooter-1 duration=20s quick=6s",
      "builtin:shooter:detail=2 name=shooter-2 duration=20s quick=6s",
      "builtin:strategy:detail=0.5 name=strategy-0.5 duration=20s quick=6s",
      "builtin:strategy:detail=1 name=strategy-1 duration=20s quick=6s",
      "builtin:strategy:detail=2 name=strategy-2 duration=20s quick=6s"}},
    {"baseline",
     "Pictor's own cost (null scene) and a simple tunable load (spin)",
     {"builtin:null name=null duration=10s quick=4s", "builtin:spin:objects=500 name=spin duration=10s quick=4s"}},
    {"real-games",
     "third-party games through their profiles (scripts/install-games.sh installs them; missing ones are skipped)",
     {"profile:extremetuxracer", "profile:neverball", "profile:supertuxkart"}},
};

}  // namespace

std::string Benchmark::target() const {
  const auto colon = app.find(':');
  return colon == std::string::npos ? app : app.substr(colon + 1);
}

namespace {

// The words after the app, declared (core/options.h). The owner names the app, so the set is
// made per line.
options::OptionSet benchmark_option_set(const std::string& app) {
  namespace o = options;
  return {"benchmark '" + app + "'",
          {o::text("name", "unique within the suite (default: the scene or profile name)"),
           o::text("driver", "input driver spec, or none"), o::duration("duration", "how long it runs"),
           o::duration("quick", "how long it runs under --quick").or_default("10s"),
           o::word("adapter", {"local"}, "display/proxy stack (today: local)").or_default("local"),
           o::size("size", "window size").or_default("1280x720")},
          " \t",
          "APP",
          "builtin:SCENE[:options] or profile:NAME"};
}

}  // namespace

Benchmark parse_benchmark(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) throw UsageError("empty benchmark");
  Benchmark b;
  b.text = text;
  b.app = text.substr(first, text.find_first_of(" \t", first) - first);
  if (b.app.rfind("builtin:", 0) == 0) {
    const apps::SceneSpec spec = apps::parse_scene_spec(b.target());
    const apps::SceneInfo* info = apps::find_scene(spec.name);
    if (!info) throw UsageError("benchmark '" + b.app + "': unknown built-in scene '" + spec.name + "'");
    apps::SceneOptions(info->make()->options(), spec.options, spec.name);  // throws on a bad option
    b.name = spec.name;
  } else if (b.is_profile()) {
    if (b.target().empty()) throw UsageError("benchmark '" + b.app + "': no profile name");
    b.name = std::filesystem::path(b.target()).stem().string();
  } else {
    throw UsageError("benchmark '" + b.app + "': the app must be builtin:SCENE[:options] or profile:NAME");
  }
  const options::Values v = options::parse(benchmark_option_set(b.app), std::string_view(text).substr(first));
  if (v.given("name")) {
    if (v.text("name").empty()) throw UsageError("benchmark '" + b.app + "': empty name");
    b.name = v.text("name");
  }
  if ((b.driver_given = v.given("driver"))) {
    b.driver = v.text("driver") == "none" ? "" : v.text("driver");
    if (!b.driver.empty()) drivers::make_driver(b.driver);  // throws on a bad spec
  }
  if ((b.duration_given = v.given("duration"))) b.duration_s = v.number("duration");
  b.quick_duration_s = v.number("quick");
  b.adapter = v.text("adapter");
  b.size = v.size("size");
  if (!(b.duration_s > 0) || !(b.quick_duration_s > 0))
    throw UsageError("benchmark '" + b.app + "': durations must be positive");
  return b;
}

SuiteDefinition parse_suite(const std::string& text, const std::string& name, const std::string& file) {
  SuiteDefinition s;
  s.name = name;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  std::set<std::string> names;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    try {
      if (line.rfind("description", 0) == 0 && line.find('=') != std::string::npos &&
          line.find_first_not_of(" \t", 11) == line.find('=')) {
        s.description = line.substr(line.find('=') + 1);
        s.description.erase(0, s.description.find_first_not_of(' '));
        continue;
      }
      Benchmark b = parse_benchmark(line);
      if (!names.insert(b.name).second)
        throw UsageError("two benchmarks named '" + b.name + "' (give one a name=...)");
      s.benchmarks.push_back(std::move(b));
    } catch (const UsageError& e) {
      throw UsageError(file + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  if (s.benchmarks.empty()) throw UsageError(file + ": no benchmarks in the suite");
  return s;
}

const std::vector<SuiteDefinition>& builtin_suites() {
  static const std::vector<SuiteDefinition> suites = [] {
    std::vector<SuiteDefinition> out;
    for (const auto& t : kSuites) {
      std::string text = std::string("description = ") + t.description + "\n";
      for (const char* l : t.lines) text += std::string(l) + "\n";
      out.push_back(parse_suite(text, t.name, std::string("built-in suite '") + t.name + "'"));
    }
    return out;
  }();
  return suites;
}

SuiteDefinition find_suite(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  if (name_or_path.find('/') != std::string::npos || fs::path(name_or_path).extension() == ".suite") {
    // Refuses a device (/dev/zero), a directory or a huge file by name.
    return parse_suite(files::read_input_file(name_or_path), fs::path(name_or_path).stem().string(), name_or_path);
  }
  std::string names;
  for (const auto& s : builtin_suites()) {
    if (s.name == name_or_path) return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  throw UsageError("no suite '" + name_or_path + "' (built-in suites: " + names + "; or give a FILE.suite)");
}

}  // namespace pictor::suite
