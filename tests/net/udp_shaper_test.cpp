// The UDP relay's timing: delay, jitter and rate as the TCP relay's, loss as a drop.
#include <gtest/gtest.h>

#include "net/spec.h"
#include "net/udp_relay.h"

namespace pictor::net {
namespace {

constexpr int64_t kMs = 1'000'000;

TEST(DatagramShaper, DelaysEveryDatagram) {
  DatagramShaper s(parse_net_spec("delay=20ms"), 1);
  EXPECT_EQ(s.release_ns(100 * kMs, 1200), 120 * kMs);
  EXPECT_EQ(s.release_ns(101 * kMs, 1200), 121 * kMs);
  EXPECT_EQ(s.lost(), 0u);
}

TEST(DatagramShaper, LossDropsInsteadOfDelaying) {
  DatagramShaper s(parse_net_spec("delay=10ms,loss=5%"), 3);
  int dropped = 0;
  for (int i = 0; i < 20000; ++i) {
    const int64_t at = int64_t{i} * 5 * kMs;
    const auto r = s.release_ns(at, 1000);
    if (!r) {
      ++dropped;
      continue;
    }
    EXPECT_EQ(*r, at + 10 * kMs);  // a kept datagram never pays a retransmission
  }
  EXPECT_EQ(static_cast<uint64_t>(dropped), s.lost());
  EXPECT_NEAR(dropped / 20000.0, 0.05, 0.006);
}

TEST(DatagramShaper, RateSerialisesBackToBackDatagrams) {
  DatagramShaper s(parse_net_spec("rate=8mbit"), 1);  // 1000 bytes = 1 ms on the link
  EXPECT_EQ(s.release_ns(0, 1000), 1 * kMs);
  EXPECT_EQ(s.release_ns(0, 1000), 2 * kMs);
}

TEST(DatagramShaper, NoLossKeepsEveryDatagram) {
  DatagramShaper s(NetSpec{}, 1);
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(s.release_ns(i, 100).has_value());
  EXPECT_EQ(s.datagrams(), 1000u);
}

}  // namespace
}  // namespace pictor::net
