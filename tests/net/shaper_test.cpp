#include "net/shaper.h"

#include <gtest/gtest.h>

#include "net/spec.h"

namespace pictor::net {
namespace {

constexpr int64_t kMs = 1'000'000;

TEST(DirectionShaper, IdentityReleasesAtArrival) {
  DirectionShaper shaper(NetSpec{}, 1);
  EXPECT_EQ(shaper.release_ns(5 * kMs, 100), 5 * kMs);
  EXPECT_EQ(shaper.release_ns(7 * kMs, 100), 7 * kMs);
}

TEST(DirectionShaper, DelayAddsOneWayLatency) {
  DirectionShaper shaper(parse_net_spec("delay=20ms"), 1);
  EXPECT_EQ(shaper.release_ns(100 * kMs, 10), 120 * kMs);
}

TEST(DirectionShaper, JitterNeverReordersAndAveragesToDelay) {
  DirectionShaper shaper(parse_net_spec("delay=10ms,jitter=8ms"), 7);
  int64_t previous = 0;
  double extra_sum = 0;
  int spread_chunks = 0;
  for (int i = 0; i < 10000; ++i) {
    const int64_t arrival = int64_t{i} * 50 * kMs;  // far apart: jitter is not masked by order
    const int64_t release = shaper.release_ns(arrival, 100);
    EXPECT_GE(release, previous);
    previous = release;
    const double extra = static_cast<double>(release - arrival) / kMs;
    EXPECT_GE(extra, 2.0 - 1e-6);
    EXPECT_LE(extra, 18.0 + 1e-6);
    extra_sum += extra;
    if (extra < 5 || extra > 15) ++spread_chunks;
  }
  EXPECT_NEAR(extra_sum / 10000, 10.0, 0.2);
  EXPECT_GT(spread_chunks, 2000);  // uniform on [2, 18]: 37.5 % fall outside [5, 15]
}

TEST(DirectionShaper, JitterOnBackToBackChunksKeepsOrder) {
  DirectionShaper shaper(parse_net_spec("delay=5ms,jitter=5ms"), 3);
  int64_t previous = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t release = shaper.release_ns(int64_t{i} * kMs / 10, 1000);
    EXPECT_GE(release, previous);
    previous = release;
  }
}

TEST(DirectionShaper, RateSerialisesChunks) {
  DirectionShaper shaper(parse_net_spec("rate=8mbit"), 1);  // 1 byte per microsecond
  EXPECT_EQ(shaper.release_ns(0, 1000), 1 * kMs);
  EXPECT_EQ(shaper.release_ns(0, 1000), 2 * kMs);   // queued behind the first
  EXPECT_EQ(shaper.release_ns(10 * kMs, 500), 10 * kMs + kMs / 2);  // idle link: no backlog
}

TEST(DirectionShaper, LossDelaysTheGivenShareByTheRetransmissionPenalty) {
  const NetSpec spec = parse_net_spec("delay=150ms,loss=10%");
  EXPECT_DOUBLE_EQ(loss_penalty_s(spec), 0.300);
  EXPECT_DOUBLE_EQ(loss_penalty_s(parse_net_spec("loss=1%")), 0.200);
  DirectionShaper shaper(spec, 11);
  int delayed = 0;
  for (int i = 0; i < 20000; ++i) {
    const int64_t arrival = int64_t{i} * 1000 * kMs;
    const int64_t extra = shaper.release_ns(arrival, 100) - arrival;
    if (extra == 450 * kMs) ++delayed;
    else EXPECT_EQ(extra, 150 * kMs);
  }
  EXPECT_EQ(static_cast<uint64_t>(delayed), shaper.lost_chunks());
  EXPECT_NEAR(delayed / 20000.0, 0.10, 0.01);
}

TEST(DirectionShaper, SeedMakesDrawsReproducible) {
  const NetSpec spec = parse_net_spec("jitter=5ms,loss=20%");
  DirectionShaper a(spec, 42), b(spec, 42), c(spec, 43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const int64_t t = int64_t{i} * 1000 * kMs;
    const int64_t ra = a.release_ns(t, 10);
    EXPECT_EQ(ra, b.release_ns(t, 10));
    differs = differs || ra != c.release_ns(t, 10);
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace pictor::net
