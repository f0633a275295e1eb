// The resource sampler in real sessions (docs/resources.md): `pictor run --adapter xvnc` records
// the app, Xvnc and Pictor itself with plausible CPU and memory, the network each way, counters
// with values or reasons, a child the app forks, and `pictor analyze` prints the table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "helpers.h"

using namespace pictor::test;
namespace fs = std::filesystem;

namespace {

std::set<std::string> roles_in(const std::string& csv) {
  std::set<std::string> roles;
  for (const auto& row : read_csv_rows(csv))
    if (row.size() > 3) roles.insert(row[2]);
  return roles;
}

// What one core of a real machine can give; the sum over processes may not exceed the cores.
double cores() { return static_cast<double>(::sysconf(_SC_NPROCESSORS_ONLN)); }

}  // namespace

TEST(Resources, XvncSessionRecordsAppServerAndClient) {
  const std::string dir = fresh_dir("resources-xvnc");
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--net", "delay=2ms", "--driver", "scripted:rate=5",
                              "builtin:racing", "--size", "640x360", "-d", "6s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::set<std::string> roles = roles_in(dir + "/resources.csv");
  for (const char* role : {"app", "xserver+proxy", "client", "relay", "sampler", "cpu", "memory", "load"})
    EXPECT_TRUE(roles.count(role)) << role;

  const auto summary = read_json(dir + "/summary.json");
  ASSERT_TRUE(summary.contains("resources")) << summary.dump(2);
  const auto& res = summary["resources"];
  for (const char* role : {"app", "xserver+proxy", "client"}) {
    const auto& p = res["processes"][role];
    ASSERT_TRUE(p.is_object()) << role << res.dump(2);
    EXPECT_GT(p["cpu_mean_pct"].get<double>(), 0) << role;
    EXPECT_GE(p["cpu_p95_pct"].get<double>(), p["cpu_mean_pct"].get<double>() * 0.5) << role;
    EXPECT_GT(p["rss_max_kb"].get<double>(), 1000) << role;  // every one of them holds megabytes
    EXPECT_GT(p["switches_per_s"].get<double>(), 0) << role;
  }
  // The app renders with llvmpipe on the CPU: it is busy.
  EXPECT_GT(res["processes"]["app"]["cpu_mean_pct"].get<double>(), 10);
  EXPECT_LE(res["cpu_sum_mean_pct"].get<double>(), 100 * cores() + 10) << res.dump(2);
  // The relay counts the bytes each way: frames down (JPEG) far more than inputs up.
  ASSERT_TRUE(res["network"].contains("mbit_s_down")) << res["network"].dump();
  EXPECT_NE(res["network"]["source"].get<std::string>().find("relay"), std::string::npos);
  EXPECT_GT(res["network"]["mbit_s_down"].get<double>(), res["network"]["mbit_s_up"].get<double>());
  EXPECT_GT(res["network"]["mbit_s_up"].get<double>(), 0);
  // Counters: software ones counted; hardware ones, on a machine without a PMU, a reason.
  const auto& ev = res["counters"]["app"]["events"];
  EXPECT_GT(ev["task-clock"]["value"].get<double>(), 1e8);  // > 0.1 s of CPU, in ns
  EXPECT_GT(ev["context-switches"]["value"].get<double>(), 0);
  EXPECT_GT(ev["page-faults"]["value"].get<double>(), 0);
  const bool pmu = fs::exists("/sys/bus/event_source/devices/cpu") || fs::exists("/sys/bus/event_source/devices/cpu_core");
  for (const char* hw : {"instructions", "cycles", "llc-references", "llc-misses", "branch-misses"}) {
    if (pmu) {
      EXPECT_GT(ev[hw]["value"].get<double>(), 0) << hw;
    } else {
      EXPECT_TRUE(ev[hw]["value"].is_null()) << hw;
      EXPECT_EQ(ev[hw]["unavailable"].get<std::string>().rfind("unavailable: ENOENT (", 0), 0u) << ev[hw].dump();
    }
  }
  EXPECT_EQ(ev["topdown-l1"]["unavailable"].get<std::string>().rfind("unavailable: ", 0), 0u);
  // No GPU driver here: a reason, not a number.
  if (!fs::exists("/dev/dri") && !fs::exists("/dev/nvidiactl")) {
    EXPECT_NE(res["gpu"]["unavailable"].get<std::string>().find("no libnvidia-ml.so.1"), std::string::npos)
        << res["gpu"].dump();
  }
  EXPECT_TRUE(res["power"].contains("unavailable") || !res["power"].empty());
  // Trace counter tracks on the session's timeline.
  const auto trace = read_json(dir + "/trace.json");
  int cpu_tracks = 0;
  for (const auto& e : trace["traceEvents"])
    if (e.value("ph", "") == "C" && e.value("name", "") == "CPU % of one core") ++cpu_tracks;
  EXPECT_GT(cpu_tracks, 30);  // 6 s at 100 ms
  // analyze prints the table again from the rows.
  const auto a = run_command({PICTOR_BIN, "analyze", dir});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("Resources (per role"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("xserver+proxy"), std::string::npos) << a.out;
}

