// Remote stage attribution on constructed timelines (docs/proxy-hooks.md, "Attribution"): Xvnc
// (corked updates, no deliveries), x11vnc (XTest deliveries, uncorked), encoders other than JPEG
// and none at all, a proxy writing while it encodes, later frames, a delayed network tied by
// stream offsets, older files without offsets, a session without the proxy's file, the partition
// on random timelines, and the session files end to end.
#include "analysis/proxy_stages.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "analysis/rtt.h"
#include "analysis/rtt_partition.h"
#include "core/error.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

constexpr std::int64_t us = 1'000;
constexpr std::int64_t ms = 1'000'000;

double column_sum(const MatchedInput& m) {
  double sum = 0;
  for (const ColumnInfo& c : partition_columns())
    if (std::isfinite(column_value(m, c.column))) sum += column_value(m, c.column);
  return sum;
}

bool noted(const std::vector<std::string>& notes, const std::string& text) {
  for (const auto& n : notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// Times in microseconds from an arbitrary origin. The proxy's stream starts with a 100-byte
// handshake; each update takes, by default, every byte written since the previous one.
struct Remote {
  RttTimeline t;
  std::int64_t written = 0, received = 0;
  explicit Remote(bool with_proxy = true) {
    t.have_reads = true;
    t.have_frames = true;
    t.have_updates = true;
    t.have_proxy = with_proxy;
    t.proxy.connections.push_back({9, 0});
    write(50, 60, 100);
    received = 100;
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
  Remote& encode(std::int64_t from_us, std::int64_t to_us, const std::string& kind = "zlib") {
    t.proxy.encoder_calls.push_back({from_us * us, to_us * us, 500, kind, kind == "jpeg" ? "jpeg_start_compress" : "deflate",
                                     64, 64, kind == "jpeg" ? 42 : -1});
    return *this;
  }
  Remote& write(std::int64_t from_us, std::int64_t to_us, std::int64_t bytes = 4000) {
    t.proxy.writes.push_back({from_us * us, to_us * us, bytes, 9});
    written += bytes;
    return *this;
  }
  Remote& cork(std::int64_t at_us, bool on) {
    t.proxy.corks.push_back({at_us * us, 9, on});
    return *this;
  }
  // A client update ending at end_us; when it carries a marker the client saw `frame` with `tag`.
  Remote& update(std::int64_t start_us, std::int64_t end_us, std::optional<std::uint64_t> tag = std::nullopt,
                 std::optional<std::uint64_t> frame = std::nullopt, std::int64_t bytes = -1) {
    ClientUpdate u;
    u.update = t.updates.size() + 1;
    u.start_ns = start_us * us;
    u.end_ns = end_us * us;
    u.rects = 1;
    u.marker = tag.has_value();
    u.offset = received;
    u.bytes = bytes >= 0 ? bytes : written - received;
    received += u.bytes;
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

// Input 1 sent at 10 ms, read by the proxy 0.2 ms later and by the app at 11 ms; the response
// frame's swap runs from 16 to 16.5 ms. The first update (frame 0) was written long before.
Remote session_until_swap() {
  Remote r;
  r.frame(0, 0).write(450, 460, 9000).update(500, 900, 0, 0);
  r.sent(10'000).proxy_read(10'200).app_read(1, 11'000).frame(16'000, 1, 0.5);
  return r;
}

// Xvnc: the update is corked from 16.8 to 17.9 ms; a zlib call and two writes inside.
Remote xvnc_session() {
  Remote r = session_until_swap();
  r.cork(16'800, true).encode(17'000, 17'500).write(17'600, 17'700).write(17'750, 17'760, 12).cork(17'900, false);
  r.update(18'300, 19'000, 1, 1);
  return r;
}

TEST(ProxyStages, XvncCorkedUpdateBracketsCpAndTheColumnsSumToTheRtt) {
  const Remote r = xvnc_session();
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  ASSERT_EQ(m.size(), 1u);
  ASSERT_EQ(m[0].status, MatchStatus::matched);
  EXPECT_DOUBLE_EQ(m[0].rtt_ms, 9.0);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.2);
  EXPECT_TRUE(std::isnan(m[0].sp_ms));  // not on Xvnc's path: it injects inside its binary
  EXPECT_DOUBLE_EQ(m[0].wait_app_ms, 0.0);
  EXPECT_DOUBLE_EQ(m[0].ps_ms, 0.8);  // app read - proxy read: includes SP
  EXPECT_DOUBLE_EQ(m[0].al_ms, 5.0);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 0.5);  // the swap call
  EXPECT_DOUBLE_EQ(m[0].wait_later_frame_ms, 0.0);
  EXPECT_NEAR(m[0].wait_proxy_ms, 0.3, 1e-12);  // swap return .. the cork that opens the update
  EXPECT_NEAR(m[0].cp_ms, 1.1, 1e-12);          // cork .. uncork
  EXPECT_NEAR(m[0].ss_ms, 1.1, 1e-12);          // uncork .. update end at the client
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 0.0);
  EXPECT_NEAR(column_sum(m[0]), m[0].rtt_ms, 1e-9);
  EXPECT_TRUE(std::isnan(m[0].fc_ms));
  EXPECT_TRUE(noted(notes, "SP is not on the path"));
  EXPECT_TRUE(noted(notes, "FC unknown"));
  const auto s = rtt_summary(r.t, m, notes);
  EXPECT_FALSE(s["stages_ms"].contains("SP_ms"));
  EXPECT_EQ(s["rtt_partition"]["complete"], 1);
  for (const char* c : {"CS_ms", "wait_proxy_ms", "CP_ms", "SS_ms"}) EXPECT_EQ(s["stages_ms"][c]["n"], 1) << c;
}

TEST(ProxyStages, X11vncUncorkedUpdateRunsFromItsFirstEncoderCallToItsFirstWrite) {
  Remote r = session_until_swap();
  r.deliver(10'500);
  r.encode(17'000, 17'500).write(17'600, 17'700).update(18'300, 19'000, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].sp_ms, 0.305);  // delivery call end - proxy read
  EXPECT_NEAR(m[0].ps_ms, 11.0 - 10.505, 1e-9);
  EXPECT_NEAR(m[0].wait_proxy_ms, 0.5, 1e-12);
  EXPECT_NEAR(m[0].cp_ms, 0.6, 1e-12);  // first zlib call .. first write
  EXPECT_NEAR(m[0].ss_ms, 1.4, 1e-12);  // first write .. update end
  EXPECT_NEAR(column_sum(m[0]), 9.0, 1e-9);
  EXPECT_DOUBLE_EQ(m[0].unattributed_ms, 0.0);
}

TEST(ProxyStages, AProxyWritingWhileItEncodesKeepsTheOverlapInCp) {
  Remote r = session_until_swap();
  r.encode(17'000, 17'200).write(17'250, 17'300, 1000).encode(17'350, 17'600, "jpeg").write(17'650, 17'700, 3000);
  r.update(18'300, 19'000, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_NEAR(m[0].cp_ms, 0.6, 1e-12);  // 17.0 .. the last encoder call's end, 17.6
  EXPECT_NEAR(m[0].ss_ms, 1.4, 1e-12);
  EXPECT_NEAR(column_sum(m[0]), 9.0, 1e-9);
}

TEST(ProxyStages, AnUncorkedUpdateWithoutEncoderCallsStillHasSs) {
  // Solid and small raw rectangles only: no library call shows where the proxy's work began.
  Remote r = session_until_swap();
  r.write(17'600, 17'700).update(18'300, 19'000, 1, 1);
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  EXPECT_TRUE(std::isnan(m[0].wait_proxy_ms));
  EXPECT_TRUE(std::isnan(m[0].cp_ms));
  EXPECT_NEAR(m[0].ss_ms, 1.4, 1e-12);             // from the first write
  EXPECT_NEAR(m[0].unattributed_ms, 1.1, 1e-12);   // swap return .. first write: wait or encoding
  EXPECT_NEAR(column_sum(m[0]), m[0].rtt_ms, 1e-9);
  EXPECT_TRUE(noted(notes, "no encoder call"));
}

TEST(ProxyStages, ACorkedUpdateWithoutEncoderCallsHasCpFromItsCork) {
  Remote r = session_until_swap();
  r.cork(16'800, true).write(17'600, 17'700).cork(17'900, false).update(18'300, 19'000, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_NEAR(m[0].wait_proxy_ms, 0.3, 1e-12);
  EXPECT_NEAR(m[0].cp_ms, 1.1, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 1.1, 1e-12);
}

TEST(ProxyStages, AnUpdateShowingALaterFrameWaitsForThatFrame) {
  Remote r = session_until_swap();
  r.frame(17'000, 1, 0.5);  // frame 2 swaps before the proxy sends anything
  r.encode(17'800, 18'000).write(18'100, 18'200).update(18'300, 19'000, 1, 2);
  const auto m = match_timeline(r.t);
  EXPECT_EQ(m[0].response_frame, 1u);
  EXPECT_EQ(m[0].seen_frame, 2u);
  EXPECT_NEAR(m[0].wait_later_frame_ms, 1.0, 1e-12);  // frame 1's return .. frame 2's return
  EXPECT_NEAR(m[0].wait_proxy_ms, 0.3, 1e-12);
  EXPECT_NEAR(m[0].cp_ms, 0.3, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 0.9, 1e-12);
  EXPECT_NEAR(column_sum(m[0]), 9.0, 1e-9);
}

TEST(ProxyStages, StreamOffsetsTieUpdatesToWritesThroughADelayedNetwork) {
  // 20 ms of network delay: the proxy has written the next update before the client has this one,
  // so "the last write before the update ended" would be the wrong write.
  Remote r = session_until_swap();
  r.encode(17'000, 17'500).write(17'600, 17'700, 4000);
  r.frame(24'000, 1).encode(25'000, 25'300).write(25'400, 25'500, 3000);
  r.update(37'600, 38'000, 1, 1, 4000).update(45'400, 45'500, 1, 2, 3000);
  const auto m = match_timeline(r.t);
  EXPECT_NEAR(m[0].cp_ms, 0.6, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 20.4, 1e-12);  // the first write .. the client has it, 20 ms later
  EXPECT_NEAR(column_sum(m[0]), m[0].rtt_ms, 1e-9);
}

TEST(ProxyStages, EncodingOfAnEarlierUpdateIsNotCounted) {
  // After the swap the proxy first sends an update that misses the marker, then the one that
  // carries it: CP starts at the second one's first encoder call, after the first was written.
  Remote r = session_until_swap();
  r.encode(16'600, 16'700).write(16'800, 16'850, 2000).update(17'000, 17'100);
  r.encode(17'200, 17'400).write(17'500, 17'550, 3000).update(17'600, 17'900, 1, 1);
  const auto m = match_timeline(r.t);
  EXPECT_NEAR(m[0].wait_proxy_ms, 0.7, 1e-12);
  EXPECT_NEAR(m[0].cp_ms, 0.3, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 0.4, 1e-12);
}

TEST(ProxyStages, FilesWithoutStreamOffsetsAreTiedByTime) {
  Remote r = session_until_swap();
  r.encode(17'000, 17'500).write(17'600, 17'700).update(18'300, 19'000, 1, 1);
  for (ClientUpdate& u : r.t.updates) u.offset.reset();
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  EXPECT_NEAR(m[0].cp_ms, 0.6, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 1.4, 1e-12);
  EXPECT_TRUE(noted(notes, "tied to the proxy's writes by time"));
}

TEST(ProxyStages, AnUpdateBeyondTheBytesTheProxyWroteIsUnknown) {
  Remote r = session_until_swap();
  r.encode(17'000, 17'500).write(17'600, 17'700).update(18'300, 19'000, 1, 1, 9'000'000);
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  EXPECT_TRUE(std::isnan(m[0].cp_ms));
  EXPECT_TRUE(std::isnan(m[0].ss_ms));
  EXPECT_NEAR(column_sum(m[0]), m[0].rtt_ms, 1e-9);
  EXPECT_TRUE(noted(notes, "outside the bytes the proxy was seen to write"));
}

TEST(ProxyStages, PipelinedInputsShareTheUpdateThatAnswersBoth) {
  Remote r;
  r.frame(0, 0).write(150, 160, 500).update(100, 200, 0, 0);
  r.sent(1'000).sent(1'500).proxy_read(1'100).proxy_read(1'600);
  r.app_read(1, 1'200).app_read(2, 1'700).frame(3'000, 2);
  r.encode(3'500, 3'600, "jpeg").write(3'700, 3'750).update(3'800, 4'000, 2, 1);
  const auto m = match_timeline(r.t);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.1);
  EXPECT_DOUBLE_EQ(m[1].cs_ms, 0.1);
  EXPECT_NEAR(m[0].cp_ms, 0.2, 1e-12);
  EXPECT_NEAR(m[1].cp_ms, 0.2, 1e-12);
  EXPECT_NEAR(m[0].ss_ms, 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(m[1].rtt_ms, 2.5);
  for (const auto& x : m) EXPECT_NEAR(column_sum(x), x.rtt_ms, 1e-9);
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

TEST(ProxyStages, MissingProxyFileLeavesStagesUnknownAndTheirTimeUnattributed) {
  Remote r = xvnc_session();
  r.t.have_proxy = false;
  r.t.proxy = {};
  std::vector<std::string> notes;
  const auto m = match_timeline(r.t, &notes);
  for (double v : {m[0].cs_ms, m[0].sp_ms, m[0].wait_app_ms, m[0].ps_ms, m[0].wait_proxy_ms, m[0].cp_ms, m[0].ss_ms,
                   m[0].fc_ms})
    EXPECT_TRUE(std::isnan(v));
  EXPECT_DOUBLE_EQ(m[0].al_ms, 5.0);
  EXPECT_DOUBLE_EQ(m[0].as_ms, 0.5);
  EXPECT_NEAR(m[0].unattributed_ms, 1.0 + 2.5, 1e-12);  // sent .. read, swap return .. seen
  EXPECT_NEAR(column_sum(m[0]), m[0].rtt_ms, 1e-9);
  const auto s = rtt_summary(r.t, m, notes);
  for (const char* stage : {"CS_ms", "SP_ms", "wait_proxy_ms", "CP_ms", "FC_ms"})
    EXPECT_FALSE(s["stages_ms"].contains(stage)) << stage;
  EXPECT_EQ(s["stages_ms"]["SS_ms"]["n"], 0);
  EXPECT_TRUE(noted(s["rtt_notes"].get<std::vector<std::string>>(), "proxy_events.csv absent"));
}

TEST(ProxyStages, InputsOfAnotherClientAreSkipped) {
  Remote r = xvnc_session();
  // A read of a button long before Pictor's client sent anything.
  r.t.proxy.inputs.insert(r.t.proxy.inputs.begin(), ProxyInput{1 * ms, false, true, 1, 9});
  const auto m = match_timeline(r.t);
  EXPECT_DOUBLE_EQ(m[0].cs_ms, 0.2);
}

// The partition holds whatever the timestamps: random sessions, some with timestamps out of
// order or missing, through both proxies' rules.
TEST(ProxyStages, TheColumnsSumToTheRttOnRandomTimelines) {
  std::mt19937_64 rng(7);
  auto jitter = [&](int spread_us) { return std::uniform_int_distribution<int>(-spread_us, spread_us)(rng); };
  std::size_t matched = 0;
  for (int round = 0; round < 200; ++round) {
    Remote r;
    const bool corked = round % 2 == 0, x11vnc = round % 3 == 0;
    r.frame(0, 0).write(450, 460, 9000).update(500, 900, 0, 0);
    std::int64_t t = 10'000;
    for (std::uint64_t tag = 1; tag <= 5; ++tag) {
      r.sent(t).proxy_read(t + 200 + jitter(300));
      if (x11vnc) r.deliver(t + 400 + jitter(300));
      r.app_read(tag, t + 1'000 + jitter(900));
      const std::int64_t swap = t + 5'000 + jitter(4'500);
      r.frame(swap, tag, 0.5 + (round % 5));
      if (corked) r.cork(swap + 300 + jitter(400), true);
      if (round % 7 != 0) r.encode(swap + 500 + jitter(400), swap + 900 + jitter(300));
      r.write(swap + 1'000 + jitter(200), swap + 1'100);
      if (corked) r.cork(swap + 1'200 + jitter(300), false);
      r.update(swap + 1'300, swap + 2'000 + jitter(900), tag, tag);
      t += 20'000;
    }
    std::stable_sort(r.t.seen.begin(), r.t.seen.end(), [](auto& a, auto& b) { return a.seen_ns < b.seen_ns; });
    std::stable_sort(r.t.updates.begin(), r.t.updates.end(), [](auto& a, auto& b) { return a.end_ns < b.end_ns; });
    const auto m = match_timeline(r.t);
    for (const MatchedInput& x : m) {
      if (x.status != MatchStatus::matched) continue;
      ++matched;
      EXPECT_NEAR(column_sum(x), x.rtt_ms, 1e-9) << "round " << round << " tag " << x.input.tag;
      for (const ColumnInfo& c : partition_columns()) {
        const double v = column_value(x, c.column);
        if (std::isfinite(v)) {
          EXPECT_GE(v, 0.0) << c.name << " round " << round;
        }
      }
    }
  }
  EXPECT_GT(matched, 500u);
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

void write_session(test::TempDir& dir) {
  dir.write("client_inputs.csv",
            "# pictor client_inputs schema 1\ntag,kind,detail,sent_ns,name\n1,key_press,97,10000000,a\n");
  dir.write("inputs_read.csv", "# pictor inputs_read schema 1\ntag,kind,detail,read_ns\n1,key_press,97,11000000\n");
  dir.write("frames.csv",
            "# pictor frames schema 1\nframe,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n"
            "0,1,1000000,,,0.3000,,,\n1,1,16000000,15.0,14.9,0.5000,,,1\n");
  dir.write("client_frames.csv",
            "# pictor client_frames schema 1\nseen_ns,tag,frame,decode_us,capture_us\n"
            "2000000,0,0,2.0,\n19000000,1,1,2.0,\n");
  dir.write("hook.json", R"j({"schema": 1, "gl_renderer": "llvmpipe (LLVM 15.0.6, 256 bits)"})j");
}

TEST(ProxyFiles, SessionWithProxyEventsAndClientUpdates) {
  test::TempDir dir;
  write_session(dir);
  dir.write("client_updates.csv",
            "# pictor client_updates schema 1\nupdate,start_ns,end_ns,rects,bytes,x,y,w,h,marker,offset\n"
            "1,1500000,2000000,1,9000,0,0,640,360,1,12\n2,18300000,19000000,2,4012,0,0,64,64,1,9012\n");
  dir.write("proxy_events.csv",
            "# pictor proxy_events schema 1\n"
            "kind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality,call\n"
            "connect,500000,500000,9,,,40000,,5901,,,,,\n"
            "write,600000,600100,9,12,,,,,,,,,\n"
            "write,1200000,1300000,9,9000,,,,,,,,,\n"
            "input,10200000,10200000,9,,key,97,1,,,,,,\n"
            "cork,16800000,16800100,9,,,1,,,,,,,\n"
            "zlib,16900000,16950000,,,,,,,,,,,deflateInit_\n"
            "jpeg,17000000,17200000,,800,,,,,,64,64,42,jpeg_start_compress\n"
            "lzo,17250000,17300000,,50,,,,,,,,,lzo1x_1_compress\n"
            "zlib,17300000,17500000,,700,,,,,,,,,deflate\n"
            "write,17600000,17700000,9,4000,,,,,,,,,\n"
            "write,17750000,17760000,9,12,,,,,,,,,\n"
            "cork,17900000,17900100,9,,,0,,,,,,,\n"
            "close,30000000,30000000,9,,,,,,,,,,\n");
  const RttTimeline t = load_rtt_timeline(dir.path());
  ASSERT_EQ(t.proxy.encoder_calls.size(), 4u);
  EXPECT_EQ(t.proxy.encoder_calls[1].call, "jpeg_start_compress");
  EXPECT_EQ(t.proxy.encoder_calls[2].kind, "lzo");
  EXPECT_EQ(t.proxy.corks.size(), 2u);
  EXPECT_EQ(t.updates[1].offset, 9012);
  EXPECT_EQ(t.gl_renderer, "llvmpipe (LLVM 15.0.6, 256 bits)");
  const auto s = match_inputs(dir.path());
  EXPECT_NEAR(s["stages_ms"]["CP_ms"]["mean"].get<double>(), 1.1, 1e-9);
  EXPECT_NEAR(s["stages_ms"]["SS_ms"]["mean"].get<double>(), 1.1, 1e-9);
  EXPECT_NEAR(s["stages_ms"]["CS_ms"]["mean"].get<double>(), 0.2, 1e-9);
  EXPECT_FALSE(s["stages_ms"].contains("SP_ms"));
  EXPECT_EQ(s["stages_ms"]["AS_ms"]["label"], "RD+AS");  // llvmpipe rasterises in the swap call
  EXPECT_DOUBLE_EQ(s["fps_client_updates"].get<double>(), 1 / 0.017);
  std::ifstream in(dir.path() + "/inputs.csv");
  std::string line;
  std::getline(in, line);  // the header row
  std::getline(in, line);
  EXPECT_EQ(line, "1,key_press,10000000,11000000,1,19000000,9.000000,0.800000,5.000000,,0.500000,97,1,1,matched,"
                  "0.200000,,1.100000,1.100000,,0.000000,0.000000,0.300000,0.000000");
}

TEST(ProxyFiles, OlderFilesWithoutCallAndOffsetColumnsStillLoad) {
  test::TempDir dir;
  write_session(dir);
  dir.write("client_updates.csv",
            "# pictor client_updates schema 1\nupdate,start_ns,end_ns,rects,bytes,x,y,w,h,marker\n"
            "1,1500000,2000000,1,9000,0,0,640,360,1\n2,18300000,19000000,2,4000,0,0,64,64,1\n");
  dir.write("proxy_events.csv",
            "# pictor proxy_events schema 1\n"
            "kind,start_ns,end_ns,fd,bytes,input,detail,down,x,y,width,height,quality\n"
            "connect,500000,500000,9,,,40000,,5901,,,,\n"
            "write,1200000,1300000,9,9000,,,,,,,,\n"
            "input,10200000,10200000,9,,key,97,1,,,,,\n"
            "jpeg,17000000,17500000,,800,,,,,,64,64,42\n"
            "write,17600000,17700000,9,4000,,,,,,,,\n");
  const auto s = match_inputs(dir.path());
  EXPECT_NEAR(s["stages_ms"]["CP_ms"]["mean"].get<double>(), 0.6, 1e-9);  // first JPEG .. first write
  EXPECT_NEAR(s["stages_ms"]["SS_ms"]["mean"].get<double>(), 1.4, 1e-9);
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
            "zlib,20,12,,5,,,,,,,,\n");
  EXPECT_THROW(load_rtt_timeline(dir.path()), UsageError);
  dir.write("proxy_events.csv", "# pictor proxy_events schema 2\nkind\n");
  EXPECT_THROW(load_rtt_timeline(dir.path()), UsageError);
}

}  // namespace
}  // namespace pictor::analysis
