// A colocated member's loss against its solo run, pure logic (suite/colocate.h).
#include <gtest/gtest.h>

#include "runner/group_summary.h"
#include "suite/colocate.h"

using nlohmann::json;
using namespace pictor;

namespace {

json session_summary(double fps, double fps_client, double rtt, double app_cpu) {
  return json{{"fps_avg", fps},
              {"fps_client", fps_client},
              {"duration_s", 10.0},
              {"rtt_ms", {{"mean", rtt}, {"p99", 2 * rtt}}},
              {"resources",
               {{"processes", {{"app", {{"cpu_mean_pct", app_cpu}}}, {"xserver+proxy", {{"cpu_mean_pct", 20.0}}}}},
                {"counters",
                 {{"app", {{"events", {{"instructions", {{"value", nullptr}, {"unavailable", "unavailable: ENOENT"}}}}}}}}}}}};
}

}  // namespace

TEST(Colocate, LossAgainstTheSoloRun) {
  const json solo_s = session_summary(60, 50, 20, 80), with_s = session_summary(45, 40, 30, 60);
  const json solo = runner::member_figures({"racing", "ok", solo_s, json()});
  const json with = runner::member_figures({"racing", "ok", with_s, json()});
  const json l = suite::colocate_loss(solo, with, solo_s, with_s);
  EXPECT_DOUBLE_EQ(l["fps_server_loss_pct"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(l["fps_client_loss_pct"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(l["rtt_ms_increase"].get<double>(), 10);
  EXPECT_DOUBLE_EQ(l["rtt_increase_pct"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(l["cpu_pct_change"].get<double>(), -20);
  EXPECT_TRUE(l["instructions_per_s_loss_pct"].is_null());
  EXPECT_FALSE(l.value("instructions_note", "").empty());
  EXPECT_EQ(suite::member_names({"builtin:racing:seed=1", "builtin:racing", "profile:supertuxkart"}),
            (std::vector<std::string>{"racing", "racing-2", "supertuxkart"}));
}

