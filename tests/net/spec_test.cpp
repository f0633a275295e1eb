#include "net/spec.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace pictor::net {
namespace {

TEST(NetSpec, FullSpec) {
  const NetSpec spec = parse_net_spec("delay=20ms,jitter=5ms,loss=0.5%,rate=50mbit");
  EXPECT_DOUBLE_EQ(spec.delay_s, 0.020);
  EXPECT_DOUBLE_EQ(spec.jitter_s, 0.005);
  EXPECT_DOUBLE_EQ(spec.loss, 0.005);
  EXPECT_DOUBLE_EQ(spec.rate_bits_s, 50e6);
}

TEST(NetSpec, EachPartOptional) {
  EXPECT_TRUE(parse_net_spec("").is_identity());
  EXPECT_TRUE(parse_net_spec("none").is_identity());
  const NetSpec spec = parse_net_spec("rate=8mbit");
  EXPECT_DOUBLE_EQ(spec.rate_bits_s, 8e6);
  EXPECT_EQ(spec.delay_s, 0);
  EXPECT_EQ(spec.loss, 0);
}

TEST(NetSpec, Units) {
  EXPECT_DOUBLE_EQ(parse_net_spec("delay=1s").delay_s, 1.0);
  EXPECT_DOUBLE_EQ(parse_net_spec("delay=0.25s").delay_s, 0.25);
  EXPECT_DOUBLE_EQ(parse_net_spec("jitter=3ms").jitter_s, 0.003);
  EXPECT_DOUBLE_EQ(parse_net_spec("rate=256kbit").rate_bits_s, 256e3);
  EXPECT_DOUBLE_EQ(parse_net_spec("rate=1gbit").rate_bits_s, 1e9);
  EXPECT_DOUBLE_EQ(parse_net_spec("rate=9600bit").rate_bits_s, 9600);
  EXPECT_DOUBLE_EQ(parse_net_spec("loss=2%").loss, 0.02);
  EXPECT_DOUBLE_EQ(parse_net_spec("loss=0.02").loss, 0.02);
}

void expect_usage_error(const std::string& text, const std::string& fragment) {
  try {
    parse_net_spec(text);
    ADD_FAILURE() << "no error for '" << text << "'";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "'" << text << "' gave: " << e.what();
  }
}


TEST(NetSpec, ErrorsNameTheCause) {
  expect_usage_error("delay=20xs", "delay");
  expect_usage_error("delay=-5ms", "delay");
  expect_usage_error("bandwidth=1mbit", "--net has no option 'bandwidth' (options: delay, jitter, loss, rate)");
  expect_usage_error("rate=50mb", "rate=50mb is not a positive rate in bit, kbit, mbit or gbit");
  expect_usage_error("rate=0mbit", "positive");
  expect_usage_error("rate=fast", "rate=fast is not");
  expect_usage_error("loss=150%", "loss=150% is not a share in [0%, 100%]");
  expect_usage_error("loss=1x", "loss=1x is not");
  expect_usage_error("delay", "--net: 'delay' is not NAME=VALUE");
  expect_usage_error("delay=", "--net: delay= is not a duration");
  expect_usage_error("delay=20ms,delay=30ms", "--net: option 'delay' given twice");
}

TEST(NetSpec, RoundTripsThroughText) {
  const NetSpec spec = parse_net_spec("delay=20ms,jitter=5ms,loss=0.5%,rate=50mbit");
  EXPECT_EQ(parse_net_spec(to_string(spec)), spec);
  EXPECT_EQ(to_string(NetSpec{}), "none");
}

}  // namespace
}  // namespace pictor::net
