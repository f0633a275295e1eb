#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "core/hook_record.h"
#include "core/record_ring.h"

using pictor::HookRecord;
using pictor::RecordRing;

TEST(RecordRing, FifoSingleThread) {
  RecordRing<HookRecord> ring(8);
  EXPECT_EQ(ring.capacity(), 8u);
  for (std::uint64_t i = 0; i < 5; ++i) {
    HookRecord r;
    r.frame = i;
    ASSERT_TRUE(ring.push(r));
  }
  HookRecord out;
  for (std::uint64_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(ring.pop(out));
    EXPECT_EQ(out.frame, i);
  }
  EXPECT_FALSE(ring.pop(out));
}

TEST(RecordRing, FullRingDropsAndCounts) {
  RecordRing<HookRecord> ring(4);
  HookRecord r;
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(ring.push(r));
  EXPECT_FALSE(ring.push(r));
  EXPECT_FALSE(ring.push(r));
  EXPECT_EQ(ring.dropped(), 2u);
  HookRecord out;
  EXPECT_TRUE(ring.pop(out));
  EXPECT_TRUE(ring.push(r));  // space again after a pop
}

TEST(RecordRing, CapacityRoundsUpToPowerOfTwo) {
  RecordRing<HookRecord> ring(5);
  EXPECT_EQ(ring.capacity(), 8u);
}

TEST(RecordRing, ManyProducersOneConsumerLoseNothingWhenDrained) {
  RecordRing<HookRecord> ring(1024);
  constexpr int kProducers = 4, kPerProducer = 20000;
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        HookRecord r;
        r.ctx = static_cast<std::uint16_t>(p);
        r.frame = static_cast<std::uint64_t>(i);
        while (!ring.push(r)) std::this_thread::yield();
      }
    });
  std::vector<std::uint64_t> next(kProducers, 0);
  int received = 0;
  HookRecord out;
  while (received < kProducers * kPerProducer) {
    if (!ring.pop(out)) continue;
    // Per producer, records arrive in the order pushed.
    ASSERT_EQ(out.frame, next[out.ctx]);
    ++next[out.ctx];
    ++received;
  }
  for (auto& t : producers) t.join();
  EXPECT_FALSE(ring.pop(out));
}
