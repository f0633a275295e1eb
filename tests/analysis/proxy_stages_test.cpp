// Remote stage attribution on constructed timelines (docs/proxy-hooks.md): Xvnc (no deliveries),
// x11vnc (XTest deliveries), pipelined inputs, partial and merged updates, updates without JPEG,
// a session without the proxy's file, and the session files end to end.
#include "analysis/proxy_stages.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "analysis/rtt.h"
#include "core/error.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

constexpr std::int64_t us = 1'000;
constexpr std::int64_t ms = 1'000'000;

// Times in microseconds from an arbitrary origin.
struct Remote {
  RttTimeline t;
  Remote(bool with_proxy = true) {
    t.have_reads = true;
    t.have_frames = true;
    t.have_updates = true;
    t.have_proxy = with_proxy;
    t.proxy.connections.push_back(9);
  }
  Remote& sent(std::int64_t at_us, const std::string& kind = "key_press", std::int64_t detail = 38) {
    t.sent.push_back({t.sent.size() + 1, kind, detail, at_us * us});
    return *this;
  }
  Remote& proxy_read(std::int64_t at_us, bool key = true, bool down = true, std::int64_t detail = 0x61) {
    t.proxy.inputs.push_back({at_us * us, key, down, detail, 9});
    return *this;
  }
  Remote& deliver(std::int64_t at_us, bool key = true, bool down = true, std::int64_t detail = 38) {
    t.proxy.deliveries.push_back({at_us * us, at_us * us + 5 * us, key, down, detail});
    return *this;
  }
  Remote& app_read(std::uint64_t tag, std::int64_t at_us, const std::string& kind = "key_press") {
    t.reads.push_back({tag, kind, 38, at_us * us});
    return *this;
  }
  Remote& frame(std::int64_t swap_us, std::uint64_t tag, double swap_call_ms = 0.4) {
    AppFrame f;
    f.frame = t.frames.size();
    f.swap_ns = swap_us * us;
    f.swap_call_ms = swap_call_ms;
    f.tag = tag;
    t.frames.push_back(f);
    return *this;
  }
  Remote& jpeg(std::int64_t from_us, std::int64_t to_us) {
    t.proxy.compressions.push_back({from_us * us, to_us * us, 1000, 64, 64, 42});
    return *this;
  }
  Remote& write(std::int64_t from_us, std::int64_t to_us, std::int64_t bytes = 5000) {
    t.proxy.writes.push_back({from_us * us, to_us * us, bytes, 9});
    return *this;
  }
  // A client update ending at end_us; when it carries a marker the client saw `frame` with `tag`.
  Remote& update(std::int64_t start_us, std::int64_t end_us, std::optional<std::uint64_t> tag = std::nullopt,
                 std::optional<std::uint64_t> frame = std::nullopt) {
    ClientUpdate u;
    u.update = t.updates.size() + 1;
    u.start_ns = start_us * us;
    u.end_ns = end_us * us;
    u.rects = 1;
    u.marker = tag.has_value();
    t.updates.push_back(u);
    if (tag) {
      SeenFrame c;
      c.seen_ns = end_us * us;
      c.tag = tag;
      c.frame = frame;
      t.seen.push_back(c);
    }
    return *this;
  }
};

// Xvnc: input 1 sent at 10 ms, read by the proxy 0.2 ms later, by the app at 11 ms; the response
// frame swaps at 16 ms; two JPEG rectangles, one write, the update ends at the client at 19 ms.
Remote xvnc_session() {
  Remote r;
  r.frame(0, 0).update(500, 900, 0, 0);
  r.sent(10'000).proxy_read(10'200).app_read(1, 11'000).frame(16'000, 1, 0.5);
  r.jpeg(16'500, 17'500).jpeg(17'600, 18'000).write(18'100, 18'200).update(18'300, 19'000, 1, 1);
  return r;
}

