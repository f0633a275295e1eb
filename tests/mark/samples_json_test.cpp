// The `pictor mark score` input parser on hostile input: deep nesting is refused while parsing
// (no crash, no huge message) and every message quotes little of the input, as plain text.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "mark/samples_json.h"

namespace pictor::mark {
namespace {

std::string message(const std::string& text) {
  try {
    parse_sample_set(text, "in.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

// One line of printable ASCII, short enough to read.
void expect_short_plain_line(const std::string& m) {
  EXPECT_LT(m.size(), 300u) << m.substr(0, 300);
  for (const char c : m) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u >= 0x20 && u < 0x7f) << "byte " << int(u) << " in: " << m.substr(0, 300);
  }
}

std::string nested(std::size_t depth, const std::string& prefix = "", const std::string& suffix = "") {
  return prefix + std::string(depth, '[') + std::string(depth, ']') + suffix;
}

TEST(SampleSet, DeepNestingIsRefusedWithOneShortLine) {
  for (std::size_t depth : {100'000u, 50'000u}) {
    for (const auto& text : {nested(depth), nested(depth, "{\"samples\": [", "]}"),
                             nested(depth, "{\"fps\": 60, \"samples\": ", "}")}) {
      const std::string m = message(text);
      EXPECT_NE(m.find("in.json: JSON nested more than 64 levels deep"), std::string::npos) << m.substr(0, 300);
      expect_short_plain_line(m);
    }
  }
  // 64 levels are still parsed (and then refused for what they are, not for their depth); 65 not.
  const std::string m = message(nested(62, "{\"samples\": [", "]}"));
  EXPECT_EQ(m.find("nested"), std::string::npos) << m;
  EXPECT_NE(m.find("samples[0]"), std::string::npos) << m;
  expect_short_plain_line(m);
  EXPECT_NE(message(nested(63, "{\"samples\": [", "]}")).find("nested more than 64"), std::string::npos);
}

TEST(SampleSet, MessagesQuoteLittleAndEscapeBytes) {
  // A 100 000-element row, a long string as the frame type, control and non-ASCII bytes.
  std::string row = "[";
  for (int i = 0; i < 100'000; ++i) row += (i ? ",1" : "1");
  row += "]";
  for (const auto& text : {"{\"samples\": [" + row + "]}",
                           "{\"samples\": [[\"" + std::string(100'000, 'x') + "\", 0, 1, 16]]}",
                           std::string("{\"samples\": [[\"\\u0000\\u001b[31m\xc3\xa9\", 0, 1, 16]]}"),
                           "{\"fps\": \"" + std::string(50'000, '9') + "\", \"samples\": [[\"a\", 0, 1, 16]]}",
                           "{\"samples\": [[\"a\", 0, 1, 16]], \"x\": \"" + std::string(100'000, 'y'),
                           std::string("{\"samples\": \x01\x02\x7f]}")}) {
    const std::string m = message(text);
    EXPECT_NE(m, "no error");
    EXPECT_EQ(m.rfind("in.json", 0), 0u) << m;
    expect_short_plain_line(m);
  }
  EXPECT_NE(message(std::string("{\"samples\": [[\"\xc3\xa9\", 0, 1, 16]]}")).find("\\xc3\\xa9"), std::string::npos);
  // The file name is escaped too.
  try {
    read_sample_set(std::string("no\x1b[2Jsuch.json"));
    ADD_FAILURE();
  } catch (const UsageError& e) {
    expect_short_plain_line(e.what());
  }
}

TEST(SampleSet, NumberBeyondADoubleIsAUsageError) {
  // nlohmann throws out_of_range (not parse_error) for it: that escaped parse_sample_set
  // (found by fuzz/fuzz_mark_samples.cpp; fuzz/corpus/mark_samples/number_overflow).
  const std::string m = message("{\"fps\": 60, \"samples\": [[\"m\", 103.8E7711, 1, 16]]}");
  EXPECT_EQ(m.rfind("in.json: malformed JSON ([json.exception.out_of_range.406] number overflow", 0), 0u) << m;
  expect_short_plain_line(m);
}

}  // namespace
}  // namespace pictor::mark
