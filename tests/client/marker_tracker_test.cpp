// Unwrapping the marker's 12-bit tags and 8-bit frame numbers across their wrap points, repeats,
// missing markers and false reads.
#include "client/marker_tracker.h"

#include <gtest/gtest.h>

namespace pictor::client {
namespace {

TEST(MarkerTracker, NoMarkerGivesNothingAndKeepsState) {
  MarkerTracker t;
  const auto r = t.update(std::nullopt, 10);
  EXPECT_FALSE(r.tag);
  EXPECT_FALSE(r.frame);
  EXPECT_FALSE(t.tag());
  t.update(tag::make_payload(3, 7), 10);
  t.update(std::nullopt, 10);
  EXPECT_EQ(t.tag(), 3u);
  EXPECT_EQ(t.frame(), 7u);
}

TEST(MarkerTracker, TagsAndFramesUnwrapAcrossManyWraps) {
  MarkerTracker t;
  std::uint64_t tag = 0;
  std::uint64_t frame = 0;
  // 20 000 frames with tags advancing 0..3 per frame: tags wrap 4096 several times, frames 256
  // many times; each capture skips 0..9 frames.
  for (int i = 0; i < 20000; ++i) {
    tag += static_cast<std::uint64_t>(i % 4);
    frame += 1 + static_cast<std::uint64_t>(i % 10);
    const auto r = t.update(tag::make_payload(tag, frame), tag);
    ASSERT_EQ(r.tag, tag) << i;
    ASSERT_EQ(r.frame, frame) << i;
    ASSERT_FALSE(r.repeat) << i;
  }
  EXPECT_GT(tag, 3u * 4096u);
}

TEST(MarkerTracker, RepeatedFrameIsARepeatAndLongGapsUpTo255Frames) {
  MarkerTracker t;
  t.update(tag::make_payload(0, 10), 0);
  EXPECT_TRUE(t.update(tag::make_payload(0, 10), 0).repeat);
  auto r = t.update(tag::make_payload(0, 10 + 255), 0);
  EXPECT_EQ(r.frame, 265u);
  EXPECT_FALSE(r.repeat);
}

TEST(MarkerTracker, TagBeyondWhatWasSentIsRejected) {
  MarkerTracker t;
  t.update(tag::make_payload(5, 1), 5);
  const auto r = t.update(tag::make_payload(900, 2), 6);  // a false read of unmarked pixels
  EXPECT_TRUE(r.implausible);
  EXPECT_FALSE(r.tag);
  EXPECT_EQ(t.tag(), 5u);   // state unchanged
  EXPECT_EQ(t.frame(), 1u);
}

}  // namespace
}  // namespace pictor::client
