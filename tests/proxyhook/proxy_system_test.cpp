// The preload in the real proxies: Xvnc (TigerVNC) with glxgears on it, and Xvfb + x11vnc, each
// driven by the small libvncclient viewer (Tight, JPEG level 5, five keys). Checks the records
// that proxy_events.csv and proxy.json must hold and that their times are sane.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/clock.h"
#include "core/preload.h"
#include "runner/adapter.h"
#include "runner/process.h"
#include "runner/xvfb.h"

namespace {

namespace fs = std::filesystem;
using pictor::runner::Process;
using pictor::runner::SpawnOptions;

constexpr int kKeys = 5;

struct Row {
  std::string kind;
  std::int64_t start = 0, end = 0;
  std::map<std::string, std::string> f;
  std::int64_t num(const std::string& name) const {
    const auto it = f.find(name);
    return it == f.end() || it->second.empty() ? -1 : std::stoll(it->second);
  }
};

std::vector<Row> read_events(const fs::path& path) {
  std::ifstream in(path);
  std::string line, header;
  std::getline(in, header);  // the first line is the header row
  std::vector<std::string> names;
  for (std::stringstream hs(header); std::getline(hs, line, ',');) names.push_back(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row r;
    std::stringstream ls(line);
    std::string v;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!std::getline(ls, v, ',')) v.clear();
      r.f[names[i]] = v;
    }
    r.kind = r.f["kind"];
    r.start = r.num("start_ns");
    r.end = r.num("end_ns");
    rows.push_back(r);
  }
  return rows;
}

bool wait_for_text(const fs::path& log, const std::string& text, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(log);
    std::stringstream s;
    s << in.rdbuf();
    if (s.str().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::map<std::string, std::string> preload_env(const fs::path& out, const char* proxy, int port) {
  return {{"LD_PRELOAD", pictor::preload_value(PICTOR_PROXYHOOK_PATH)},
          {"PICTOR_OUT", out.string()},
          {"PICTOR_PROXY", proxy},
          {"PICTOR_PROXY_PORT", std::to_string(port)}};
}

Process start_app(const std::string& display, const fs::path& out) {
  SpawnOptions o;
  o.argv = {"glxgears"};
  o.env = {{"DISPLAY", display}, {"LIBGL_ALWAYS_SOFTWARE", "1"}, {"LD_PRELOAD", ""}};
  o.stdout_path = o.stderr_path = (out / "app.log").string();
  return Process::spawn(o);
}

void run_viewer(int port, const fs::path& out) {
  SpawnOptions o;
  o.argv = {PICTOR_VIEWER_PATH, std::to_string(port), "3", std::to_string(kKeys), "5"};
  o.env = {{"LD_PRELOAD", ""}};
  o.stdout_path = o.stderr_path = (out / "viewer.log").string();
  Process v = Process::spawn(o);
  const auto st = v.wait_for(20);
  ASSERT_TRUE(st && st->exited && st->code == 0) << "viewer: " << (st ? st->describe() : "timed out");
}

class ProxyHookSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!pictor::runner::find_executable("glxgears")) GTEST_SKIP() << "glxgears not installed";
    out_ = fs::temp_directory_path() / ("pictor-proxyhook-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out_);
    fs::create_directories(out_);
    port_ = pictor::runner::pick_free_port();
    t0_ = pictor::monotonic_ns();
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(out_);
  }

  // The checks both proxies must pass; returns the rows for proxy-specific ones.
  std::vector<Row> check_common(const char* proxy) {
    const std::int64_t t1 = pictor::monotonic_ns();
    const auto j = nlohmann::json::parse(std::ifstream(out_ / "proxy.json"));
    EXPECT_EQ(j["proxy"], proxy);
    EXPECT_EQ(j["port"], port_);
    EXPECT_TRUE(j["parse_problems"].empty()) << j["parse_problems"].dump();
    EXPECT_EQ(j["records_dropped"], 0);
    const auto found = j["hooks"]["found"].dump();
    for (const char* name : {"accept", "read", "write", "setsockopt", "jpeg_start_compress", "jpeg_finish_compress",
                             "deflate", "deflateInit_"})
      EXPECT_NE(found.find(std::string("\"") + name + "\""), std::string::npos) << name << " not hooked";
    // Tight quality level 5 is JPEG quality 77 in both proxies; 75 would be jpeg_set_defaults' own call.
    EXPECT_EQ(j["jpeg_quality_seen"], nlohmann::json::array({77}));

    const auto rows = read_events(out_ / "proxy_events.csv");
    std::map<std::string, int> n;
    for (const Row& r : rows) {
      ++n[r.kind];
      EXPECT_LE(r.start, r.end) << r.kind;
      EXPECT_GE(r.start, t0_) << r.kind;
      EXPECT_LE(r.end, t1) << r.kind;
      EXPECT_LT(r.end - r.start, 1'000'000'000) << r.kind;
    }
    EXPECT_EQ(n["connect"], 1);
    // A proxy stopped before it noticed the viewer hang up never calls close on that fd.
    EXPECT_LE(n["close"], 1);
    EXPECT_GE(n["jpeg"], 1);
    // Tight's indexed and full-colour rectangles that are not JPEG go through zlib in both proxies.
    EXPECT_GE(n["zlib"], 1);
    EXPECT_EQ(j["counts"]["zlib_calls"], n["zlib"]);
    EXPECT_GE(n["write"], 1);
    // The five keys, each pressed and released, in order, on the client's connection.
    std::vector<const Row*> inputs;
    for (const Row& r : rows)
      if (r.kind == "input") inputs.push_back(&r);
    EXPECT_EQ(inputs.size(), 2u * kKeys);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_EQ(inputs[i]->f.at("input"), "key");
      EXPECT_EQ(inputs[i]->num("detail"), 0x61 + static_cast<int>(i / 2));
      EXPECT_EQ(inputs[i]->num("down"), i % 2 == 0 ? 1 : 0);
      if (i > 0) {
        EXPECT_GE(inputs[i]->start, inputs[i - 1]->start);
      }
    }
    bool sized = false;
    for (const Row& r : rows) {
      if (r.kind == "write") {
        EXPECT_GT(r.num("bytes"), 0);
      }
      if (r.kind == "zlib") {
        const std::string& call = r.f.at("call");
        EXPECT_TRUE(call == "deflate" || call == "deflateInit_" || call == "deflateInit2_" || call == "deflateParams" ||
                    call == "compress" || call == "compress2")
            << call;
        if (call == "deflate") {
          EXPECT_GE(r.num("bytes"), 0);
        }
      }
      if (r.kind == "jpeg") {
        EXPECT_TRUE(r.f.at("call") == "jpeg_start_compress" || r.f.at("call") == "tjCompress2") << r.f.at("call");
        EXPECT_GT(r.num("width"), 0);
        EXPECT_GT(r.num("height"), 0);
        sized |= r.num("bytes") > 0;
      }
    }
    EXPECT_TRUE(sized) << "no JPEG record carries its compressed size";
    return rows;
  }

  fs::path out_;
  int port_ = 0;
  std::int64_t t0_ = 0;
};

