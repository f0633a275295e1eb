// Benchmark lines and suites as data: parsing, defaults, errors naming the part and the line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/error.h"
#include "suite/benchmark.h"

using namespace pictor;
using namespace pictor::suite;

namespace {

std::string error_of(const std::string& line) {
  try {
    parse_benchmark(line);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Benchmark, ParsesAppAndKeys) {
  const Benchmark b = parse_benchmark(
      "builtin:racing:seed=4,detail=2 name=r4 driver=scripted:rate=4,keys=Up|Left duration=1m quick=5s "
      "adapter=local size=800x600");
  EXPECT_EQ(b.app, "builtin:racing:seed=4,detail=2");
  EXPECT_EQ(b.target(), "racing:seed=4,detail=2");
  EXPECT_FALSE(b.is_profile());
  EXPECT_EQ(b.name, "r4");
  EXPECT_EQ(b.driver, "scripted:rate=4,keys=Up|Left");
  EXPECT_TRUE(b.driver_given);
  EXPECT_EQ(b.duration_s, 60);
  EXPECT_TRUE(b.duration_given);
  EXPECT_EQ(b.quick_duration_s, 5);
  EXPECT_EQ(b.size.width, 800);
  const Benchmark d = parse_benchmark("builtin:shooter");
  EXPECT_EQ(d.name, "shooter");
  EXPECT_TRUE(d.driver.empty());
  EXPECT_FALSE(d.driver_given);
  EXPECT_EQ(d.adapter, "local");
  const Benchmark p = parse_benchmark("profile:neverball driver=none");
  EXPECT_TRUE(p.is_profile());
  EXPECT_EQ(p.name, "neverball");
  EXPECT_TRUE(p.driver_given);
  EXPECT_TRUE(p.driver.empty());
}

TEST(Benchmark, ErrorsNameTheBadPart) {
  EXPECT_EQ(error_of("builtin:chess"), "benchmark 'builtin:chess': unknown built-in scene 'chess'");
  EXPECT_NE(error_of("builtin:racing:speed=3").find("has no option 'speed'"), std::string::npos);
  EXPECT_EQ(error_of("glxgears"), "benchmark 'glxgears': the app must be builtin:SCENE[:options] or profile:NAME");
  EXPECT_EQ(error_of("builtin:racing adapter=xvnc"),
            "benchmark 'builtin:racing': adapter=xvnc is not one of local (display/proxy stack (today: local))");
  EXPECT_EQ(error_of("builtin:racing colour=red"),
            "benchmark 'builtin:racing' has no option 'colour' (options: name, driver, duration, quick, adapter, size)");
  EXPECT_EQ(error_of("builtin:racing fast"), "benchmark 'builtin:racing': 'fast' is not NAME=VALUE");
  EXPECT_EQ(error_of("builtin:racing quick=2s quick=3s"), "benchmark 'builtin:racing': option 'quick' given twice");
  EXPECT_NE(error_of("builtin:racing duration=soon").find("soon"), std::string::npos);
  EXPECT_NE(error_of("builtin:racing driver=teleport").find("teleport"), std::string::npos);
  EXPECT_EQ(error_of("profile:"), "benchmark 'profile:': no profile name");
}

TEST(Suite, BuiltinSuitesAreValidAndTheDefaultIsTheThreeGames) {
  const auto& suites = builtin_suites();
  ASSERT_FALSE(suites.empty());
  const SuiteDefinition d = find_suite("default");
  ASSERT_EQ(d.benchmarks.size(), 3u);
  double quick_total = 0;
  for (const auto& b : d.benchmarks) {
    EXPECT_FALSE(b.driver.empty()) << b.name << ": the default suite drives each game";
    EXPECT_EQ(b.adapter, "local");
    quick_total += b.quick_duration_s;
  }
  EXPECT_EQ(d.benchmarks[0].name, "racing");
  EXPECT_EQ(d.benchmarks[1].name, "shooter");
  EXPECT_EQ(d.benchmarks[2].name, "strategy");
  // Two minutes for --quick, start-up and teardown included: the play itself must leave room.
  EXPECT_LE(quick_total, 60.0);
  EXPECT_EQ(find_suite("real-games").benchmarks.size(), 3u);
}

TEST(Suite, FilesAndTheirErrors) {
  EXPECT_EQ(parse_suite("description = mine\n# c\n\nbuiltin:null\nbuiltin:spin name=s\n", "x", "x.suite").benchmarks.size(),
            2u);
  EXPECT_EQ(parse_suite("description = mine\nbuiltin:null\n", "x", "x.suite").description, "mine");
  try {
    parse_suite("builtin:null\n\nbuiltin:chess\n", "x", "my.suite");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "my.suite:3: benchmark 'builtin:chess': unknown built-in scene 'chess'");
  }
  try {
    parse_suite("builtin:null\nbuiltin:null\n", "x", "my.suite");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "my.suite:2: two benchmarks named 'null' (give one a name=...)");
  }
  EXPECT_THROW(parse_suite("# nothing\n", "x", "empty.suite"), UsageError);
  try {
    find_suite("nosuch");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no suite 'nosuch' (built-in suites: default,"), std::string::npos);
  }
  const auto path = std::filesystem::temp_directory_path() / ("pictor-" + std::to_string(getpid()) + "-two.suite");
  std::ofstream(path) << "builtin:null quick=1s\nbuiltin:spin:objects=10 quick=1s\n";
  const SuiteDefinition s = find_suite(path.string());
  EXPECT_EQ(s.name, "pictor-" + std::to_string(getpid()) + "-two");
  EXPECT_EQ(s.benchmarks.size(), 2u);
  std::filesystem::remove(path);
  // A device, a directory or a missing file is refused by name before anything is read.
  const auto error_of_file = [](const std::string& p) {
    try {
      find_suite(p);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error_of_file("/dev/zero"), "/dev/zero: is a character device, not a file Pictor can read");
  EXPECT_EQ(error_of_file("/tmp/"), "/tmp/: is a directory, not a file Pictor can read");
  EXPECT_EQ(error_of_file(path.string()).rfind(path.string() + ": cannot open: No such file", 0), 0u);
}
