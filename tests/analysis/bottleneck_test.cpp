// The bottleneck verdict on constructed evidence: each rule decides when its evidence is there,
// and where it is missing the verdict says which measurement would decide instead of guessing.
#include "analysis/bottleneck.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/session_data.h"

namespace pictor::analysis {
namespace {

bool any_contains(const nlohmann::json& list, const std::string& text) {
  for (const auto& s : list)
    if (s.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

// A local llvmpipe session with 20 matched inputs, its frames mostly inside the swap call.
BottleneckEvidence local_session() {
  BottleneckEvidence e;
  e.matched = 20;
  e.rtt_mean_ms = 40;
  e.software_renderer = true;
  e.adapter = "local";
  e.frame_ms_mean = 10;
  e.swap_call_ms_mean = 8;
  return e;
}

TEST(Bottleneck, AppLogicWithABusyAppThreadIsAppLogicBound) {
  BottleneckEvidence e = local_session();
  e.rtt_share = {{"AL_ms", 0.71}, {"AS_ms", 0.10}, {"SS_ms", 0.05}, {"wait_app_ms", 0.14}};
  e.resources_sampled = true;
  e.cpu_pct = {{"app", 98.0}, {"Xvfb", 3.0}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "app-logic-bound");
  const std::string text = v["text"];
  EXPECT_NE(text.find("AL 71 % of RTT"), std::string::npos) << text;
  EXPECT_NE(text.find("app at 98 % of a core"), std::string::npos) << text;
  EXPECT_TRUE(any_contains(v["evidence"], "RTT 40.0 ms mean over 20 matched inputs"));
}

TEST(Bottleneck, WithoutResourcesTheVerdictSaysWhatCpuSamplingWouldAdd) {
  BottleneckEvidence e = local_session();
  e.rtt_share = {{"AL_ms", 0.71}, {"AS_ms", 0.10}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "app-logic-bound");
  EXPECT_FALSE(v["resources_sampled"].get<bool>());
  EXPECT_TRUE(any_contains(v["missing"], "per-process CPU is not sampled")) << v.dump();
}

TEST(Bottleneck, TheProxysShareOnARemoteSessionIsProxyBound) {
  BottleneckEvidence e = local_session();
  e.remote = true;
  e.adapter = "xvnc";
  e.rtt_share = {{"CP_ms", 0.40}, {"SP_ms", 0.05}, {"wait_proxy_ms", 0.05}, {"AS_ms", 0.15}, {"SS_ms", 0.10}};
  e.resources_sampled = true;
  e.cpu_pct = {{"app", 20.0}, {"Xvnc", 100.0}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "proxy-bound");
  EXPECT_NE(v["text"].get<std::string>().find("proxy at 100 % of a core"), std::string::npos) << v["text"];
}

TEST(Bottleneck, ClientUpdatesAtTheProxysCapAreCappedWhateverTheStages) {
  BottleneckEvidence e = local_session();
  e.remote = true;
  e.adapter = "xvnc";
  e.rtt_share = {{"AL_ms", 0.7}};
  e.frame_rate_cap = 30;
  e.fps_client_updates = 29.6;
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "capped by the proxy's update rate");
  EXPECT_TRUE(any_contains(v["evidence"], "against the proxy's cap of 30/s"));
  e.fps_client_updates = 12;  // far from the cap: the stages decide
  EXPECT_EQ(judge_bottleneck(e)["verdict"], "app-logic-bound");
}

TEST(Bottleneck, MuchUnattributedTimeIsUndeterminedAndNamesTheMissingTimestamps) {
  BottleneckEvidence e = local_session();
  e.swap_call_ms_mean = kUnknown;  // and no frame split either
  e.rtt_share = {{"AL_ms", 0.45}, {"unattributed_ms", 0.30}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "undetermined");
  EXPECT_TRUE(any_contains(v["missing"], "stage timestamps")) << v.dump();
  EXPECT_TRUE(any_contains(v["missing"], "swap_call_ms")) << v.dump();
}

TEST(Bottleneck, TwoStagesOfLikeSizeAreMixedNotOneOfThem) {
  BottleneckEvidence e = local_session();
  e.rtt_share = {{"AS_ms", 0.38}, {"wait_app_ms", 0.36}, {"SS_ms", 0.2}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "mixed");
  EXPECT_EQ(v["rtt"]["verdict"], "mixed");
}

TEST(Bottleneck, WithoutInputsTheFramesDecideAndTheVerdictAsksForADriver) {
  BottleneckEvidence e = local_session();
  e.matched = 0;
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "raster-bound");
  EXPECT_EQ(v["frames"]["verdict"], "raster-bound");
  EXPECT_TRUE(any_contains(v["missing"], "--driver")) << v.dump();
  // Frames mostly outside the swap call with no CPU figure: undetermined, asking for resources.
  e.swap_call_ms_mean = 1;
  const nlohmann::json w = judge_bottleneck(e);
  EXPECT_EQ(w["verdict"], "undetermined");
  EXPECT_TRUE(any_contains(w["missing"], "per-process CPU")) << w.dump();
  e.resources_sampled = true;
  e.cpu_pct = {{"app", 99.0}};
  EXPECT_EQ(judge_bottleneck(e)["verdict"], "app-logic-bound");
}

TEST(Bottleneck, InputsWaitingForFramesTakeTheFramesVerdict) {
  BottleneckEvidence e = local_session();
  e.rtt_share = {{"wait_app_ms", 0.5}, {"wait_later_frame_ms", 0.2}, {"AS_ms", 0.2}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "raster-bound");
  EXPECT_NE(v["text"].get<std::string>().find("wait 70 % of the RTT"), std::string::npos) << v["text"];
}

TEST(Bottleneck, TheTerminalLineHasTheVerdictAndWhatWouldDecide) {
  BottleneckEvidence e = local_session();
  e.matched = 0;
  const nlohmann::json summary{{"bottleneck", judge_bottleneck(e)}};
  const std::string line = format_bottleneck(summary);
  EXPECT_EQ(line.rfind("Bottleneck: raster-bound", 0), 0u) << line;
  EXPECT_NE(line.find("to decide:"), std::string::npos) << line;
  EXPECT_EQ(format_bottleneck(nlohmann::json::object()), "");
}

// An offloaded llvmpipe session (docs/offload.md): the swap call holds the copy and the put, so it
// no longer says where rasterisation happens; FC and AS do.
BottleneckEvidence offloaded_session() {
  BottleneckEvidence e = local_session();
  e.matched = 0;
  e.frame_copy = "vgl";
  e.fc_ms_mean = 6;
  e.as_ms_mean = 1.5;
  return e;
}

TEST(Bottleneck, AnOffloadedFrameMostlyInTheCopyIsFrameCopyBoundNotRasterBound) {
  BottleneckEvidence e = offloaded_session();
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "frame-copy-bound") << v.dump();
  const std::string text = v["text"];
  EXPECT_EQ(text.find("swap call"), std::string::npos) << "an offloaded swap call is the copy, not raster: " << text;
  EXPECT_NE(text.find("FC 60 %"), std::string::npos) << text;
  EXPECT_NE(text.find("AS 15 %"), std::string::npos) << text;
  EXPECT_NE(text.find("75 % of each frame"), std::string::npos) << text;
  EXPECT_TRUE(any_contains(v["evidence"], "--frame-copy vgl")) << v.dump();
  // On a software device the read waits for the rasteriser: what would split FC is named.
  EXPECT_TRUE(any_contains(v["missing"], "FC holds RD")) << v.dump();
  // With the GPU timer showing most of FC as rendering: raster-bound, said from FC.
  e.gpu_ms_mean = 5;
  const nlohmann::json r = judge_bottleneck(e);
  EXPECT_EQ(r["verdict"], "raster-bound") << r.dump();
  EXPECT_NE(r["text"].get<std::string>().find("the read waits for rasterisation"), std::string::npos) << r["text"];
  // A hardware device: the copy is the copy.
  e.gpu_ms_mean = kUnknown;
  e.software_renderer = false;
  const nlohmann::json h = judge_bottleneck(e);
  EXPECT_EQ(h["verdict"], "frame-copy-bound");
  EXPECT_FALSE(any_contains(h["missing"], "FC holds RD")) << h.dump();
}

TEST(Bottleneck, AnOffloadedFrameMostlyOutsideTheCopyIsJudgedByTheAppsCpu) {
  BottleneckEvidence e = offloaded_session();
  e.fc_ms_mean = 1;
  e.as_ms_mean = 0.5;  // 15 % of the 10 ms frame in the copy and put
  const nlohmann::json w = judge_bottleneck(e);
  EXPECT_EQ(w["verdict"], "undetermined") << w.dump();
  EXPECT_NE(w["text"].get<std::string>().find("85 % of each frame is outside the frame copy"), std::string::npos) << w["text"];
  EXPECT_TRUE(any_contains(w["missing"], "per-process CPU")) << w.dump();
  e.resources_sampled = true;
  e.cpu_pct = {{"app", 99.0}};
  EXPECT_EQ(judge_bottleneck(e)["verdict"], "app-logic-bound");
  // Half and half: mixed.
  e.fc_ms_mean = 4;
  EXPECT_EQ(judge_bottleneck(e)["verdict"], "mixed");
}

TEST(Bottleneck, AnOffloadedSessionWithoutCopyTimesSaysWhatIsMissing) {
  BottleneckEvidence e = offloaded_session();
  e.fc_ms_mean = kUnknown;
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "undetermined");
  EXPECT_TRUE(any_contains(v["missing"], "fc_ms, as_ms")) << v.dump();
}

