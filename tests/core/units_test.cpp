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

TEST(Units, DurationsHaveALimitAndBoundsAreNamed) {
  // Anything past a year is a typo, refused with the text given, never an overflow later.
  try {
    parse_duration_s("1e300s");
    FAIL() << "1e300s accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'1e300s'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("year"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_duration_s("1e400"), UsageError);
  EXPECT_THROW(parse_duration_s("inf"), UsageError);
  EXPECT_THROW(parse_duration_s("nan"), UsageError);
  EXPECT_DOUBLE_EQ(parse_duration_s("366h"), 366 * 3600.0);
  EXPECT_DOUBLE_EQ(parse_duration_s("10s", "--duration", 1, 86400), 10.0);
  try {
    parse_duration_s("1e-9s", "--duration", 1, 86400);
    FAIL() << "1e-9s accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--duration must be between 1 s and 24 h (got 1e-9s)");
  }
  EXPECT_THROW(parse_duration_s("25h", "--duration", 1, 86400), UsageError);
  EXPECT_DOUBLE_EQ(parse_duration_s("24h", "--duration", 1, 86400), 86400.0);
}

TEST(Units, DurationsForMessages) {
  EXPECT_EQ(format_duration(1), "1 s");
  EXPECT_EQ(format_duration(86400), "24 h");
  EXPECT_EQ(format_duration(90), "90 s");
  EXPECT_EQ(format_duration(120), "2 min");
  EXPECT_EQ(format_duration(0.5), "500 ms");
  EXPECT_EQ(format_duration(1.5), "1.5 s");
}
