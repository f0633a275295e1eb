// The CSV module: the reader (quoting, line ends, line numbers, header lookup, field parsing and
// its errors) and the field writer.
#include "analysis/csv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_files.h"

namespace pictor::analysis {
namespace {

using test::usage_error_of;

std::vector<CsvRow> read_all(const std::string& text) {
  CsvReader reader(text, "t.csv");
  std::vector<CsvRow> rows;
  CsvRow row;
  while (reader.next(row)) rows.push_back(row);
  return rows;
}

TEST(CsvReader, PlainRowsWithLineNumbers) {
  const auto rows = read_all("a,b,c\n1,2,3\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(rows[0].line, 1u);
  EXPECT_EQ(rows[1].line, 2u);
  EXPECT_TRUE(rows[1].terminated);
}

TEST(CsvReader, QuotedFieldsWithCommasQuotesAndNewlines) {
  const auto rows = read_all("name,desc\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\nlast,row\n");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"a,b", "say \"hi\""}));
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"two\nlines", "x"}));
  EXPECT_EQ(rows[2].line, 3u);
  EXPECT_EQ(rows[3].line, 5u);  // the quoted newline counted
}

// The one field writer: quoted only when it must be, and read back by the reader as it was.
TEST(CsvField, QuotesWhatHoldsACommaQuoteCrOrLfAndReadsBack) {
  EXPECT_EQ(csv_field("plain text"), "plain text");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  const std::vector<std::string> fields{"x", "a,b", "q\"q", "cr\r", "l\nf", "", "\"", "tab\tstays"};
  std::string line;
  for (const auto& f : fields) line += (line.empty() ? "" : ",") + csv_field(f);
  const auto rows = read_all(line + "\n");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].fields, fields);
}

TEST(CsvReader, CrlfEmptyFieldsBlankLinesAndBom) {
  const auto rows = read_all("\xEF\xBB\xBF" "a,b,c\r\n\r\n,,\r\n1,,3\r\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].fields[0], "a");  // no BOM left on the first name
  EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(rows[1].line, 3u);        // the blank line still counts
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"1", "", "3"}));
  EXPECT_EQ(rows[2].fields[2], "3");  // no stray \r
}

TEST(CsvReader, LastRowWithoutLineEndIsMarked) {
  const auto rows = read_all("a,b\n1,2\n3");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[1].terminated);
  EXPECT_FALSE(rows[2].terminated);
  EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"3"}));
}

TEST(CsvReader, UnclosedQuoteNamesItsLine) {
  const std::string msg = usage_error_of([] { read_all("a,b\n1,2\n\"open,3\n4,5\n"); });
  EXPECT_EQ(msg, "t.csv:3: quoted field is not closed before the end of the file");
}

TEST(CsvReader, TextAfterClosingQuoteIsAnError) {
  const std::string msg = usage_error_of([] { read_all("a,b\n\"x\"y,2\n"); });
  EXPECT_EQ(msg, "t.csv:2: unexpected text after a closing quote");
}

CsvRow make_row(std::vector<std::string> fields, std::size_t line, bool terminated = true) {
  CsvRow r;
  r.fields = std::move(fields);
  r.line = line;
  r.terminated = terminated;
  return r;
}

TEST(CsvHeader, FindsNamesIgnoringCaseAndSpaces) {
  const CsvHeader h(make_row({"Application", " msBetweenPresents ", "x"}, 1), "p.csv");
  EXPECT_EQ(h.find("application"), 0u);
  EXPECT_EQ(h.find("MsBetweenPresents"), 1u);
  EXPECT_FALSE(h.find("FrameTime").has_value());
  EXPECT_EQ(h.find_any({"FrameTime", "X"}), 2u);
  EXPECT_EQ(usage_error_of([&] { h.require("FrameTime"); }),
            "p.csv:1: missing required column 'FrameTime'");
}

TEST(CsvHeader, RefusesANameGivenTwice) {
  // Which of two 'frame' columns holds the frame number cannot be told: refused, both named.
  EXPECT_EQ(usage_error_of([] { CsvHeader(make_row({"frame", "ctx", "swap_ns", "Frame "}, 3), "d.csv"); }),
            "d.csv:3: column 'Frame ' appears twice in the header (columns 1 and 4)");
  // Unnamed columns (a trailing comma) are never looked up and may repeat.
  const CsvHeader h(make_row({"a", "", "b", ""}, 1), "d.csv");
  EXPECT_EQ(h.find("b"), 2u);
}