TEST(Bottleneck, AnOffloadedSessionsRttCountsTheSwapCallAsTheCopyOnce) {
  BottleneckEvidence e = offloaded_session();
  e.matched = 20;
  // AS (the swap call: copy and put) 50 %, FC inside it 40 %: not 90 % of anything.
  e.rtt_share = {{"AL_ms", 0.2}, {"AS_ms", 0.5}, {"FC_ms", 0.4}, {"SS_ms", 0.1}, {"wait_app_ms", 0.2}};
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "frame-copy-bound") << v.dump();
  EXPECT_DOUBLE_EQ(v["rtt"]["shares"]["AS (copy+put)"].get<double>(), 0.5) << v["rtt"].dump();
  EXPECT_FALSE(v["rtt"]["shares"].contains("FC")) << v["rtt"].dump();
  EXPECT_TRUE(any_contains(v["evidence"], "FC (the response frames' copy, inside AS) 40 % of the RTT")) << v.dump();
}

TEST(BottleneckEvidence, ReadsTheRenderModeAndTheCopyTimes) {
  const nlohmann::json summary = nlohmann::json::parse(R"({
    "frame_ms": {"mean": 10}, "fc_ms": {"mean": 6.5}, "as_ms": {"mean": 1.25}})");
  const nlohmann::json run = nlohmann::json::parse(R"({"render": {"mode": "offload", "frame_copy": "async"}})");
  const BottleneckEvidence e = bottleneck_evidence(summary, run, "/nonexistent/pictor-session");
  EXPECT_EQ(e.frame_copy, "async");
  EXPECT_DOUBLE_EQ(e.fc_ms_mean, 6.5);
  EXPECT_DOUBLE_EQ(e.as_ms_mean, 1.25);
  const BottleneckEvidence native =
      bottleneck_evidence(summary, nlohmann::json::parse(R"({"render": {"mode": "native"}})"), "/nonexistent/x");
  EXPECT_EQ(native.frame_copy, "");
}

}  // namespace
}  // namespace pictor::analysis

