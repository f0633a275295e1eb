// core/json_read.h: JSON from outside is refused with one line naming where it came from, and an
// integer member is a whole number in its type's range or an error (never a conversion).
#include "core/json_read.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using pictor::json_member;
using pictor::parse_json;
using pictor::UsageError;

std::string parse_error(const std::string& text, int depth = pictor::kJsonMaxDepth) {
  try {
    parse_json(text, "f.json", depth);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

template <class T>
std::string member_error(const nlohmann::json& j, const char* key) {
  try {
    json_member<T>(j, key, "f.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonRead, MalformedTextNamesTheFileAndTheByte) {
  EXPECT_EQ(parse_error("{\"a\": }"), "f.json: not valid JSON (byte 7)");
  EXPECT_EQ(parse_error(""), "f.json: not valid JSON (byte 1)");
  EXPECT_EQ(parse_error("[1E400]"), "f.json: not valid JSON (a number beyond a double's range)");
}

TEST(JsonRead, NestingIsLimitedBeforeAnyRecursiveCopy) {
  const auto nested = [](int n) { return std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']'); };
  EXPECT_EQ(parse_error(nested(4), 4), "");
  EXPECT_EQ(parse_error(nested(5), 4), "f.json: JSON nested more than 4 levels deep");
  EXPECT_EQ(parse_error(nested(pictor::kJsonMaxDepth)), "");
  // Five million levels: nlohmann parses this, and a copy of it then overflows the stack.
  EXPECT_EQ(parse_error(nested(5'000'000)), "f.json: JSON nested more than 64 levels deep");
  EXPECT_EQ(parse_json(R"({"a": {"b": [1, 2]}})", "f.json")["a"]["b"][1], 2);
}

TEST(JsonRead, IntegerMembersAreWholeNumbersInRange) {
  const auto j = nlohmann::json::parse(R"({"i": 7, "neg": -3, "big": 3e10, "half": 1.5, "huge": 4294967296,
                                           "s": "7", "list": [1, 2, 1e30], "ok": [640, 360]})");
  EXPECT_EQ(json_member<int>(j, "i", "f.json"), 7);
  EXPECT_EQ(json_member<int>(j, "neg", "f.json"), -3);
  EXPECT_EQ(member_error<int>(j, "big"), "f.json: 'big' must be a whole number in int's range");
  EXPECT_EQ(member_error<int>(j, "half"), "f.json: 'half' must be a whole number in int's range");
  EXPECT_EQ(member_error<int>(j, "huge"), "f.json: 'huge' must be a whole number in int's range");
  EXPECT_EQ(json_member<std::int64_t>(j, "huge", "f.json"), 4294967296);
  EXPECT_EQ(member_error<std::size_t>(j, "neg"), "f.json: 'neg' must be a non-negative whole number in 64-bit range");
  EXPECT_EQ(member_error<int>(j, "s"), "f.json: 's' must be a whole number in int's range");
  EXPECT_EQ(member_error<std::vector<int>>(j, "list"), "f.json: 'list' must list whole numbers in int's range");
  EXPECT_EQ(json_member<std::vector<int>>(j, "ok", "f.json"), (std::vector<int>{640, 360}));
}

TEST(JsonRead, MissingAndWrongTypeAreOneLine) {
  const auto j = nlohmann::json::parse(R"({"name": 3, "flag": true})");
  EXPECT_EQ(member_error<std::string>(j, "absent"), "f.json: missing 'absent'");
  EXPECT_EQ(member_error<std::string>(j, "name"), "f.json: 'name' has the wrong type");
  EXPECT_EQ(member_error<int>(j, "flag"), "f.json: 'flag' must be a whole number in int's range");
  EXPECT_TRUE(json_member<bool>(j, "flag", "f.json"));
  EXPECT_EQ(member_error<int>(nlohmann::json::array(), "x"), "f.json: missing 'x'");
}

}  // namespace