TEST(Resources, AChildTheAppForksIsAccounted) {
  const std::string dir = fresh_dir("resources-child");
  // The app forks a child with a fixed amount of work (about a second of CPU here), which writes
  // its own CPU time (the shell's `times`: user, then system) when it ends; the app then becomes
  // the renderer (exec keeps its pid). How long the work takes depends on the machine, so the
  // sampler's figure is checked against the child's own account, not against a constant.
  const std::string times_file = fresh_dir("resources-child-times") + "/times";
  const std::string script = "sh -c 'i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done; times >" + times_file +
                             "' & exec " + std::string(PICTOR_APP_BIN_PATH) + " spin:objects=50 --size 320x240";
  const auto r = run_command({PICTOR_BIN, "run", "--adapter", "xvnc", "--driver", "scripted:rate=4", "--size",
                              "320x240", "-d", "8s", "--sample-interval", "50ms", "-o", dir, "--", "sh", "-c", script});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // `times` prints "0m1.230000s 0m0.010000s" for the shell itself, then a line for its children.
  std::ifstream in(times_file);
  ASSERT_TRUE(in) << "the child did not finish within the session: " << times_file;
  std::string user, sys;
  in >> user >> sys;
  const auto seconds = [](const std::string& t) {
    const auto m = t.find('m');
    return std::stod(t.substr(0, m)) * 60 + std::stod(t.substr(m + 1));
  };
  const double own_cpu_s = seconds(user) + seconds(sys);
  ASSERT_GT(own_cpu_s, 0.3) << user << " " << sys;
  const auto res = read_json(dir + "/summary.json")["resources"];
  ASSERT_TRUE(res["processes"].contains("app-child")) << res.dump(2);
  // All its CPU but what it used before its first sample and after its last: two intervals of one
  // core at most (0.1 s), and `times`' clock ticks (10 ms) on either side.
  const double cpu_s = res["processes"]["app-child"]["cpu_s"].get<double>();
  EXPECT_GT(cpu_s, own_cpu_s - 0.12) << "the child's own " << own_cpu_s << " s; " << res["processes"]["app-child"].dump();
  EXPECT_LT(cpu_s, own_cpu_s + 0.03) << "the child's own " << own_cpu_s << " s; " << res["processes"]["app-child"].dump();
  EXPECT_EQ(res["processes"]["app-child"]["names"][0], "sh");
  EXPECT_NEAR(res["sampler"]["interval_median_ms"].get<double>(), 50.0, 5.0);
  // No relay: the client socket's TCP_INFO.
  EXPECT_NE(res["network"].value("source", "").find("tcp_info"), std::string::npos) << res["network"].dump();
  EXPECT_GT(res["network"]["mbit_s_down"].get<double>(), 0);
}

TEST(Resources, LocalSessionSaysWhyThereIsNoNetwork) {
  const std::string dir = fresh_dir("resources-local");
  const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "--size", "320x240", "-d", "1s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto res = read_json(dir + "/summary.json")["resources"];
  EXPECT_EQ(res["network"]["unavailable"].get<std::string>().rfind("unavailable: the local adapter", 0), 0u);
  EXPECT_TRUE(res["processes"].contains("xserver"));
}

TEST(Resources, SampleIntervalOutOfRangeIsAUsageError) {
  for (const char* bad : {"5ms", "11s"}) {
    const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "-d", "1s", "--sample-interval", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.last_err_line().rfind("pictor: --sample-interval must be between 10 ms and 10 s", 0), 0u) << r.err;
  }
  const auto r = run_command({PICTOR_BIN, "run", "builtin:null", "-d", "1s", "--sample-interval", "fast"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.last_err_line().find("'fast'"), std::string::npos) << r.err;
}