namespace pictor::analysis {
namespace {

TEST(BottleneckEvidence, TakesTheSamplersPerRoleCpuFromSummaryJson) {
  const nlohmann::json summary = nlohmann::json::parse(R"({
    "fps_avg": 50, "frame_ms": {"mean": 20},
    "rtt_ms": {"mean": 40, "n": 12},
    "stages_ms": {"AL_ms": {"mean": 28, "rtt_share": 0.7, "in_rtt_sum": true},
                  "AS_ms": {"mean": 8, "rtt_share": 0.2, "in_rtt_sum": true}},
    "resources": {"processes": {"app": {"cpu_mean_pct": 97.5}, "xserver+proxy": {"cpu_mean_pct": 12.0},
                                "client": {"cpu_mean_pct": null}}}})");
  const BottleneckEvidence e = bottleneck_evidence(summary, nlohmann::json::object(), "/nonexistent/pictor-session");
  EXPECT_TRUE(e.resources_sampled);
  EXPECT_DOUBLE_EQ(e.cpu_pct.at("app"), 97.5);
  EXPECT_FALSE(e.cpu_pct.contains("client")) << "an unknown CPU figure is left out, not 0";
  EXPECT_EQ(e.matched, 12u);
  const nlohmann::json v = judge_bottleneck(e);
  EXPECT_EQ(v["verdict"], "app-logic-bound");
  EXPECT_NE(v["text"].get<std::string>().find("app at 98 % of a core"), std::string::npos) << v["text"];
  // Without that block and without resources.csv: not sampled, and the verdict says so.
  const BottleneckEvidence none = bottleneck_evidence(nlohmann::json::object(), nlohmann::json::object(), "/nonexistent/x");
  EXPECT_FALSE(none.resources_sampled);
  EXPECT_TRUE(none.resources_problem.empty());
}

}  // namespace
}  // namespace pictor::analysis

