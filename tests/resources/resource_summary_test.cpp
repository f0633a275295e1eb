// The resources block from recorded rows: CPU mean and p95 per role summed over its processes,
// RSS max, switches per second, the machine, network rates, and the reasons for what is missing.
#include <gtest/gtest.h>

#include "core/csv_files.h"
#include "resources/resource_summary.h"

using namespace pictor::resources;
using nlohmann::json;

namespace {

const std::string kHeader = std::string(pictor::csv_files::kResources.header) + "\n";
const std::string kCountersHeader = std::string(pictor::csv_files::kCounters.header) + "\n";

// A process row: t in units of 100 ms.
std::string proc(int t, const char* role, int pid, const char* name, double user, double sys, int rss, int vol, int invol) {
  return std::to_string(static_cast<long long>(t) * 100'000'000) + ",," + role + "," + std::to_string(pid) + "," + name +
         "," + std::to_string(user) + "," + std::to_string(sys) + "," + std::to_string(rss) + ",1," +
         std::to_string(vol) + "," + std::to_string(invol) + ",0,0,,,,,\n";
}
std::string metric(int t, const char* role, const char* name, double value, const char* unit) {
  return std::to_string(static_cast<long long>(t) * 100'000'000) + ",," + role + ",," + name + ",,,,,,,,,,," +
         std::to_string(value) + "," + unit + ",\n";
}
std::string note(int t, const char* role, const char* name, const char* text) {
  return std::to_string(static_cast<long long>(t) * 100'000'000) + ",," + role + ",," + name + ",,,,,,,,,,,,,\"" + text +
         "\"\n";
}

}  // namespace

TEST(ResourceSummary, CpuPerRoleSumsItsProcesses) {
  std::string csv = kHeader;
  // app: 0.05 s per 100 ms (50 %), then 0.09 s in the last interval (90 %); its child appears at t=2.
  csv += proc(1, "app", 10, "app", 1.00, 0.00, 1000, 0, 0) + proc(1, "xserver", 20, "Xvfb", 0, 0, 500, 0, 0);
  csv += proc(2, "app", 10, "app", 1.05, 0.00, 1100, 10, 0) + proc(2, "xserver", 20, "Xvfb", 0.01, 0, 500, 5, 0);
  csv += proc(2, "app-child", 11, "sh", 0.0, 0.0, 300, 0, 0);
  csv += proc(3, "app", 10, "app", 1.08, 0.02, 1200, 20, 0) + proc(3, "xserver", 20, "Xvfb", 0.02, 0, 500, 10, 0);
  csv += proc(3, "app-child", 11, "sh", 0.02, 0.0, 400, 0, 0);
  csv += proc(4, "app", 10, "app", 1.17, 0.02, 1200, 30, 0) + proc(4, "xserver", 20, "Xvfb", 0.03, 0, 500, 15, 0);
  const json b = summarize_resources(parse_resources(csv, "resources.csv"));
  const json& app = b["processes"]["app"];
  EXPECT_EQ(app["processes"], 1);
  EXPECT_NEAR(app["cpu_mean_pct"].get<double>(), 100.0 * 0.19 / 0.3, 0.1);
  EXPECT_NEAR(app["cpu_p95_pct"].get<double>(), 90.0, 0.1);
  EXPECT_EQ(app["rss_max_kb"], 1200);
  EXPECT_NEAR(app["switches_per_s"].get<double>(), 30 / 0.3, 0.1);
  const json& child = b["processes"]["app-child"];
  EXPECT_EQ(child["pids"], json::array({11}));
  EXPECT_NEAR(child["cpu_mean_pct"].get<double>(), 20.0, 0.1);
  EXPECT_NEAR(b["processes"]["xserver"]["cpu_mean_pct"].get<double>(), 10.0, 0.1);
  EXPECT_NEAR(b["cpu_sum_mean_pct"].get<double>(), 63.3 + 20.0 + 10.0, 0.2);
  EXPECT_EQ(b["sampler"]["samples"], 4);
  EXPECT_NEAR(b["sampler"]["interval_median_ms"].get<double>(), 100.0, 1e-6);
}

TEST(ResourceSummary, ThreadsInsidePictorAreNotSummedTwice) {
  std::string csv = kHeader;
  csv += proc(1, "client", 5, "pictor", 0, 0, 9000, 0, 0) + proc(1, "sampler", 6, "pictor sampler", 0, 0, 0, 0, 0);
  csv += proc(2, "client", 5, "pictor", 0.02, 0, 9000, 0, 0) + proc(2, "sampler", 6, "pictor sampler", 0.01, 0, 0, 0, 0);
  const json b = summarize_resources(parse_resources(csv, "resources.csv"));
  EXPECT_NEAR(b["cpu_sum_mean_pct"].get<double>(), 20.0, 0.1);  // the sampler's 10 % is inside the client's 20 %
  EXPECT_NEAR(b["sampler"]["cpu_per_sample_ms"].get<double>(), 5.0, 1e-6);
}

TEST(ResourceSummary, SamplerCostFromItsThreadClockRow) {
  std::string csv = kHeader;
  csv += proc(1, "sampler", 6, "pictor sampler", 0, 0, 0, 0, 0) + proc(2, "sampler", 6, "pictor sampler", 0.01, 0, 0, 0, 0);
  csv += metric(2, "sampler", "thread_cpu_s", 0.0006, "s");  // written at the last sample's time
  const json b = summarize_resources(parse_resources(csv, "resources.csv"));
  EXPECT_EQ(b["sampler"]["samples"], 2);
  EXPECT_NEAR(b["sampler"]["cpu_per_sample_ms"].get<double>(), 0.3, 1e-9);  // not the 5 ms of whole ticks
}

