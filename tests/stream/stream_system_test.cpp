// `pictor run --adapter stream` on the embedded default (Xvfb + llvmpipe), with the real
// pictor-stream-server (ximagesrc, x264enc, rtph264pay) and Pictor's GStreamer client.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "helpers.h"

namespace fs = std::filesystem;
using namespace pictor::test;

namespace {

void expect_no_process_left(const nlohmann::json& run) {
  ASSERT_TRUE(run.contains("processes"));
  for (const auto& p : run["processes"]) EXPECT_FALSE(process_alive(p["pid"].get<int>())) << p.dump();
}

nlohmann::json run_stream(const std::string& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> argv{PICTOR_BIN, "--quiet", "run", "-o", dir, "--adapter", "stream"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_json(dir + "/summary.json");
}

const std::vector<std::string> kRacing{"--driver", "scripted:rate=5,keys=Up|Left,seed=3", "builtin:racing",
                                       "--size", "640x360", "-d", "6s"};

}  // namespace

// Issue 19.1: inputs go back over the agent's channel, frames come as H.264 over RTP/UDP; every
// input is matched to the decoded frame that answers it and its stages are cut.
TEST(StreamAdapter, InputsAreMatchedThroughTheVideoStream) {
  const std::string dir = fresh_dir("stream-track");
  const auto s = run_stream(dir, kRacing);
  const int sent = s["inputs"]["sent"].get<int>();
  EXPECT_GT(sent, 15);
  EXPECT_GE(s["inputs"]["matched"].get<int>(), 0.9 * sent) << s["inputs"].dump();
  ASSERT_GT(s["rtt_ms"]["n"].get<int>(), 0);
  EXPECT_GT(s["rtt_ms"]["mean"].get<double>(), 0.0);
  // Every stage of the stream's path measured, none negative.
  for (const char* stage : {"CS_ms", "SP_ms", "PS_ms", "AL_ms", "wait_proxy_ms", "CP_ms", "SS_ms"}) {
    ASSERT_TRUE(s["stages_ms"].contains(stage)) << stage << " " << s["stages_ms"].dump();
    EXPECT_GT(s["stages_ms"][stage]["n"].get<int>(), 0.9 * sent) << stage;
    EXPECT_GE(s["stages_ms"][stage]["min"].get<double>(), 0.0) << stage;
  }
  EXPECT_GT(s["fps_client"].get<double>(), 0.0);
  // The client saw no more frames than the app drew, nor (in the long run) faster: 25 % allows the
  // catch-up after a first frame that arrived late (under load, a stream's first decoded frame can
  // be hundreds of ms later than the frames after it, on a 6 s session).
  const auto& cf = s["client_frames"];
  EXPECT_LE(cf["seen"].get<double>(), cf["app_frames"].get<double>()) << cf.dump();
  ASSERT_TRUE(cf["app_fps_same_span"].is_number()) << cf.dump();
  EXPECT_LE(s["fps_client"].get<double>(), 1.25 * cf["app_fps_same_span"].get<double>()) << cf.dump();
  const auto& st = s["stream"];
  for (const char* f : {"captured_fps", "encoded_fps", "client_fps"}) EXPECT_GT(st[f].get<double>(), 0.0) << f;
  EXPECT_GT(st["per_frame_ms"]["encode"]["n"].get<int>(), 0);
  EXPECT_GT(st["per_frame_ms"]["decode"]["n"].get<int>(), 0);
  EXPECT_GT(st["per_frame_ms"]["network"]["n"].get<int>(), 0);
  EXPECT_GE(st["per_frame_ms"]["network"]["min"].get<double>(), 0.0);
  EXPECT_GT(st["server"]["encoded"].get<int>(), 0);
  EXPECT_GT(st["client"]["frames_decoded"].get<int>(), 0);
  EXPECT_EQ(st["client"]["rtp_packets_lost"].get<int>(), 0);  // loopback, no emulated loss
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_EQ(run["proxy"]["proxy"], "pictor-stream-server");
  for (const char* f : {"stream_frames.csv", "stream_received.csv", "proxy_events.csv", "client_frames.csv", "inputs.csv"})
    EXPECT_TRUE(fs::exists(fs::path(dir) / f)) << f;
  expect_no_process_left(run);
}

// The same over TCP (rtpstreampay framing, Nagle off at both ends).
TEST(StreamAdapter, TcpTransportCarriesTheStream) {
  const std::string dir = fresh_dir("stream-tcp");
  auto args = kRacing;
  args.insert(args.end(), {"--stream", "transport=tcp,bitrate=4mbit"});
  const auto s = run_stream(dir, args);
  const int sent = s["inputs"]["sent"].get<int>();
  EXPECT_GE(s["inputs"]["matched"].get<int>(), 0.9 * sent) << s["inputs"].dump();
  EXPECT_GT(s["stages_ms"]["SS_ms"]["n"].get<int>(), 0);
  EXPECT_EQ(read_json(dir + "/run.json")["proxy"]["transport"], "tcp");
}

// --net delay=20ms on each direction: the input channel (CS) and the video (SS) each carry one
// one-way delay, the RTT both. Runs alone (RUN_SERIAL in tests/schedule.cmake).
TEST(StreamNet, DelayShowsInCsSsAndRtt) {
  const auto base = run_stream(fresh_dir("stream-net-base"), kRacing);
  auto with = kRacing;
  with.insert(with.end(), {"--net", "delay=20ms"});
  const std::string delayed_dir = fresh_dir("stream-net-delay");
  const auto delayed = run_stream(delayed_dir, with);
  // run.json says what carried the delay: the video over the UDP relay, the input over the TCP one.
  const auto run = read_json(delayed_dir + "/run.json");
  EXPECT_EQ(run["net"]["spec"], "delay=20ms") << run["net"].dump();
  EXPECT_EQ(run["net"]["emulation"], "user-space UDP relay (video) + TCP relay (input)") << run["net"].dump();
  ASSERT_GT(base["rtt_ms"]["n"].get<int>(), 10);
  ASSERT_GT(delayed["rtt_ms"]["n"].get<int>(), 10);
  // Medians: on a loaded machine a few inputs wait for a descheduled relay or client thread.
  auto p50 = [](const nlohmann::json& s, const char* stage) { return s["stages_ms"][stage]["p50"].get<double>(); };
  // The input's one-way delay is in CS, the frame's in SS (per frame: encoder out → decoder in).
  EXPECT_NEAR(p50(delayed, "CS_ms"), 20.0, 5.0) << delayed["stages_ms"].dump();
  const double frame_network = delayed["stream"]["per_frame_ms"]["network"]["p50"].get<double>() -
                               base["stream"]["per_frame_ms"]["network"]["p50"].get<double>();
  EXPECT_NEAR(frame_network, 20.0, 5.0) << delayed["stream"]["per_frame_ms"].dump();
  EXPECT_GT(p50(delayed, "SS_ms") - p50(base, "SS_ms"), 15.0) << "base " << base["stages_ms"].dump();
  // ... and the RTT both. Two sessions one after the other on a shared machine differ in the
  // app's own stages too (its frame rate follows the load), so the RTT is held to at least the
  // delay added; the 20 ms each way is checked on the stages that partition it above.
  const double rtt = delayed["rtt_ms"]["p50"].get<double>() - base["rtt_ms"]["p50"].get<double>();
  EXPECT_GT(rtt, 32.0) << "base " << base["rtt_ms"].dump() << "\ndelayed " << delayed["rtt_ms"].dump();
}

// Loss on the video's datagrams: lost packets and the frames they damage or take away are
// counted; nothing crashes. (At 5 % a P-frame stream without retransmission rarely keeps a frame
// whole until the next keyframe, so inputs may go unmatched: that is what is measured.)
TEST(StreamNet, LossIsCountedNotFatal) {
  const std::string dir = fresh_dir("stream-loss");
  auto args = kRacing;
  args.insert(args.end(), {"--net", "loss=5%"});
  const auto s = run_stream(dir, args);
  const auto run = read_json(dir + "/run.json");
  EXPECT_EQ(run["status"], "ok");
  const auto& st = s["stream"];
  EXPECT_GT(st["client"]["rtp_packets_lost"].get<int>(), 0) << st.dump();
  EXPECT_GT(run["client"]["adapter"]["net"]["video_udp"]["lost"].get<int>(), 0);
  EXPECT_GT(st["frames"]["decoded"].get<int>(), 0);
  EXPECT_GT(st["frames"]["decoded_unreadable"].get<int>() + st["frames"]["captured_not_decoded"].get<int>(), 0)
      << st["frames"].dump();
  expect_no_process_left(run);
}

TEST(StreamAdapter, BadStreamOptionsAreUsageErrors) {
  auto r = run_command({PICTOR_BIN, "run", "--adapter", "stream", "--stream", "gop=0", "builtin:null", "-d", "1s",
                        "-o", fresh_dir("stream-bad")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.last_err_line().find("gop"), std::string::npos) << r.err;
  r = run_command({PICTOR_BIN, "run", "--stream", "bitrate=2mbit", "builtin:null", "-d", "1s", "-o",
                   fresh_dir("stream-local")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.last_err_line().find("--adapter stream"), std::string::npos) << r.err;
}
