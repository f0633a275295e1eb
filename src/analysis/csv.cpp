// CSV reading shared by the Pictor, MangoHud and PresentMon importers (see csv.h).
#include "analysis/csv.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <unordered_map>

#include "core/error.h"
#include "core/text.h"

namespace pictor::analysis {

void fail_at(const std::string& path, std::size_t line, std::string_view cause) {
  throw UsageError(fmt::format("{}:{}: {}", quote_for_error(path, 200), line, cause));
}

CsvReader::CsvReader(std::string_view text, std::string path)
    : text_(text), path_(std::move(path)) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

bool CsvReader::next(CsvRow& row) {
  const std::size_t n = text_.size();
  // Skip blank lines so callers only see rows with content.
  while (pos_ < n && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  if (pos_ >= n) return false;

  row.line = line_;
  row.terminated = false;
  std::size_t used = 0;  // fields filled so far; row.fields keeps its strings' capacity
  auto field = [&]() -> std::string& {
    if (used == row.fields.size()) row.fields.emplace_back();
    std::string& f = row.fields[used++];
    f.clear();
    return f;
  };

  std::string* current = &field();
  while (true) {
    if (pos_ >= n) break;  // end of text: the row is not terminated
    char c = text_[pos_];
    if (c == '"' && current->empty()) {
      // A quoted field: runs to the matching quote; "" is a literal quote; may span lines.
      const std::size_t open_line = line_;
      ++pos_;
      while (true) {
        if (pos_ >= n) fail_at(path_, open_line, "quoted field is not closed before the end of the file");
        c = text_[pos_];
        if (c == '"') {
          if (pos_ + 1 < n && text_[pos_ + 1] == '"') {
            current->push_back('"');
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        if (c == '\n') ++line_;
        current->push_back(c);
        ++pos_;
      }
      if (pos_ < n && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') {
        fail_at(path_, line_, "unexpected text after a closing quote");
      }
      continue;
    }
    if (c == ',') {
      current = &field();
      ++pos_;
      continue;
    }
    if (c == '\r' && pos_ + 1 < n && text_[pos_ + 1] == '\n') {
      pos_ += 2;
      ++line_;
      row.terminated = true;
      break;
    }
    if (c == '\n' || c == '\r') {  // LF, or a lone CR (old Mac line end)
      ++pos_;
      ++line_;
      row.terminated = true;
      break;
    }
    current->push_back(c);
    ++pos_;
  }
  row.fields.resize(used);
  return true;
}

std::string fold(std::string_view text) {
  std::size_t b = 0;
  std::size_t e = text.size();
  while (b < e && (text[b] == ' ' || text[b] == '\t')) ++b;
  while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t')) --e;
  std::string out(text.substr(b, e - b));
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

CsvHeader::CsvHeader(const CsvRow& row, std::string path)
    : names_(row.fields), path_(std::move(path)), line_(row.line) {
  folded_.reserve(names_.size());
  std::unordered_map<std::string_view, std::size_t> first;  // a hostile header may be huge
  for (const std::string& name : names_) folded_.push_back(fold(name));
  for (std::size_t i = 0; i < folded_.size(); ++i) {
    // Empty names (a trailing comma) are never looked up, so only named columns must be unique.
    if (folded_[i].empty()) continue;
    const auto [it, added] = first.emplace(folded_[i], i);
    if (!added) {
      fail_at(path_, line_,
              fmt::format("column '{}' appears twice in the header (columns {} and {})",
                          quote_for_error(names_[i], 40), it->second + 1, i + 1));
    }
  }
}

std::optional<std::size_t> CsvHeader::find(std::string_view name) const {
  const std::string key = fold(name);
  for (std::size_t i = 0; i < folded_.size(); ++i) {
    if (folded_[i] == key) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> CsvHeader::find_any(std::initializer_list<std::string_view> names) const {
  for (const std::string_view name : names) {
    if (auto column = find(name)) return column;
  }
  return std::nullopt;
}

std::size_t CsvHeader::require(std::string_view name) const {
  if (auto column = find(name)) return *column;
  fail_at(path_, line_, fmt::format("missing required column '{}'", name));
}

bool check_row_width(const CsvRow& row, const CsvHeader& header, std::vector<std::string>& notes) {
  const std::size_t have = row.fields.size();
  if (have == header.size()) return true;
  if (have < header.size() && !row.terminated) {
    notes.push_back(fmt::format(
        "line {} is cut short ({} of {} fields, no line end), as a writer stopped mid-row "
        "leaves it: dropped",
        row.line, have, header.size()));
    return false;
  }
  fail_at(header.path(), row.line,
          fmt::format("row has {} fields, header (line {}) has {}", have, header.line(),
                      header.size()));
}

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_not_available(std::string_view s) { return s.empty() || s == "NA" || s == "N/A"; }

[[noreturn]] void bad_value(const CsvRow& row, const CsvHeader& header, std::size_t column,
                            std::string_view what) {
  fail_at(header.path(), row.line,
          fmt::format("column '{}': '{}' is {}", header.name(column),
                      quote_for_error(row.fields[column], 40), what));
}

std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> field_optional_double(const CsvRow& row, const CsvHeader& header,
                                            std::size_t column) {
  const std::string_view s = trimmed(row.fields[column]);
  if (is_not_available(s)) return std::nullopt;
  const auto value = parse_double(s);
  if (!value) bad_value(row, header, column, "not a number");
  if (!std::isfinite(*value)) bad_value(row, header, column, "not a finite number");
  return value;
}

double field_double(const CsvRow& row, const CsvHeader& header, std::size_t column) {
  const std::string_view s = trimmed(row.fields[column]);
  if (s.empty()) {
    fail_at(header.path(), row.line,
            fmt::format("column '{}' is empty where a number is required", header.name(column)));
  }
  const auto value = field_optional_double(row, header, column);
  if (!value) bad_value(row, header, column, "not a number");
  return *value;
}

int64_t field_int64(const CsvRow& row, const CsvHeader& header, std::size_t column) {
  std::string_view s = trimmed(row.fields[column]);
  if (s.empty()) {
    fail_at(header.path(), row.line,
            fmt::format("column '{}' is empty where an integer is required", header.name(column)));
  }
  if (s.front() == '+') s.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) bad_value(row, header, column, "out of range");
  if (ec != std::errc{} || end != s.data() + s.size()) bad_value(row, header, column, "not an integer");
  return value;
}

namespace {

[[noreturn]] void negative(const CsvRow& row, const CsvHeader& header, std::size_t column,
                           std::string_view value) {
  fail_at(header.path(), row.line,
          fmt::format("column '{}': negative value {}", header.name(column), value));
}

}  // namespace

std::optional<double> field_optional_nonnegative(const CsvRow& row, const CsvHeader& header,
                                                 std::size_t column) {
  const auto value = field_optional_double(row, header, column);
  if (value && *value < 0) negative(row, header, column, quote_for_error(trimmed(row.fields[column]), 40));
  return value;
}

double field_nonnegative(const CsvRow& row, const CsvHeader& header, std::size_t column) {
  const double value = field_double(row, header, column);
  if (value < 0) negative(row, header, column, quote_for_error(trimmed(row.fields[column]), 40));
  return value;
}

int64_t field_nonnegative_int64(const CsvRow& row, const CsvHeader& header, std::size_t column) {
  const int64_t value = field_int64(row, header, column);
  if (value < 0) negative(row, header, column, std::to_string(value));
  return value;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace pictor::analysis
