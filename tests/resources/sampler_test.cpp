// The sampler on real processes: this test process as "client", a forked child found as a
// descendant mid-run, rows in the declared schema, counters with values or reasons.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "core/csv_files.h"
#include "core/files.h"
#include "resources/resource_summary.h"
#include "resources/counters.h"
#include "resources/sampler.h"

using namespace pictor::resources;
namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Sampler, RecordsAProcessAndTheChildItForksLater) {
  const fs::path dir = fresh("pictor-sampler");
  SamplerOptions o;
  o.out_dir = dir.string();
  o.interval_s = 0.02;
  ResourceSampler sampler(o);
  sampler.watch_process(::getpid(), role::kApp, "test app", /*descendants=*/true);
  sampler.set_network_unavailable("unavailable: test without network");
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const pid_t child = ::fork();
  if (child == 0) {
    // Busy for 0.3 s of its own CPU time (not wall time: the machine may be loaded), then exit.
    volatile unsigned long x = 0;
    for (;;) {
      timespec ts{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      if (static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9 >= 0.3) break;
      for (int i = 0; i < 100000; ++i) x = x + 1;
    }
    ::_exit(0);
  }
  ::waitpid(child, nullptr, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const SamplerStats st = sampler.stop();
  EXPECT_GE(st.samples, 10u);
  EXPECT_EQ(sampler.stop().samples, st.samples);  // idempotent

  const std::string text = pictor::files::read_file(dir / "resources.csv");
  EXPECT_EQ(text.substr(0, text.find('\n')), pictor::csv_files::kResources.header);
  const ResourceSeries s = parse_resources(text, "resources.csv", pictor::files::read_file(dir / "counters.csv"),
                                           "counters.csv");
  const nlohmann::json b = summarize_resources(s);
  ASSERT_TRUE(b["processes"].contains("app")) << b.dump(2);
  ASSERT_TRUE(b["processes"].contains("app-child")) << b.dump(2);
  EXPECT_EQ(b["processes"]["app-child"]["pids"][0], child);
  // The child ran 0.3 s of CPU; the sampler saw all but what came before its first sample and
  // after its last (two 20 ms intervals at most).
  EXPECT_GT(b["processes"]["app-child"]["cpu_s"].get<double>(), 0.25);
  EXPECT_GT(b["processes"]["app"]["rss_max_kb"].get<double>(), 0);
  ASSERT_TRUE(b["processes"].contains("sampler"));
  EXPECT_EQ(b["network"]["unavailable"], "unavailable: test without network");
  EXPECT_FALSE(b["machine"]["cores"].empty());
  // Software counters always; hardware ones a value or a reason, never an empty cell without one.
  const nlohmann::json& ev = b["counters"]["app"]["events"];
  EXPECT_GT(ev["task-clock"]["value"].get<double>(), 0);
  for (const char* hw : {"instructions", "cycles", "llc-references", "llc-misses", "branch-misses", "topdown-l1"}) {
    ASSERT_TRUE(ev.contains(hw)) << hw;
    if (ev[hw]["value"].is_null())
      EXPECT_EQ(ev[hw]["unavailable"].get<std::string>().rfind("unavailable: ", 0), 0u) << hw;
    else
      EXPECT_GT(ev[hw]["value"].get<double>(), 0) << hw;
  }
  fs::remove_all(dir);
}

TEST(Sampler, PerfErrnoTextNamesTheErrno) {
  EXPECT_EQ(perf_errno_text(ENOENT).rfind("ENOENT (No such file or directory: ", 0), 0u);
  EXPECT_NE(perf_errno_text(EACCES).find("perf_event_paranoid"), std::string::npos);
}

TEST(Sampler, OneSamplerForSeveralStacks) {
  const fs::path dir = fresh("pictor-sampler-stacks");
  SamplerOptions o;
  o.out_dir = dir.string();
  o.interval_s = 0.02;
  o.counters = false;
  ResourceSampler sampler(o);
  // Two stacks' processes (here the same one twice, as a stand-in) told apart by the stack column.
  sampler.watch_process(::getpid(), role::kApp, "first", false, "instance-1");
  sampler.watch_process(::getpid(), role::kApp, "second", false, "instance-2");
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  sampler.stop();
  EXPECT_FALSE(fs::exists(dir / "counters.csv"));
  const nlohmann::json b = summarize_resources(parse_resources(pictor::files::read_file(dir / "resources.csv"), "resources.csv"));
  EXPECT_EQ(b["processes"]["instance-1/app"]["names"][0], "first");
  EXPECT_EQ(b["processes"]["instance-2/app"]["names"][0], "second");
  fs::remove_all(dir);
}
