// The live figures of a running session (runner/live_metrics.h) from rows appended to its files,
// and the server that hands them to a scraper (runner/metrics_server.h) over a real socket.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "runner/live_metrics.h"
#include "runner/metrics_server.h"
#include "runner/adapter.h"

namespace fs = std::filesystem;
using pictor::runner::LiveMetrics;

namespace {

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("pictor-live-" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void append(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::app) << text; }

// One HTTP request over a loopback socket; the whole response.
std::string http(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return "connect failed";
  }
  if (::send(fd, request.data(), request.size(), 0) < 0) return "send failed";
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

}  // namespace

TEST(LiveMetrics, NothingWrittenYetIsUnknownNotZero) {
  const fs::path dir = fresh("empty");
  LiveMetrics m(dir.string(), "builtin:null");
  m.poll();
  EXPECT_EQ(m.frames(), 0u);
  EXPECT_FALSE(m.fps());
  EXPECT_FALSE(m.frame_ms_percentile(50));
  EXPECT_FALSE(m.rtt_last_ms());
  const std::string text = m.prometheus_text();
  EXPECT_NE(text.find("pictor_frames_total{app=\"builtin:null\"} 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("pictor_fps{"), std::string::npos);
  EXPECT_EQ(text.find("pictor_rtt_last_ms{"), std::string::npos);
}

TEST(LiveMetrics, FramesOverTheWindowAndALineStillBeingWritten) {
  const fs::path dir = fresh("frames");
  LiveMetrics m(dir.string(), "app");
  std::string rows = "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n0,1,1000000000,,,,,,0\n";
  // 10 s of 10 ms frames, then one 50 ms frame: the window holds the last 5 s only.
  std::int64_t t = 1'000'000'000;
  for (int i = 1; i <= 1000; ++i) rows += std::to_string(i) + ",1," + std::to_string(t += 10'000'000) + ",10,,,,,0\n";
  rows += "1001,1," + std::to_string(t += 50'000'000) + ",50,,,,,0\n";
  append(dir / "frames.csv", rows + "1002,1,1");  // the last row is not finished
  m.poll();
  EXPECT_EQ(m.frames(), 1002u);
  ASSERT_TRUE(m.fps());
  // The frames of the last 5 s: 496 of 10 ms and the 50 ms one, 497 swaps 5.0 s apart.
  EXPECT_NEAR(*m.fps(), 496.0 / 5.0, 1e-9);
  EXPECT_EQ(*m.frame_ms_percentile(50), 10.0);
  EXPECT_EQ(*m.frame_ms_percentile(100), 50.0);
  append(dir / "frames.csv", "1100000000,50,,,,,0\n");
  m.poll();
  EXPECT_EQ(m.frames(), 1003u);
}

TEST(LiveMetrics, AnInputIsAnsweredByTheFirstFrameSeenWithItsTagOrALaterOne) {
  const fs::path dir = fresh("inputs");
  LiveMetrics m(dir.string(), "app");
  append(dir / "client_inputs.csv", "tag,kind,detail,sent_ns,name\n1,key,65,1000000000,space\n2,key,65,1100000000,space\n"
                                    "3,key,65,1200000000,space\n");
  append(dir / "client_frames.csv", "seen_ns,tag,frame,decode_us,capture_us\n1010000000,0,1,5,5\n1030000000,1,2,5,5\n"
                                    "1040000000,1,3,5,5\n");
  m.poll();
  EXPECT_EQ(m.inputs_sent(), 3u);
  EXPECT_EQ(m.inputs_matched(), 1u);
  EXPECT_DOUBLE_EQ(*m.rtt_last_ms(), 30.0);
  // Input 3's answer also answers input 2 (its frame was merged away).
  append(dir / "client_frames.csv", "1250000000,3,4,5,5\n");
  m.poll();
  EXPECT_EQ(m.inputs_matched(), 3u);
  EXPECT_DOUBLE_EQ(*m.rtt_last_ms(), 50.0);
  EXPECT_DOUBLE_EQ(*m.rtt_median_ms(), 50.0);  // of 30, 150, 50
}

TEST(LiveMetrics, ProcessCpuFromTheSamplersLastTwoRows) {
  const fs::path dir = fresh("cpu");
  LiveMetrics m(dir.string(), "app");
  const std::string header =
      "t_ns,stack,role,pid,name,user_s,system_s,rss_kb,threads,voluntary_switches,involuntary_switches,minor_faults,"
      "major_faults,read_bytes,write_bytes,value,unit,note\n";
  append(dir / "resources.csv", header + "1000000000,\"local, 1\",app,42,pictor-app,1.0,0.5,1000,2,0,0,0,0,0,0,,,\n"
                                         "1000000000,local,machine,,cpu,,,,,,,,,,,55,%,\n");
  m.poll();
  EXPECT_TRUE(m.process_cpu().empty());  // one sample gives no rate
  append(dir / "resources.csv", "1100000000,\"local, 1\",app,42,pictor-app,1.06,0.52,1000,2,0,0,0,0,0,0,,,\n");
  m.poll();
  const auto cpu = m.process_cpu();
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0].role, "app");
  EXPECT_EQ(cpu[0].pid, 42);
  EXPECT_NEAR(cpu[0].cpu_pct, 80.0, 1e-6);
  EXPECT_NE(m.prometheus_text().find("pictor_process_cpu_percent{app=\"app\",role=\"app\",pid=\"42\",process=\"pictor-app\"} 80"),
            std::string::npos)
      << m.prometheus_text();
}

TEST(ListenAddress, LoopbackUnlessNamedAndBadOnesRefused) {
  EXPECT_EQ(pictor::runner::parse_listen_address("9464").host, "127.0.0.1");
  EXPECT_EQ(pictor::runner::parse_listen_address(":9464").port, 9464);
  EXPECT_EQ(pictor::runner::parse_listen_address("localhost:80").host, "127.0.0.1");
  EXPECT_EQ(pictor::runner::parse_listen_address("0.0.0.0:9464").host, "0.0.0.0");
  EXPECT_THROW(pictor::runner::parse_listen_address("127.0.0.1:0"), pictor::UsageError);
  EXPECT_THROW(pictor::runner::parse_listen_address("127.0.0.1:65536"), pictor::UsageError);
  EXPECT_THROW(pictor::runner::parse_listen_address("127.0.0.1:http"), pictor::UsageError);
  EXPECT_THROW(pictor::runner::parse_listen_address("example.com:9464"), pictor::UsageError);
}

TEST(MetricsServer, AnswersScrapesAndRefusesTheRest) {
  const fs::path dir = fresh("server");
  append(dir / "frames.csv", "frame,ctx,swap_ns,frame_ms,outside_swap_ms,swap_call_ms,gpu_ms,fc_ms,tag\n0,1,1000000000,,,,,,0\n"
                             "1,1,1016000000,16,,,,,0\n2,1,1032000000,16,,,,,0\n");
  const int port = pictor::runner::pick_free_port();
  pictor::runner::MetricsServer server(pictor::runner::parse_listen_address("127.0.0.1:" + std::to_string(port)));
  // A second server on the same port is refused at once, as a usage error.
  EXPECT_THROW(pictor::runner::MetricsServer{pictor::runner::parse_listen_address("127.0.0.1:" + std::to_string(port))},
               pictor::UsageError);
  server.serve(dir.string(), "app");
  const std::string r = http(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << r;
  EXPECT_NE(r.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(r.find("pictor_frames_total{app=\"app\"} 3\n"), std::string::npos) << r;
  EXPECT_NE(r.find("pictor_fps{app=\"app\"} 62.5"), std::string::npos) << r;
  EXPECT_EQ(http(port, "GET /other HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(http(port, "POST /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(server.scrapes(), 1u);
}