TEST(ResourceSummary, UserSpaceOnlyCountersKeepTheirNote) {
  std::string counters = kCountersHeader;
  counters += "100,,app,10,app,context-switches,42,100,100,user space only (perf_event_paranoid forbids kernel counting)\n";
  const json b = summarize_resources(parse_resources(kHeader, "resources.csv", counters, "counters.csv"));
  const json& e = b["counters"]["app"]["events"]["context-switches"];
  EXPECT_EQ(e["value"], 42);
  EXPECT_FALSE(e.contains("unavailable"));
  EXPECT_EQ(e["note"].get<std::string>().rfind("user space only", 0), 0u);
}

TEST(ResourceSummary, MachineNetworkAndReasons) {
  std::string csv = kHeader;
  // The one-off rows come with the first sample, as the sampler writes them.
  csv += note(1, "network", "source", "relay");
  csv += note(1, "gpu", "gpu", "unavailable: no libnvidia-ml.so.1, and no /dev/dri");
  csv += note(1, "power", "power", "unavailable: no /sys/class/powercap");
  for (int t = 1; t <= 3; ++t) {
    // cpu: 0.1 s of wall per core and interval; cpu0 busy half of it.
    csv += std::to_string(t * 100'000'000LL) + ",,cpu,,cpu0," + std::to_string(0.03 * t) + "," + std::to_string(0.02 * t) +
           ",,,,,,,,," + std::to_string(0.1 * t) + ",s,\n";
    csv += metric(t, "memory", "used", 1000.0 * t, "kB");
    csv += metric(t, "network", "up", 1000.0 * t, "bytes") + metric(t, "network", "down", 125000.0 * t, "bytes");
  }
  const json b = summarize_resources(parse_resources(csv, "resources.csv"));
  EXPECT_NEAR(b["machine"]["cores"][0]["busy_mean_pct"].get<double>(), 50.0, 0.1);
  EXPECT_EQ(b["machine"]["memory_used_max_kb"], 3000);
  EXPECT_NEAR(b["network"]["mbit_s_down"].get<double>(), 10.0, 1e-3);  // 125 kB per 100 ms
  EXPECT_NEAR(b["network"]["mbit_s_up"].get<double>(), 0.08, 1e-3);
  EXPECT_EQ(b["network"]["source"], "relay");
  EXPECT_EQ(b["gpu"]["unavailable"], "unavailable: no libnvidia-ml.so.1, and no /dev/dri");
  EXPECT_EQ(b["power"]["unavailable"], "unavailable: no /sys/class/powercap");
}

TEST(ResourceSummary, NetworkWithoutRowsSaysWhy) {
  const std::string csv = kHeader + note(1, "network", "session", "unavailable: the local adapter has no network");
  const json b = summarize_resources(parse_resources(csv, "resources.csv"));
  EXPECT_EQ(b["network"]["unavailable"], "unavailable: the local adapter has no network");
  EXPECT_TRUE(b["processes"].empty());
}

TEST(ResourceSummary, CountersKeepTheirReasonsAndNeverZero) {
  std::string counters = kCountersHeader;
  counters += "100,,app,10,app,task-clock,5000,100,100,\n";
  counters += "100,,app,10,app,instructions,,,,\"unavailable: ENOENT (No such file or directory: no PMU)\"\n";
  counters += "200,,app,10,app,task-clock,9000,200,200,\n";
  const json b = summarize_resources(parse_resources(kHeader, "resources.csv", counters, "counters.csv"));
  const json& app = b["counters"]["app"];
  EXPECT_EQ(app["events"]["task-clock"]["value"], 9000);  // the last reading: counters are cumulative
  EXPECT_TRUE(app["events"]["instructions"]["value"].is_null());
  EXPECT_EQ(app["events"]["instructions"]["unavailable"], "unavailable: ENOENT (No such file or directory: no PMU)");
  EXPECT_TRUE(app["ipc"].is_null());
}

TEST(ResourceSummary, TraceTracksMoveTheOriginToTheFirstSample) {
  std::string csv = kHeader + proc(1, "app", 10, "app", 0, 0, 1024, 0, 0) + proc(2, "app", 10, "app", 0.05, 0, 2048, 0, 0);
  json trace{{"traceEvents", json::array({{{"ph", "X"}, {"ts", 0.0}, {"dur", 1.0}}})},
             {"otherData", {{"monotonic_origin_ns", 150'000'000}}}};
  add_resource_tracks(trace, parse_resources(csv, "resources.csv"));
  EXPECT_EQ(trace["otherData"]["monotonic_origin_ns"], 100'000'000);
  EXPECT_DOUBLE_EQ(trace["traceEvents"][0]["ts"].get<double>(), 50'000.0);  // shifted with the origin
  bool cpu = false, rss = false;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("name", "") == "CPU % of one core") {
      cpu = true;
      EXPECT_NEAR(e["args"]["app"].get<double>(), 50.0, 1e-6);
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 100'000.0);
    }
    if (e.value("name", "") == "RSS MB") rss = true;
  }
  EXPECT_TRUE(cpu);
  EXPECT_TRUE(rss);
}

TEST(ResourceSummary, MalformedRowNamesTheLine) {
  const std::string csv = kHeader + "abc,,app,1,x,0,0,,,,,,,,,,,\n";
  EXPECT_THROW(parse_resources(csv, "resources.csv"), std::exception);
}