TEST_F(ProxyHookSystem, XvncRecordsInputsCompressionsAndWrites) {
  if (!pictor::runner::find_executable("Xvnc")) GTEST_SKIP() << "Xvnc not installed";
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  SpawnOptions o;
  o.argv = {"Xvnc", "-displayfd", std::to_string(fds[1]), "-rfbport", std::to_string(port_), "-SecurityTypes",
            "None", "-localhost", "-geometry", "640x360", "-nolisten", "tcp"};
  o.env = preload_env(out_, "xvnc", port_);
  o.keep_fd = fds[1];
  o.stdout_path = o.stderr_path = (out_ / "xvnc.log").string();
  Process xvnc = Process::spawn(o);
  ::close(fds[1]);
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  while ((number.empty() || number.back() != '\n') && ::poll(&p, 1, 20000) > 0) {
    char c;
    if (::read(fds[0], &c, 1) != 1) break;
    number += c;
  }
  ::close(fds[0]);
  ASSERT_FALSE(number.empty()) << "Xvnc did not start; see " << out_ / "xvnc.log";
  number.pop_back();
  Process app = start_app(":" + number, out_);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  run_viewer(port_, out_);
  app.stop(2);
  xvnc.stop(5);  // SIGTERM: Xvnc exits normally, the preload flushes
  const auto rows = check_common("xvnc");
  for (const Row& r : rows) EXPECT_NE(r.kind, "deliver") << "Xvnc delivers inside its binary";
  // Xvnc corks the client's socket around every update it writes: on, off, on, off, ...
  std::vector<const Row*> corks;
  std::int64_t fd = -1;
  for (const Row& r : rows) {
    if (r.kind == "connect") fd = r.num("fd");
    if (r.kind == "cork") corks.push_back(&r);
  }
  ASSERT_GE(corks.size(), 4u);
  std::sort(corks.begin(), corks.end(), [](const Row* a, const Row* b) { return a->start < b->start; });
  for (std::size_t i = 0; i < corks.size(); ++i) {
    EXPECT_EQ(corks[i]->num("fd"), fd);
    EXPECT_EQ(corks[i]->num("detail"), i % 2 == 0 ? 1 : 0) << "cork " << i;
  }
}

TEST_F(ProxyHookSystem, X11vncAlsoRecordsDeliveries) {
  if (!pictor::runner::find_executable("x11vnc")) GTEST_SKIP() << "x11vnc not installed";
  auto xvfb = pictor::runner::Xvfb::start({640, 360}, (out_ / "xvfb.log").string());
  Process app = start_app(xvfb->display(), out_);
  SpawnOptions o;
  o.argv = {"x11vnc", "-display", xvfb->display(), "-rfbport", std::to_string(port_), "-localhost", "-forever",
            "-nopw", "-quiet"};
  o.env = preload_env(out_, "x11vnc", port_);
  o.stdout_path = o.stderr_path = (out_ / "x11vnc.log").string();
  Process x11vnc = Process::spawn(o);
  ASSERT_TRUE(wait_for_text(out_ / "x11vnc.log", "PORT=" + std::to_string(port_), 30))
      << "x11vnc did not start; see " << out_ / "x11vnc.log";
  run_viewer(port_, out_);
  x11vnc.stop(5);
  app.stop(2);
  const auto rows = check_common("x11vnc");
  std::vector<const Row*> inputs, deliveries;
  for (const Row& r : rows) {
    EXPECT_NE(r.kind, "cork") << "libvncserver writes without corking";
    if (r.kind == "input") inputs.push_back(&r);
    if (r.kind == "deliver") deliveries.push_back(&r);
  }
  ASSERT_EQ(deliveries.size(), inputs.size());
  for (std::size_t i = 0; i < deliveries.size(); ++i) {
    EXPECT_GE(deliveries[i]->start, inputs[i]->start) << "delivered before it was read";
    EXPECT_EQ(deliveries[i]->num("down"), inputs[i]->num("down"));
    EXPECT_GT(deliveries[i]->num("detail"), 7);  // an X keycode (8..255)
  }
}

}  // namespace