TEST(CsvFields, NegativeValuesOfQuantitiesThatCannotBeAreNamed) {
  const CsvHeader h(make_row({"gpu_ms", "frame"}, 1), "n.csv");
  EXPECT_EQ(usage_error_of([&] { field_optional_nonnegative(make_row({"-0.0035", "1"}, 4), h, 0); }),
            "n.csv:4: column 'gpu_ms': negative value -0.0035");
  EXPECT_EQ(usage_error_of([&] { field_nonnegative(make_row({" -2 ", "1"}, 5), h, 0); }),
            "n.csv:5: column 'gpu_ms': negative value -2");
  EXPECT_EQ(usage_error_of([&] { field_nonnegative_int64(make_row({"1", "-7"}, 6), h, 1); }),
            "n.csv:6: column 'frame': negative value -7");
  EXPECT_FALSE(field_optional_nonnegative(make_row({"NA", "1"}, 7), h, 0).has_value());
  EXPECT_DOUBLE_EQ(*field_optional_nonnegative(make_row({"0", "1"}, 7), h, 0), 0.0);
  EXPECT_EQ(field_nonnegative_int64(make_row({"1", "0"}, 7), h, 1), 0);
}

TEST(CsvFields, QuotedTextIsEscapedAndCutShort) {
  // A NUL in a field used to end the message there: "column 'frame': '" and nothing more.
  const CsvHeader h(make_row({"frame"}, 1), "q.csv");
  EXPECT_EQ(usage_error_of([&] { field_int64(make_row({std::string("1\0\n2", 4)}, 2), h, 0); }),
            "q.csv:2: column 'frame': '1\\x00\\x0a2' is not an integer");
  const std::string msg = usage_error_of([&] { field_int64(make_row({std::string(100'000, 'z')}, 2), h, 0); });
  EXPECT_EQ(msg, "q.csv:2: column 'frame': '" + std::string(40, 'z') + "...' is not an integer");
  // The path, too: it is outside text as much as the file's content.
  EXPECT_EQ(usage_error_of([] { fail_at("a\nb.csv", 3, "cause"); }), "a\\x0ab.csv:3: cause");
}

TEST(CsvFields, NumbersAndTheirErrors) {
  const CsvHeader h(make_row({"a", "b"}, 1), "f.csv");
  EXPECT_DOUBLE_EQ(field_double(make_row({" 12.5 ", "x"}, 7), h, 0), 12.5);
  EXPECT_DOUBLE_EQ(field_double(make_row({"+3e2", "x"}, 7), h, 0), 300.0);
  EXPECT_EQ(field_int64(make_row({"1000000000000", "x"}, 7), h, 0), 1000000000000);
  EXPECT_FALSE(field_optional_double(make_row({"NA", "x"}, 7), h, 0).has_value());
  EXPECT_FALSE(field_optional_double(make_row({"", "x"}, 7), h, 0).has_value());
  EXPECT_EQ(usage_error_of([&] { field_double(make_row({"1", "abc"}, 7), h, 1); }),
            "f.csv:7: column 'b': 'abc' is not a number");
  EXPECT_EQ(usage_error_of([&] { field_double(make_row({"", "1"}, 8), h, 0); }),
            "f.csv:8: column 'a' is empty where a number is required");
  EXPECT_EQ(usage_error_of([&] { field_double(make_row({"inf", "1"}, 9), h, 0); }),
            "f.csv:9: column 'a': 'inf' is not a finite number");
  EXPECT_EQ(usage_error_of([&] { field_int64(make_row({"1.5", "1"}, 10), h, 0); }),
            "f.csv:10: column 'a': '1.5' is not an integer");
  EXPECT_EQ(usage_error_of([&] { field_int64(make_row({"99999999999999999999", "1"}, 11), h, 0); }),
            "f.csv:11: column 'a': '99999999999999999999' is out of range");
  EXPECT_EQ(usage_error_of([&] { field_double(make_row({"12abc", "1"}, 12), h, 0); }),
            "f.csv:12: column 'a': '12abc' is not a number");
}

TEST(CsvRowWidth, CutLastRowIsDroppedAnyOtherMismatchIsAnError) {
  const CsvHeader h(make_row({"a", "b", "c"}, 2), "w.csv");
  std::vector<std::string> notes;
  EXPECT_TRUE(check_row_width(make_row({"1", "2", "3"}, 3), h, notes));
  EXPECT_FALSE(check_row_width(make_row({"1", "2"}, 9, /*terminated=*/false), h, notes));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("line 9 is cut short"), std::string::npos);
  EXPECT_EQ(usage_error_of([&] { check_row_width(make_row({"1", "2"}, 4), h, notes); }),
            "w.csv:4: row has 2 fields, header (line 2) has 3");
  EXPECT_EQ(usage_error_of([&] { check_row_width(make_row({"1", "2", "3", "4"}, 5, false), h, notes); }),
            "w.csv:5: row has 4 fields, header (line 2) has 3");
}

}  // namespace
}  // namespace pictor::analysis
