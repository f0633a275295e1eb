// The tracking-overhead benchmark's RTT without the marker (bench/hook/colour_rtt.*): inputs timed
// by the latency scene's colour flip, with ambiguous and unseen inputs counted apart, never guessed.
#include <gtest/gtest.h>

#include "colour_rtt.h"

namespace {

using pictor::bench::colour_rtt;
using pictor::bench::ColourCapture;
using pictor::bench::latency_parity;

// The latency scene's two backgrounds as 8-bit means (red = v, blue = 1 - v).
ColourCapture even(std::int64_t t) { return {t, 38.25, 76.5, 216.75}; }
ColourCapture odd(std::int64_t t) { return {t, 216.75, 76.5, 38.25}; }
constexpr std::int64_t ms = 1'000'000;

TEST(ColourRtt, ParityOfTheTwoBackgroundsAndOfAnythingElse) {
  EXPECT_EQ(latency_parity(even(0)), 0);
  EXPECT_EQ(latency_parity(odd(0)), 1);
  EXPECT_EQ(latency_parity({0, 128, 128, 128}), -1);   // grey: neither
  EXPECT_EQ(latency_parity({0, 0, 0, 0}), -1);         // black: neither
}

TEST(ColourRtt, EachInputIsAnsweredByTheFirstCaptureWithItsParity) {
  // Input 1 at 100 ms answered (odd) at 103 ms; input 2 at 200 ms answered (even) at 207 ms.
  const auto r = colour_rtt({100 * ms, 200 * ms},
                            {even(50 * ms), even(101 * ms), odd(103 * ms), odd(150 * ms), odd(205 * ms),
                             even(207 * ms), even(260 * ms)});
  ASSERT_EQ(r.rtt_ms.size(), 2u);
  EXPECT_DOUBLE_EQ(r.rtt_ms[0], 3.0);
  EXPECT_DOUBLE_EQ(r.rtt_ms[1], 7.0);
  EXPECT_EQ(r.sent, 2u);
  EXPECT_EQ(r.ambiguous + r.not_seen, 0u);
}

TEST(ColourRtt, ACaptureAtTheSendTimeIsNotTheResponse) {
  const auto r = colour_rtt({100 * ms}, {odd(100 * ms), odd(104 * ms)});
  ASSERT_EQ(r.rtt_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rtt_ms[0], 4.0);
}

TEST(ColourRtt, UnseenResponseMakesTheNextInputAmbiguous) {
  // Input 1's odd frame is never captured before input 2 is sent; the even capture after input 2
  // could then be input 2's answer or still the state before input 1: counted apart.
  const auto r = colour_rtt({100 * ms, 200 * ms, 300 * ms},
                            {even(150 * ms), even(210 * ms), odd(305 * ms)});
  EXPECT_EQ(r.not_seen, 1u);   // input 1
  EXPECT_EQ(r.ambiguous, 1u);  // input 2
  // Input 3: the colour input 2 asks for was on screen before input 3 was sent: timed again.
  ASSERT_EQ(r.rtt_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rtt_ms[0], 5.0);
  EXPECT_EQ(r.sent, 3u);
}

TEST(ColourRtt, CapturesOfOtherContentAreSkipped) {
  const auto r = colour_rtt({100 * ms}, {{101 * ms, 128, 128, 128}, odd(106 * ms)});
  ASSERT_EQ(r.rtt_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rtt_ms[0], 6.0);
}

}  // namespace
