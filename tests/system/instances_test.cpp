// Several stacks on one machine (docs/resources.md "Many instances", "Colocated benchmarks"):
// `pictor run --instances 2` over Xvnc with the scripted driver gives two complete sessions with
// their own displays, ports and seeds, one sampler with both stacks, the group's figures, and
// nothing left running.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "helpers.h"

using namespace pictor::test;
namespace fs = std::filesystem;

TEST(Instances, TwoXvncStacksRunTogetherEachMeasured) {
  const std::string dir = fresh_dir("instances-2");
  const auto r = run_command({PICTOR_BIN, "run", "--instances", "2", "--adapter", "xvnc", "--driver", "scripted:rate=4",
                              "builtin:racing", "--size", "480x270", "-d", "8s", "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> displays, ports, seeds;
  for (const char* name : {"instance-1", "instance-2"}) {
    const std::string d = dir + "/" + name;
    for (const char* f : {"run.json", "frames.csv", "summary.json", "client_inputs.csv"})
      EXPECT_TRUE(fs::exists(fs::path(d) / f)) << name << "/" << f;
    const auto run = read_json(d + "/run.json");
    EXPECT_EQ(run["status"], "ok") << run.dump(2);
    displays.insert(run["display"].get<std::string>());
    ports.insert(std::to_string(run["proxy"]["rfb_port"].get<int>()));
    // Every listener on loopback: Xvnc is told so.
    const auto argv = run["proxy"]["proxy_argv"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(argv.begin(), argv.end(), "-localhost"), argv.end()) << run["proxy"].dump();
    seeds.insert(run["driver"].get<std::string>());
    for (const auto& p : run["processes"]) EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
    const auto summary = read_json(d + "/summary.json");
    const auto& inputs = summary["inputs"];
    ASSERT_GT(inputs["sent"].get<int>(), 5) << name;
    EXPECT_GE(inputs["matched"].get<double>(), 0.9 * inputs["sent"].get<double>()) << name << inputs.dump();
    EXPECT_GT(summary["fps_client"].get<double>(), 1) << name;
    // Its own rows of the one sampler: its app and its Xvnc.
    EXPECT_GT(summary["resources"]["processes"]["app"]["cpu_mean_pct"].get<double>(), 0) << name;
    EXPECT_TRUE(summary["resources"]["processes"].contains("xserver+proxy")) << name;
  }
  EXPECT_EQ(displays.size(), 2u);
  EXPECT_EQ(ports.size(), 2u);
  EXPECT_EQ(seeds.size(), 2u) << "each instance's driver has its own seed";

  // One resources.csv for both, the stack column naming each.
  std::set<std::string> stacks;
  for (const auto& row : read_csv_rows(dir + "/resources.csv"))
    if (row.size() > 2 && row[2] == "app") stacks.insert(row[1]);
  EXPECT_EQ(stacks, (std::set<std::string>{"instance-1", "instance-2"}));

  const auto group = read_json(dir + "/summary.json");
  ASSERT_EQ(group["members"].size(), 2u) << group.dump(2);
  const auto& a = group["aggregate"];
  EXPECT_NEAR(a["fps_server_sum"].get<double>(),
              group["members"][0]["fps_server"].get<double>() + group["members"][1]["fps_server"].get<double>(), 1e-6);
  EXPECT_GT(a["cpu_pct_per_member"].get<double>(), 0);
  EXPECT_TRUE(a["rtt_ms_mean"].is_number());
  EXPECT_EQ(read_json(dir + "/run.json")["status"], "ok");
  // Each stack's network is its own; together they are the run's.
  double down = 0;
  for (const char* name : {"instance-1", "instance-2"}) {
    const auto n = read_json(dir + "/" + name + "/summary.json")["resources"]["network"];
    ASSERT_TRUE(n.contains("bytes_down")) << name << n.dump();
    EXPECT_GT(n["bytes_down"].get<double>(), 0) << name;
    down += n["bytes_down"].get<double>();
  }
  const double all = group["resources"]["network"]["bytes_down"].get<double>();
  EXPECT_NEAR(down, all, 0.01 * all) << "read at the same instants, a few bytes apart at most";
  EXPECT_NE(r.out.find("instance-2"), std::string::npos) << r.out;

  // `pictor analyze` of the group directory computes the same table again from the files.
  const auto analyzed = run_command({PICTOR_BIN, "analyze", dir});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  EXPECT_EQ(analyzed.out, r.out);
  const auto as_json = run_command({PICTOR_BIN, "analyze", "--json", dir});
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  const auto again = nlohmann::json::parse(as_json.out);
  EXPECT_EQ(again["members"], group["members"]);
  EXPECT_EQ(again["aggregate"], group["aggregate"]);
}

TEST(Instances, BadCountIsAUsageErrorBeforeAnythingStarts) {
  const std::string dir = fresh_dir("instances-bad");
  const auto r = run_command({PICTOR_BIN, "run", "--instances", "0,2", "builtin:spin", "-d", "2s", "-o", dir + "/out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.last_err_line().find("--instances"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out"));
}
