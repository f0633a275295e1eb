// The one CSV module: the reader behind every importer (RFC 4180 quoting, LF or CRLF line ends,
// 1-based line numbers on every row, column lookup by name; comment and preamble lines are the
// caller's job) and the one field writer, csv_field.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pictor::analysis {

// Throws pictor::UsageError with the one-line message "<path>:<line>: <cause>" (the path escaped
// as core/text.h quote_for_error does; a cause quoting the file's text must escape it too).
[[noreturn]] void fail_at(const std::string& path, std::size_t line, std::string_view cause);

struct CsvRow {
  std::vector<std::string> fields;
  // Line on which the row starts (a quoted field may continue on later lines).
  std::size_t line = 0;
  // False when the file ended without a line end after this row: the writer may have been cut off.
  bool terminated = true;
};

// Reads rows from text that must outlive the reader. Blank lines are skipped. A UTF-8 byte-order
// mark at the start is ignored. A quoted field left open at the end of the file is an error.
class CsvReader {
 public:
  CsvReader(std::string_view text, std::string path);

  // Fills `row` (reusing its storage) and returns true, or returns false at the end of the text.
  bool next(CsvRow& row);

  const std::string& path() const { return path_; }

 private:
  std::string_view text_;
  std::string path_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

// A header row: column positions by name, compared case-insensitively and ignoring surrounding
// spaces (PresentMon has written both "msBetweenPresents" and "MsBetweenPresents").
class CsvHeader {
 public:
  // Throws "<path>:<line>: column 'NAME' appears twice in the header (columns 2 and 5)": a name
  // given twice cannot say which of its columns holds the figure.
  CsvHeader(const CsvRow& row, std::string path);

  std::optional<std::size_t> find(std::string_view name) const;
  // The first of `names` that exists, if any.
  std::optional<std::size_t> find_any(std::initializer_list<std::string_view> names) const;
  // Throws "<path>:<line>: missing required column 'name'".
  std::size_t require(std::string_view name) const;

  std::size_t size() const { return names_.size(); }
  std::size_t line() const { return line_; }
  const std::string& path() const { return path_; }
  // The name as written in the file.
  const std::string& name(std::size_t column) const { return names_[column]; }

 private:
  std::vector<std::string> names_;
  std::vector<std::string> folded_;
  std::string path_;
  std::size_t line_ = 0;
};

// Lower-cased, space-trimmed copy: the form used to compare names and keywords.
std::string fold(std::string_view text);

// Checks a data row's width against the header. Returns true when the row can be used. A row cut
// short on the file's last line with no line end (a writer killed mid-row) returns false and
// appends a note; any other width mismatch throws "<path>:<line>: row has N fields, header has M".
bool check_row_width(const CsvRow& row, const CsvHeader& header, std::vector<std::string>& notes);

// Field parsing. Each throws "<path>:<line>: column 'NAME': 'TEXT' is not a number" (or "not an
// integer", "not a finite number") on bad text, TEXT escaped and cut short as quote_for_error
// does. The optional forms return nullopt for an empty field or "NA" (PresentMon's marker for
// not available).
double field_double(const CsvRow& row, const CsvHeader& header, std::size_t column);
std::optional<double> field_optional_double(const CsvRow& row, const CsvHeader& header,
                                            std::size_t column);
int64_t field_int64(const CsvRow& row, const CsvHeader& header, std::size_t column);
// The same for a quantity that is never negative (a time, a rate, a count): a value below 0
// throws "<path>:<line>: column 'NAME': negative value -0.5".
double field_nonnegative(const CsvRow& row, const CsvHeader& header, std::size_t column);
std::optional<double> field_optional_nonnegative(const CsvRow& row, const CsvHeader& header,
                                                 std::size_t column);
int64_t field_nonnegative_int64(const CsvRow& row, const CsvHeader& header, std::size_t column);

// One field as RFC 4180 writes it: as it is, or, when it holds a comma, a double quote, a CR or
// an LF, in double quotes with each double quote doubled. CsvReader reads it back as it was.
std::string csv_field(std::string_view text);

}  // namespace pictor::analysis
