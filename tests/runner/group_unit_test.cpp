// The figures of several stacks, pure logic (runner/group_summary.h, runner/session_group.h,
// resources::stack_series): what a group and a sweep report.
#include <gtest/gtest.h>

#include "core/error.h"
#include "resources/resource_summary.h"
#include "runner/group_summary.h"
#include "runner/session_group.h"
#include "runner/session_plan.h"

using nlohmann::json;
using namespace pictor;

namespace {

json session_summary(double fps, double fps_client, double rtt, double app_cpu, double x_cpu) {
  return json{{"fps_avg", fps},
              {"fps_client", fps_client},
              {"duration_s", 10.0},
              {"frame_ms", {{"p50", 1000 / fps}, {"p99", 2000 / fps}}},
              {"rtt_ms", {{"mean", rtt}, {"p99", 2 * rtt}}},
              {"stages_ms", {{"AL_ms", {{"mean", rtt / 4}}}}},
              {"inputs", {{"sent", 40}, {"matched", 38}}},
              {"resources",
               {{"processes",
                 {{"app", {{"cpu_mean_pct", app_cpu}, {"rss_max_kb", 102400.0}}},
                  {"xserver+proxy", {{"cpu_mean_pct", x_cpu}, {"rss_max_kb", 51200.0}}},
                  {"client", {{"cpu_mean_pct", 30.0}}},
                  {"relay", {{"cpu_mean_pct", 5.0}}}}}}}};
}

}  // namespace

