// The UDP relay on real loopback sockets: datagrams reach the target delayed, and emulated loss
// drops them (counted).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

#include "core/clock.h"
#include "net/spec.h"
#include "net/udp_relay.h"

namespace pictor::net {
namespace {

struct Receiver {
  int fd = -1;
  uint16_t port = 0;
  Receiver() {
    fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    // Read only after the burst is sent: room for all of it.
    const int bytes = 4 << 20;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~Receiver() { ::close(fd); }
  // Datagrams received within timeout_ms, with their arrival times.
  std::vector<int64_t> receive(int expected, int timeout_ms) {
    std::vector<int64_t> at;
    char buf[2048];
    while (static_cast<int>(at.size()) < expected) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) break;
      if (::recv(fd, buf, sizeof buf, 0) > 0) at.push_back(monotonic_ns());
    }
    return at;
  }
};

void send_to(uint16_t port, int count) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  const char payload[1000] = {};
  for (int i = 0; i < count; ++i)
    ::sendto(fd, payload, sizeof payload, 0, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::close(fd);
}

TEST(UdpRelay, DelaysDatagramsToTheTarget) {
  Receiver target;
  UdpRelayOptions o;
  o.target_port = target.port;
  UdpRelay relay(parse_net_spec("delay=30ms"), o);
  relay.start();
  const int64_t sent = monotonic_ns();
  send_to(relay.port(), 5);
  const auto at = target.receive(5, 2000);
  ASSERT_EQ(at.size(), 5u);
  EXPECT_GE(at.front() - sent, 30'000'000);
  relay.stop();
  EXPECT_EQ(relay.datagrams_down(), 5u);
  EXPECT_EQ(relay.bytes_down(), 5000u);
  EXPECT_EQ(relay.lost_down(), 0u);
}

TEST(UdpRelay, LossDropsDatagramsAndCountsThem) {
  Receiver target;
  UdpRelayOptions o;
  o.target_port = target.port;
  UdpRelay relay(parse_net_spec("loss=50%"), o);
  relay.start();
  send_to(relay.port(), 200);
  const auto at = target.receive(200, 500);
  relay.stop();
  EXPECT_EQ(relay.datagrams_down(), 200u);
  EXPECT_GT(relay.lost_down(), 50u);
  EXPECT_LT(relay.lost_down(), 150u);
  EXPECT_EQ(at.size() + relay.lost_down(), 200u);
}

}  // namespace
}  // namespace pictor::net