TEST(ProxyStages, XvncGivesCsPsCpSsAndLeavesSpUnknown) {
  const Remote r = xvnc_session();
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  ASSERT_EQ(m.size(), 1u);
  ASSERT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 9.0);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.2);
  EXPECT_TRUE(std::isnan(m[0].sp_ms));
  EXPECT_DOUBLE_EQ(m[0].ps_ms, 0.8);  // app read - proxy read: includes SP
  EXPECT_DOUBLE_EQ(m[0].al_ms, 5.0);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 0.5);  // the swap call, not seen - swap
  EXPECT_DOUBLE_EQ(m[0].cp_ms, 1.5);  // first JPEG start .. last JPEG end
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 1.0);  // last JPEG end .. update end at the client
  EXPECT_TRUE(std::isnan(m[0].fc_ms));
  bool sp_note = false, fc_note = false;
  for (const auto& n : notes) {
    sp_note |= n.find("SP unknown") != std::string::npos;
    fc_note |= n.find("FC unknown") != std::string::npos;
  }
  EXPECT_TRUE(sp_note);
  EXPECT_TRUE(fc_note);
}

TEST(ProxyStages, X11vncDeliveriesSplitSpFromPs) {
  Remote r = xvnc_session();
  r.deliver(10'500);
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].sp_ms, 0.305);  // delivery call end - proxy read
  EXPECT_NEAR(m[0].ps_ms, 11.0 - 10.505, 1e-9);
  EXPECT_NEAR(m[0].cs_ms + m[0].sp_ms + m[0].ps_ms, 1.0, 1e-9);  // = app read - sent
}

TEST(ProxyStages, ExtraModifierDeliveriesAndReleasesAlignByKindAndOrder) {
  Remote r;
  r.frame(0, 0);
  r.sent(1'000).sent(2'000, "key_release");
  r.proxy_read(1'100).proxy_read(2'100, true, false);
  r.deliver(1'150, true, true, 50);  // a Shift press x11vnc adds: also a key press, taken first
  r.deliver(1'160).deliver(2'200, true, false);
  r.app_read(1, 1'300).app_read(2, 2'400, "key_release");
  const auto m = match_timeline(r.t);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_NEAR(m[0].sp_ms, 0.055, 1e-9);  // the modifier's delivery: documented limit
  EXPECT_NEAR(m[1].sp_ms, 0.105, 1e-9);  // the release pairs with the release
  EXPECT_NEAR(m[1].cs_ms, 0.1, 1e-9);
}

TEST(ProxyStages, PipelinedInputsShareTheUpdateThatAnswersBoth) {
  Remote r;
  r.frame(0, 0).update(100, 200, 0, 0);
  r.sent(1'000).sent(1'500).proxy_read(1'100).proxy_read(1'600);
  r.app_read(1, 1'200).app_read(2, 1'700).frame(3'000, 2);
  r.jpeg(3'100, 3'400).write(3'500, 3'550).update(3'600, 4'000, 2, 1);
  const auto m = match_timeline(r.t);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.1);
  EXPECT_DOUBLE_EQ(m[1].cs_ms, 0.1);
  EXPECT_DOUBLE_EQ(m[0].cp_ms, 0.3);
  EXPECT_DOUBLE_EQ(m[1].cp_ms, 0.3);
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 0.6);
  EXPECT_DOUBLE_EQ(m[1].rtt_ms, 2.5);
}

TEST(ProxyStages, CompressionsOfAnEarlierPartialUpdateAreNotCounted) {
  // After the swap the proxy first sends an update that misses the marker (a region of the new
  // frame), then the update that carries it. Only the second one's compressions are CP.
  Remote r;
  r.frame(0, 0).update(100, 200, 0, 0);
  r.sent(1'000).proxy_read(1'100).app_read(1, 1'200).frame(2'000, 1);
  r.jpeg(2'100, 2'300).write(2'400, 2'450).update(2'500, 2'700);  // no marker
  r.jpeg(2'800, 3'000).jpeg(3'050, 3'200).write(3'300, 3'350).update(3'400, 3'600, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].cp_ms, 0.4);  // 2.8 .. 3.2 ms
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 0.4);  // 3.2 .. 3.6 ms
}

