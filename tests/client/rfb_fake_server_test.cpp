// The RFB client against a tiny fake server on loopback: a valid handshake, then garbage, a
// closed connection or a stall. The client must report the cause in one line and stop at once.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "client/remote_client.h"
#include "core/error.h"
#include "drivers/driver.h"

namespace pictor::client {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void put16(std::string& b, unsigned v) {
  b += static_cast<char>((v >> 8) & 0xff);
  b += static_cast<char>(v & 0xff);
}
void put32(std::string& b, std::uint32_t v) {
  put16(b, v >> 16);
  put16(b, v & 0xffff);
}

bool read_n(int fd, std::size_t n) {
  std::vector<char> buf(n);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, buf.data() + got, n - got);
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

void send_all(int fd, const std::string& b) {
  std::size_t done = 0;
  while (done < b.size()) {
    const ssize_t n = ::send(fd, b.data() + done, b.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// A one-connection RFB 3.8 server on 127.0.0.1: `script` runs on the accepted socket.
class FakeServer {
 public:
  explicit FakeServer(std::function<void(int)> script) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listen_fd_, 1);
    socklen_t len = sizeof a;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, script] {
      const int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      script(fd);
      ::close(fd);
    });
  }
  ~FakeServer() {
    ::shutdown(listen_fd_, SHUT_RDWR);
    thread_.join();
    ::close(listen_fd_);
  }
  int port() const { return port_; }