namespace pictor::analysis {
namespace {

// resources.csv as the sampler writes it (core/csv_files.h kResources): each role's CPU at a
// sample from the cumulative times of its processes; a process's first sample adds nothing known.
TEST(ResourcesCsv, RoleCpuFromCumulativeProcessTimes) {
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("pictor-resources-" + std::to_string(::getpid()) + ".csv");
  std::ofstream(p) << "t_ns,stack,role,pid,name,user_s,system_s,rss_kb,threads,voluntary_switches,"
                      "involuntary_switches,minor_faults,major_faults,read_bytes,write_bytes,value,unit,note\n"
                      "1000000000,,app,10,pictor-app,1.0,0.5,1000,3,,,,,,,,,\n"
                      "1000000000,,machine,,cpu0,,,,,,,,,,,12.5,%,\n"
                      "1100000000,,app,10,pictor-app,1.06,0.52,1200,3,,,,,,,,,\n"
                      "1100000000,,app-child,11,helper,0.0,0.0,500,1,,,,,,,,,\n"
                      "1200000000,,app,10,pictor-app,1.11,0.52,1100,3,,,,,,,,,\n"
                      "1200000000,,app-child,11,helper,0.01,0.0,500,1,,,,,,,,,\n";
  const ResourceSamples r = read_resources_csv(p.string());
  std::filesystem::remove(p);
  ASSERT_TRUE(r.problem.empty()) << r.problem;
  ASSERT_EQ(r.component.size(), 5u);  // (t, role): app ×3, app-child ×2; machine rows left out
  EXPECT_EQ(r.component[0], "app");
  EXPECT_TRUE(std::isnan(r.cpu_pct[0])) << "no previous sample: unknown, not 0";
  EXPECT_NEAR(r.cpu_pct[1], 80.0, 1e-6);   // 0.08 s of CPU in 0.1 s
  EXPECT_TRUE(std::isnan(r.cpu_pct[2]));   // app-child's first sample
  EXPECT_NEAR(r.cpu_pct[3], 50.0, 1e-6);
  EXPECT_NEAR(r.cpu_pct[4], 10.0, 1e-6);
  EXPECT_DOUBLE_EQ(r.rss_kib[1], 1200.0);
}

}  // namespace
}  // namespace pictor::analysis