TEST(GroupSummary, MembersAndAggregateFromTheirSummaries) {
  const json run{{"net", {{"bytes_down", 10e6}}}, {"duration_measured_s", 10.0}};
  const json g = runner::group_summary({{"instance-1", "ok", session_summary(60, 50, 20, 80, 20), run},
                                        {"instance-2", "ok", session_summary(40, 30, 30, 70, 10), json()}},
                                       json{{"processes", {{"client", {{"cpu_mean_pct", 12.0}}}}}});
  const json& m = g["members"];
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m[0]["cpu_pct"].get<double>(), 100);  // app + Xvnc; Pictor's own process is not the stack's
  EXPECT_DOUBLE_EQ(m[0]["rss_mb"].get<double>(), 150);
  EXPECT_DOUBLE_EQ(m[0]["inputs_matched_pct"].get<double>(), 95);
  EXPECT_DOUBLE_EQ(m[0]["net_mbit_s_down"].get<double>(), 8);
  EXPECT_TRUE(m[1]["net_mbit_s_down"].is_null()) << "no relay bytes: unknown, not 0";
  // A member whose sampler rows have its own network: that figure, before the relay's.
  json own = session_summary(40, 30, 30, 70, 10);
  own["resources"]["network"] = {{"mbit_s_down", 3.5}};
  const json g2 = runner::group_summary({{"instance-1", "ok", own, run}}, json());
  EXPECT_DOUBLE_EQ(g2["members"][0]["net_mbit_s_down"].get<double>(), 3.5);
  const json& a = g["aggregate"];
  EXPECT_DOUBLE_EQ(a["fps_server_sum"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(a["fps_server_mean"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(a["fps_client_mean"].get<double>(), 40);
  EXPECT_DOUBLE_EQ(a["rtt_ms_mean"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(a["rtt_ms_p99_max"].get<double>(), 60);
  EXPECT_DOUBLE_EQ(a["cpu_pct_sum"].get<double>(), 180);
  EXPECT_DOUBLE_EQ(a["cpu_pct_per_member"].get<double>(), 90);
  EXPECT_DOUBLE_EQ(a["client_cpu_pct"].get<double>(), 12);
  EXPECT_DOUBLE_EQ(a["stages_ms"]["AL_ms"].get<double>(), 6.25);
  EXPECT_TRUE(a["machine_cpu_busy_pct"].is_null());
  EXPECT_NE(runner::format_group_table(g).find("instance-2"), std::string::npos);
}

TEST(GroupSummary, AMemberWithoutFramesIsUnknownNotZero) {
  const json g = runner::group_summary({{"instance-1", "ok", session_summary(60, 50, 20, 80, 20), json()},
                                        {"instance-2", "failed", json(), json()}},
                                       json());
  EXPECT_TRUE(g["members"][1]["fps_server"].is_null());
  EXPECT_DOUBLE_EQ(g["aggregate"]["fps_server_mean"].get<double>(), 60);  // over the members that have one
  EXPECT_NE(runner::format_group_table(g).find("(failed)"), std::string::npos);
}

TEST(Sweep, RowsPerCountAndCsvWithHeaderAndEmptyUnknowns) {
  const json g2 = runner::group_summary({{"instance-1", "ok", session_summary(60, 50, 20, 80, 20), json()},
                                         {"instance-2", "ok", session_summary(40, 30, 30, 70, 10), json()}},
                                        json());
  const json row = runner::sweep_row(2, g2);
  EXPECT_DOUBLE_EQ(row["fps_server_per_instance"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(row["rss_mb_per_instance"].get<double>(), 150);
  const std::string csv = runner::sweep_csv({row});
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "instances,fps_server_per_instance,fps_client_per_instance,rtt_ms_mean,rtt_ms_p99_max,frame_ms_p99_max,"
            "cpu_pct_per_instance,rss_mb_per_instance,client_cpu_pct,machine_cpu_busy_pct,stage_AL_ms");
  EXPECT_EQ(csv.substr(csv.find('\n') + 1), "2,50.000,40.000,25.000,60.000,50.000,90.000,150.000,,,6.250\n");
  // Each RTT stage's mean over the instances (the paper's figure 11), in the table too.
  EXPECT_DOUBLE_EQ(row["stages_ms"]["AL_ms"].get<double>(), 6.25);
  const std::string table = runner::format_sweep_table({row});
  EXPECT_NE(table.find("RTT stages, mean ms per instance"), std::string::npos) << table;
  EXPECT_NE(table.find("6.2"), std::string::npos) << table;
}

TEST(Instances, CountsParsedAndChecked) {
  EXPECT_EQ(runner::parse_instance_counts("3"), std::vector<int>{3});
  EXPECT_EQ(runner::parse_instance_counts("1,2,3,4"), (std::vector<int>{1, 2, 3, 4}));
  for (const char* bad : {"", "0", "1,,2", "x", "2,33", "-1", "1.5"})
    EXPECT_THROW(runner::parse_instance_counts(bad), UsageError) << bad;
}

TEST(Instances, EachInstanceDriverGetsItsOwnSeed) {
  const std::string first = runner::instance_driver_spec("scripted:rate=4,seed=7", 0);
  EXPECT_EQ(first, "scripted:rate=4,seed=7");  // the first instance runs as given
  const std::string third = runner::instance_driver_spec("scripted:rate=4,seed=7", 2);
  EXPECT_NE(third.find("seed=9"), std::string::npos) << third;
  EXPECT_NE(third.find("rate=4"), std::string::npos) << third;
  EXPECT_EQ(runner::instance_driver_spec("", 3), "");
  // The seed comes from the declarations, given or defaulted (scripted's is 1), not from the text.
  EXPECT_EQ(runner::instance_driver_spec("scripted:rate=4", 2), "scripted:rate=4,seed=3");
  EXPECT_EQ(runner::instance_driver_spec("scripted:rate=4:seed=7", 1), "scripted:rate=4,seed=8");
  EXPECT_NE(drivers::make_driver(third)->spec().find("seed=9"), std::string::npos);
  EXPECT_THROW(runner::instance_driver_spec("nosuch:seed=1", 1), UsageError);
  const auto members = runner::instance_members(runner::RunOptions{}, 2);
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[1].name, "instance-2");
  EXPECT_THROW(runner::instance_members(runner::RunOptions{}, 0), UsageError);
}

// A driver without a seed option runs the same spec in every instance; one with a leading value
// keeps it first.
TEST(Instances, ASeedlessDriverKeepsItsSpecALeadingValueStaysFirst) {
  auto none = [](const options::Values&, std::string_view) -> std::unique_ptr<drivers::Driver> { return nullptr; };
  drivers::register_driver({"seedless", "test", options::OptionSet("driver 'seedless'", {options::number("rate", "r")}), none});
  drivers::register_driver({"leading", "test",
                            options::OptionSet("driver 'leading'", {options::count("seed", "s").or_default("5")}, ":,",
                                               "REC", "a recording"),
                            none});
  EXPECT_EQ(runner::instance_driver_spec("seedless:rate=2", 3), "seedless:rate=2");
  EXPECT_EQ(runner::instance_driver_spec("leading:/rec/a:b", 1), "leading:/rec/a:b,seed=6");
  EXPECT_EQ(runner::instance_driver_spec("leading:/rec/a,seed=10", 2), "leading:/rec/a,seed=12");
}

TEST(StackSeries, OneStacksRowsUnderTheirBareRoles) {
  const std::string csv =
      "t_ns,stack,role,pid,name,user_s,system_s,rss_kb,threads,voluntary_switches,involuntary_switches,minor_faults,major_faults,"
      "read_bytes,write_bytes,value,unit,note\n"
      "1000000000,instance-1,app,10,a,1,0,100,1,1,1,0,0,0,0,,,\n"
      "1000000000,instance-2,app,20,b,2,0,200,1,1,1,0,0,0,0,,,\n"
      "1000000000,,client,30,pictor,1,0,300,1,1,1,0,0,0,0,,,\n"
      "2000000000,instance-1,app,10,a,1.5,0,100,1,1,1,0,0,0,0,,,\n"
      "2000000000,instance-2,app,20,b,2.2,0,200,1,1,1,0,0,0,0,,,\n"
      "2000000000,,client,30,pictor,1.1,0,300,1,1,1,0,0,0,0,,,\n";
  const resources::ResourceSeries all = resources::parse_resources(csv, "resources.csv");
  const resources::ResourceSeries one = resources::stack_series(all, "instance-2", "unavailable: shared");
  ASSERT_EQ(one.processes.size(), 1u);
  EXPECT_EQ(one.processes[0].key, "app");
  EXPECT_EQ(one.processes[0].pid, 20);
  const json block = resources::summarize_resources(one);
  EXPECT_NEAR(block["processes"]["app"]["cpu_mean_pct"].get<double>(), 20, 1e-6);
  EXPECT_EQ(block["network"]["unavailable"], "unavailable: shared");
}