 private:
  int listen_fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

constexpr int kWidth = 320, kHeight = 240;

// Version, security None, ServerInit (32-bit true colour), then the client's set-up messages.
bool handshake(int fd) {
  send_all(fd, "RFB 003.008\n");
  if (!read_n(fd, 12)) return false;
  send_all(fd, std::string("\x01\x01", 2));  // one security type: None
  if (!read_n(fd, 1)) return false;
  send_all(fd, std::string(4, '\0'));        // SecurityResult OK
  if (!read_n(fd, 1)) return false;          // ClientInit
  std::string init;
  put16(init, kWidth);
  put16(init, kHeight);
  init += std::string("\x20\x18\x00\x01", 4);  // 32 bpp, depth 24, little endian, true colour
  put16(init, 255);
  put16(init, 255);
  put16(init, 255);
  init += std::string("\x10\x08\x00\x00\x00\x00", 6);  // shifts 16 8 0, padding
  put32(init, 4);
  init += "fake";
  send_all(fd, init);
  return true;
}

// One FramebufferUpdate with a Raw rectangle of grey pixels.
std::string raw_update(int x, int y, int w, int h, std::size_t cut = 0) {
  std::string m = {0, 0};
  put16(m, 1);
  put16(m, static_cast<unsigned>(x));
  put16(m, static_cast<unsigned>(y));
  put16(m, static_cast<unsigned>(w));
  put16(m, static_cast<unsigned>(h));
  put32(m, 0);  // Raw
  m += std::string(static_cast<std::size_t>(w * h * 4) - cut, '\x80');
  return m;
}

struct Dir {
  fs::path path = fs::temp_directory_path() / ("pictor-rfb-fake-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

RemoteClientOptions options_for(int port, const Dir& dir) {
  RemoteClientOptions o;
  o.port = port;
  o.out_dir = dir.path.string();
  o.connect_timeout_s = 3;
  o.first_frame_timeout_s = 0.2;
  o.warmup_s = 0;
  return o;
}

// Runs the client until its thread ends by itself (at most 5 s); returns the stats and how long
// stop() took.
std::pair<ClientStats, double> run_until_failure(RemoteClient& client) {
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (client.running() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto t0 = Clock::now();
  ClientStats stats = client.stop();
  return {stats, std::chrono::duration<double>(Clock::now() - t0).count()};
}

TEST(RfbFakeServer, GarbageAfterAnUpdateIsReportedAndTheClientStops) {
  FakeServer server([](int fd) {
    if (!handshake(fd)) return;
    send_all(fd, raw_update(0, 0, 64, 32));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    send_all(fd, std::string("\x77garbage", 8));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  });
  Dir dir;
  auto client = RemoteClient::start(options_for(server.port(), dir), drivers::make_driver("scripted:rate=5"));
  const auto [stats, stop_s] = run_until_failure(*client);
  EXPECT_FALSE(client->running());
  EXPECT_NE(stats.failure.find("unknown message type 0x77"), std::string::npos) << stats.failure;
  EXPECT_LT(stop_s, 1.0);
  EXPECT_EQ(client->rfb_stats().updates, 1u);
  std::ifstream updates(dir.path / "client_updates.csv");
  std::string line;
  std::getline(updates, line);  // the header row first
  EXPECT_EQ(line, "update,start_ns,end_ns,rects,bytes,x,y,w,h,marker,offset");
  ASSERT_TRUE(std::getline(updates, line));
  // 4 bytes header + 12 bytes rectangle header + 64 x 32 x 4 bytes of pixels, after the 46 bytes
  // of the server's handshake (version 12, security types 2, result 4, ServerInit 28).
  EXPECT_NE(line.find(",1," + std::to_string(4 + 12 + 64 * 32 * 4) + ",0,0,64,32,"), std::string::npos) << line;
  EXPECT_EQ(line.substr(line.rfind(',') + 1), "46") << line;
}

TEST(RfbFakeServer, AClosedConnectionIsReported) {
  FakeServer server([](int fd) {
    if (!handshake(fd)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    // Read what the client sent, so the close is a clean FIN, not a reset.
    char buf[4096];
    while (::recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0) {
    }
  });
  Dir dir;
  auto client = RemoteClient::start(options_for(server.port(), dir), drivers::make_driver("scripted:rate=5"));
  const auto [stats, stop_s] = run_until_failure(*client);
  EXPECT_NE(stats.failure.find("closed the connection"), std::string::npos) << stats.failure;
  EXPECT_LT(stop_s, 1.0);
}

TEST(RfbFakeServer, AServerStalledMidMessageDoesNotHoldUpStop) {
  FakeServer server([](int fd) {
    if (!handshake(fd)) return;
    send_all(fd, raw_update(0, 0, 64, 32, 1000));  // 1000 bytes short
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  });
  Dir dir;
  auto client = RemoteClient::start(options_for(server.port(), dir), drivers::make_driver("scripted:rate=5"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(client->running());
  const auto t0 = Clock::now();
  const ClientStats stats = client->stop();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 1.0);
  EXPECT_TRUE(stats.failure.empty()) << stats.failure;
}

TEST(RfbFakeServer, GarbageInsteadOfAHandshakeFailsStart) {
  FakeServer server([](int fd) {
    send_all(fd, "HELLO, WORLD\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  });
  Dir dir;
  try {
    RemoteClient::start(options_for(server.port(), dir), drivers::make_driver("scripted:rate=5"));
    FAIL() << "start() should throw";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("rfb: handshake with 127.0.0.1:"), std::string::npos) << e.what();
  }
}

TEST(RfbFakeServer, ARefusedConnectionNamesTheCause) {
  int port = 0;
  {
    // A port that was free a moment ago: nothing listens there now.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    ::close(fd);
  }
  Dir dir;
  try {
    RemoteClient::start(options_for(port, dir), drivers::make_driver("scripted:rate=5"));
    FAIL() << "start() should throw";
  } catch (const RunError& e) {
    EXPECT_EQ(std::string(e.what()), "rfb: cannot connect to 127.0.0.1:" + std::to_string(port) +
                                         ": Connection refused");
  }
}

TEST(RfbFakeServer, BadOptionsAreUsageErrors) {
  Dir dir;
  RemoteClientOptions o = options_for(1, dir);
  o.jpeg_quality = 0;
  EXPECT_THROW(RemoteClient::start(o, drivers::make_driver("scripted")), UsageError);
  o.jpeg_quality = 50;
  o.subsampling = "4:1:1";
  EXPECT_THROW(RemoteClient::start(o, drivers::make_driver("scripted")), UsageError);
}

}  // namespace
}  // namespace pictor::client
