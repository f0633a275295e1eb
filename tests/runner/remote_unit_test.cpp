// Two hosts' pure parts (docs/two-hosts.md): the clock estimate, the token comparison, HOST:PORT,
// the plan message both ways, and the analysis moving the render host's timestamps by the offset.
#include <gtest/gtest.h>

#include "analysis/rtt_load.h"
#include "core/error.h"
#include "runner/remote_clock.h"
#include "runner/remote_protocol.h"

using namespace pictor::runner;

namespace {

// A probe through a path of `up` and `down` ns each way to an agent whose clock is `offset` ahead.
ClockProbe probe_at(std::int64_t t1, std::int64_t up, std::int64_t down, std::int64_t offset, std::int64_t hold = 1000) {
  ClockProbe p;
  p.phase = "before";
  p.t1 = t1;
  p.t2 = t1 + up + offset;
  p.t3 = p.t2 + hold;
  p.t4 = t1 + up + hold + down;
  return p;
}

TEST(ClockEstimate, TakesTheProbeWithTheSmallestRoundTripAndBoundsItsError) {
  const std::int64_t offset = 5'000'000;  // the agent 5 ms ahead
  const std::vector<ClockProbe> probes{probe_at(0, 400'000, 100'000, offset), probe_at(1'000'000, 30'000, 10'000, offset),
                                       probe_at(2'000'000, 200'000, 900'000, offset)};
  const ClockEstimate e = estimate_clock(probes);
  ASSERT_TRUE(e.known);
  EXPECT_EQ(e.probes, 3u);
  EXPECT_EQ(e.rtt_min_ns, 40'000);
  EXPECT_EQ(e.uncertainty_ns, 20'000);
  // The asymmetry (30 µs up, 10 µs down) shows as an error of half their difference, within ±δ/2.
  EXPECT_EQ(e.offset_ns, offset + 10'000);
  EXPECT_LE(std::llabs(e.offset_ns - offset), e.uncertainty_ns);
  EXPECT_EQ(e.rtt_max_ns, 1'100'000);
  EXPECT_EQ(e.rtt_median_ns, 500'000);
  EXPECT_LT(e.offset_min_ns, e.offset_max_ns);
}

TEST(ClockEstimate, NoProbeIsUnknownNotZero) {
  const ClockEstimate e = estimate_clock({});
  EXPECT_FALSE(e.known);
  const nlohmann::json j = clock_json(e);
  EXPECT_TRUE(j["offset_ns"].is_null());
  EXPECT_TRUE(j["uncertainty_ns"].is_null());
}

TEST(Token, EqualOnlyWhenWhollyEqual) {
  EXPECT_TRUE(tokens_equal("abc", "abc"));
  EXPECT_FALSE(tokens_equal("abc", "abd"));
  EXPECT_FALSE(tokens_equal("abc", "abcd"));
  EXPECT_FALSE(tokens_equal("", "a"));
}

TEST(HostPort, ParsedOrRefusedWithTheFlag) {
  EXPECT_EQ(parse_host_port("10.0.0.1:7300", "--server"), (std::pair<std::string, int>{"10.0.0.1", 7300}));
  try {
    parse_host_port("10.0.0.1", "--server");
    FAIL();
  } catch (const pictor::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--server"), std::string::npos);
  }
  EXPECT_THROW(parse_host_port("h:0", "--server"), pictor::UsageError);
  EXPECT_THROW(parse_host_port("h:70000", "--server"), pictor::UsageError);
}

TEST(PlanMessage, CarriesTheServerHalfsOptions) {
  RunOptions o;
  o.builtin = "racing:seed=2";
  o.duration_s = 7;
  o.size = {640, 360};
  o.driver = "scripted:rate=5";
  o.adapter = "x11vnc";
  o.vnc_frame_rate = 120;
  o.net = "delay=20ms";  // the client's: never sent
  const RunOptions back = options_from_plan(plan_message(o));
  EXPECT_EQ(back.builtin, o.builtin);
  EXPECT_EQ(back.duration_s, 7);
  EXPECT_EQ(back.size.width, 640);
  EXPECT_EQ(back.size.height, 360);
  EXPECT_EQ(back.driver, o.driver);
  EXPECT_EQ(back.adapter, "x11vnc");
  EXPECT_EQ(back.vnc_frame_rate, 120);
  EXPECT_TRUE(back.net.empty());
  EXPECT_FALSE(plan_message(o).contains("net"));
  EXPECT_THROW(options_from_plan({{"type", "plan"}, {"duration_s", "long"}}), pictor::UsageError);
}

// The loader moves inputs_read.csv and frames.csv (the render host's) onto the client's clock.
TEST(ClockOffsetInAnalysis, RenderHostTimestampsMoveByTheOffset) {
  const std::string run = R"({"two_hosts": {"clock": {"offset_ns": 1000000, "uncertainty_ns": 20000}}})";
  std::map<std::string, std::string> files{
      {"run.json", run},
      {"client_inputs.csv", "tag,kind,detail,sent_ns,name\n1,key_press,38,5000000,Up\n"},
      {"client_frames.csv", "seen_ns,tag,frame,decode_us,capture_us\n9000000,1,2,10,10\n"},
      {"inputs_read.csv", "tag,kind,detail,read_ns\n1,key_press,38,7000000\n"},
      {"frames.csv", "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n1,1,4000000,16,15,1,,,0\n"
                     "2,1,8000000,16,15,1,,,1\n"}};
  const auto reader = [&](const std::string& name) -> std::optional<std::string> {
    const auto it = files.find(name);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const pictor::analysis::RttTimeline t = pictor::analysis::load_rtt_timeline(reader, "mem", true);
  ASSERT_TRUE(t.clock_offset_ns);
  EXPECT_EQ(*t.clock_offset_ns, 1'000'000);
  EXPECT_EQ(*t.clock_uncertainty_ns, 20'000);
  ASSERT_EQ(t.reads.size(), 1u);
  EXPECT_EQ(t.reads[0].read_ns, 6'000'000);
  ASSERT_EQ(t.frames.size(), 2u);
  EXPECT_EQ(t.frames[1].swap_ns, 7'000'000);
  EXPECT_EQ(t.sent[0].sent_ns, 5'000'000);  // the client's own clock: unchanged
  files["run.json"] = "{}";
  const pictor::analysis::RttTimeline one = pictor::analysis::load_rtt_timeline(reader, "mem", true);
  EXPECT_FALSE(one.clock_offset_ns);
  EXPECT_EQ(one.reads[0].read_ns, 7'000'000);
}

}  // namespace
