// The netem backend's tc commands, built from a network spec: one band per direction matched by
// port, delays in microseconds, the relay's per-direction meaning kept.
#include <gtest/gtest.h>

#include <algorithm>

#include "net/netem.h"

namespace pictor::net {
namespace {

std::string join(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

TEST(Netem, ArgumentsForEveryPartOfTheSpec) {
  const auto spec = parse_net_spec("delay=20ms,jitter=5ms,loss=0.5%,rate=50mbit");
  EXPECT_EQ(join(netem_arguments(spec)), "delay 20000us 5000us loss 0.5% rate 50000000bit");
  EXPECT_EQ(join(netem_arguments(parse_net_spec("rate=8mbit"))), "rate 8000000bit");
  EXPECT_EQ(join(netem_arguments(parse_net_spec("jitter=3ms"))), "delay 0us 3000us");
  EXPECT_TRUE(netem_arguments(NetSpec{}).empty());
}

TEST(Netem, PlanShapesEachDirectionOfOnePortOnly) {
  const auto plan = netem_plan(parse_net_spec("delay=10ms"), 5901, "lo");
  ASSERT_EQ(plan.setup.size(), 5u);
  // Root: everything unfiltered goes to band 1:1, untouched.
  EXPECT_EQ(join(plan.setup[0]), "tc qdisc add dev lo root handle 1: prio bands 5 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
  EXPECT_EQ(join(plan.setup[1]), "tc qdisc add dev lo parent 1:4 handle 40: netem delay 10000us");
  EXPECT_EQ(join(plan.setup[2]), "tc qdisc add dev lo parent 1:5 handle 50: netem delay 10000us");
  // Client → server by destination port into 1:4, server → client by source port into 1:5.
  EXPECT_NE(join(plan.setup[3]).find("match ip dport 5901 0xffff flowid 1:4"), std::string::npos);
  EXPECT_NE(join(plan.setup[4]).find("match ip sport 5901 0xffff flowid 1:5"), std::string::npos);
  EXPECT_EQ(join(plan.teardown), "tc qdisc del dev lo root");
}

}  // namespace
}  // namespace pictor::net
