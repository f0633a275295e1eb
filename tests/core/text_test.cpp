// Outside text in messages: quoted bytes never break an error line; numbers fit their column.
#include <gtest/gtest.h>

#include <string>

#include "core/text.h"

using namespace pictor;

TEST(QuoteForError, EscapesEveryByteOutsidePrintableAscii) {
  // A NUL used to end the message there: "column 'frame': '" and nothing more.
  EXPECT_EQ(quote_for_error(std::string("ab\0c", 4)), "ab\\x00c");
  EXPECT_EQ(quote_for_error("line\nnext\r\x1b[2J\x7f"), "line\\x0anext\\x0d\\x1b[2J\\x7f");
  EXPECT_EQ(quote_for_error("caf\xc3\xa9"), "caf\\xc3\\xa9");
  EXPECT_EQ(quote_for_error("plain text, 'quoted' \\ back"), "plain text, 'quoted' \\ back");
}

TEST(QuoteForError, CutsLongTextShort) {
  EXPECT_EQ(quote_for_error(std::string(100'000, 'x'), 10), "xxxxxxxxxx...");
  EXPECT_EQ(quote_for_error("0123456789", 10), "0123456789");
  EXPECT_LT(quote_for_error(std::string(100'000, '\0'), 80).size(), 330u);
}

TEST(FitNumber, FixedWhenItFitsScientificOtherwise) {
  EXPECT_EQ(fit_number(16.666, 8, 2), "16.67");
  EXPECT_EQ(fit_number(12345.678, 8, 2), "12345.68");
  EXPECT_EQ(fit_number(123456.789, 8, 2), "1.23e+05");
  EXPECT_EQ(fit_number(1e300, 8, 2), "1.0e+300");
  EXPECT_EQ(fit_number(-1e300, 8, 2), "-1e+300");
  EXPECT_EQ(fit_number(-0.0035, 8, 2), "-0.00");
  for (const double v : {9.2e18, -9.2e18, 1.7976931348623157e308, 4.9e-324, 123456789.0}) {
    EXPECT_LE(fit_number(v, 8, 2).size(), 8u) << v;
  }
}
