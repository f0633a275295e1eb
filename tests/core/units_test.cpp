#include <gtest/gtest.h>

#include "core/error.h"
#include "core/units.h"

using namespace pictor;

TEST(Units, Durations) {
  EXPECT_DOUBLE_EQ(parse_duration_s("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(parse_duration_s("10s"), 10.0);
  EXPECT_DOUBLE_EQ(parse_duration_s("2m"), 120.0);
  EXPECT_DOUBLE_EQ(parse_duration_s("3"), 3.0);
  EXPECT_DOUBLE_EQ(parse_duration_s("1.5s"), 1.5);
  EXPECT_THROW(parse_duration_s("fast"), UsageError);
  EXPECT_THROW(parse_duration_s("10parsecs"), UsageError);
  EXPECT_THROW(parse_duration_s("-1s"), UsageError);
}

TEST(Units, Sizes) {
  EXPECT_EQ(parse_size("1280x720"), (Size{1280, 720}));
  EXPECT_THROW(parse_size("1280"), UsageError);
  EXPECT_THROW(parse_size("0x720"), UsageError);
  EXPECT_THROW(parse_size("12a0x720"), UsageError);
  EXPECT_THROW(parse_size("x"), UsageError);
}