TEST(ProxyStages, UpdateFlushedInSeveralWritesKeepsItsLaterCompressions) {
  // TigerVNC flushes its output buffer mid-update: compressions continue after the first write.
  Remote r;
  r.frame(0, 0).update(100, 200, 0, 0);
  r.sent(1'000).proxy_read(1'100).app_read(1, 1'200).frame(2'000, 1);
  r.jpeg(2'100, 2'300).write(2'310, 2'320).jpeg(2'330, 2'600).write(2'610, 2'620).update(2'315, 2'900, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].cp_ms, 0.5);
  EXPECT_DOUBLE_EQ(m[0].ss_ms, 0.3);
}

TEST(ProxyStages, UpdateWithoutCompressionLeavesCpAndSsEmpty) {
  Remote r;
  r.frame(0, 0).update(100, 200, 0, 0);
  r.sent(1'000).proxy_read(1'100).app_read(1, 1'200).frame(2'000, 1);
  r.write(2'400, 2'450).update(2'500, 2'700, 1, 1);  // CopyRect or raw: no JPEG
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  EXPECT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_TRUE(std::isnan(m[0].cp_ms));
  EXPECT_TRUE(std::isnan(m[0].ss_ms));
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.1);
  bool noted = false;
  for (const auto& n : notes) noted |= n.find("without a JPEG compression") != std::string::npos;
  EXPECT_TRUE(noted);
  const auto s = rtt_summary(r.t, m, notes);
  EXPECT_TRUE(s["stages_ms"].contains("CS_ms"));
  EXPECT_FALSE(s["stages_ms"].contains("CP_ms"));  // no value: not a distribution of nothing
}

TEST(ProxyStages, MissingProxyFileLeavesStagesUnknownNotZero) {
  Remote r = xvnc_session();
  r.t.have_proxy = false;
  r.t.proxy = {};
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  for (double v : {m[0].cs_ms, m[0].sp_ms, m[0].cp_ms, m[0].ss_ms, m[0].fc_ms}) EXPECT_TRUE(std::isnan(v));
  EXPECT_DOUBLE_EQ(m[0].ps_ms, 1.0);   // read - sent, which then covers CS + SP + PS (noted)
  EXPECT_DOUBLE_EQ(m[0].as_ms, 0.5);   // still remote: the swap call
  const auto s = rtt_summary(r.t, m, notes);
  for (const char* stage : {"CS_ms", "SP_ms", "CP_ms", "SS_ms", "FC_ms"}) EXPECT_FALSE(s["stages_ms"].contains(stage));
  bool noted = false;
  for (const auto& n : s["rtt_notes"]) noted |= n.get<std::string>().find("proxy_events.csv absent") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ProxyStages, InputsOfAnotherClientAreSkipped) {
  Remote r = xvnc_session();
  // A read of a button long before Pictor's client sent anything.
  r.t.proxy.inputs.insert(r.t.proxy.inputs.begin(), ProxyInput{1 * ms, false, true, 1, 9});
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.2);
}

TEST(ProxySummary, ClientUpdateRateAndMergedFrames) {
  Remote r;
  r.frame(0, 0).frame(10'000, 0).frame(20'000, 0).frame(30'000, 0).frame(40'000, 0);
  r.update(1'000, 2'000, 0, 0).update(21'000, 22'000, 0, 2).update(41'000, 42'000, 0, 4).update(50'000, 52'000);
  const auto s = rtt_summary(r.t, {}, {});
  EXPECT_DOUBLE_EQ(s["fps_client_updates"].get<double>(), 3 / 0.050);
  EXPECT_EQ(s["client_frames"]["app_frames"], 5);
  EXPECT_EQ(s["client_frames"]["seen"], 3);
  EXPECT_EQ(s["client_frames"]["never_seen"], 2);
  EXPECT_EQ(s["client_frames"]["merges"], 2);
  EXPECT_EQ(s["client_frames"]["missed"], 2);
}

TEST(ProxyFiles, SessionWithProxyEventsAndClientUpdates) {
  test::TempDir dir;
  dir.write("client_inputs.csv",
            "# pictor client_inputs schema 1\ntag,kind,detail,sent_ns,name\n1,key_press,97,10000000,a\n");
  dir.write("inputs_read.csv", "# pictor inputs_read schema 1\ntag,kind,detail,read_ns\n1,key_press,97,11000000\n");
  dir.write("frames.csv",
            "# pictor frames schema 1\nframe,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
            "0,1,1000000,,,0.3000,,,\n1,1,16000000,15.0,14.9,0.5000,,,1\n");
  dir.write("client_frames.csv",
            "# pictor client_frames schema 1\nseen_ns,tag,frame,decode_us,capture_us\n"
            "2000000,0,0,2.0,\n19000000,1,1,2.0,\n");
  dir.write("client_updates.csv",
            "# pictor client_updates schema 1\nupdate,start_ns,end_ns,rects,bytes,x,y,w,h,marker\n"
            "1,1500000,2000000,1,9000,0,0,640,360,1\n2,18300000,19000000,2,4000,0,0,64,64,1\n");
  dir.write("proxy_events.csv",
            "# pictor proxy_events schema 1\n"
            "kind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality\n"
            "connect,500000,500000,9,,,40000,,5901,,,,\n"
            "write,1200000,1300000,9,9000,,,,,,,,\n"
            "input,10200000,10200000,9,,key,97,1,,,,,\n"
            "jpeg,16500000,17500000,,800,,,,,,64,64,42\n"
            "jpeg,17600000,18000000,,700,,,,,,64,64,42\n"
            "write,18100000,18200000,9,4000,,,,,,,,\n"
            "close,30000000,30000000,9,,,,,,,,,\n");
  const auto s = match_inputs(dir.path());
  EXPECT_DOUBLE_EQ(s["stages_ms"]["CP_ms"]["mean"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(s["stages_ms"]["SS_ms"]["mean"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(s["stages_ms"]["CS_ms"]["mean"].get<double>(), 0.2);
  EXPECT_FALSE(s["stages_ms"].contains("SP_ms"));
  EXPECT_DOUBLE_EQ(s["fps_client_updates"].get<double>(), 1 / 0.017);
  std::ifstream in(dir.path() + "/inputs.csv");
  std::string line;
  std::getline(in, line);  // the header row
  std::getline(in, line);
  EXPECT_EQ(line, "1,key_press,10000000,11000000,1,19000000,9.000000,0.800000,5.000000,,0.500000,97,1,1,matched,"
                  "0.200000,,1.500000,1.000000,");
}

TEST(ProxyFiles, BadProxyEventsRowNamesFileAndLine) {
  test::TempDir dir;
  dir.write("client_inputs.csv", "# pictor client_inputs schema 1\ntag,kind,detail,sent_ns,name\n");
  dir.write("client_frames.csv", "# pictor client_frames schema 1\nseen_ns,tag,frame,decode_us,capture_us\n");
  const std::string path = dir.write(
      "proxy_events.csv",
      "# pictor proxy_events schema 1\nkind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality\n"
      "write,10,12,9,5,,,,,,,,\nteleport,10,12,9,5,,,,,,,,\n");
  try {
    load_rtt_timeline(dir.path());
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":4: column 'kind': unknown record kind 'teleport'"), std::string::npos)
        << e.what();
  }
  dir.write("proxy_events.csv",
            "# pictor proxy_events schema 1\nkind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality\n"
            "jpeg,20,12,,5,,,,,,,,\n");
  EXPECT_THROW(load_rtt_timeline(dir.path()), UsageError);
  dir.write("proxy_events.csv", "# pictor proxy_events schema 2\nkind\n");
  EXPECT_THROW(load_rtt_timeline(dir.path()), UsageError);
}

}  // namespace
}  // namespace pictor::analysis
