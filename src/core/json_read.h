// Reading JSON that came from outside (a file a user named, a model, a recording, a label file)
// with the one-line errors of a UsageError (exit 2), in one place:
// * parse_json: malformed text, a number beyond a double's range (nlohmann's out_of_range, not
//   a parse_error) and nesting deeper than a limit are each "<where>: ..." — nlohmann parses and
//   frees iteratively, but copies, compares and dumps recursively, so a 5 million deep array a
//   parser accepts overflows the stack the first time a loader copies a member.
// * json_member<T>: one member of an object, converted: missing, the wrong type, or an integer
//   that is not a whole number in T's range. nlohmann's get<int>() converts any number, and a
//   float beyond int's range (3e10) is undefined behaviour there; a float for an integer field
//   (1.5) is refused rather than truncated.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace pictor {

// Deeper than any file Pictor reads or writes (model manifests and run.json have 4 levels).
inline constexpr int kJsonMaxDepth = 64;

nlohmann::json parse_json(std::string_view text, const std::string& where, int max_depth = kJsonMaxDepth);

namespace json_detail {

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

template <class T>
constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// A whole number (stored as an integer, not a float) within T's range.
template <class T>
bool fits(const nlohmann::json& v) {
  if (v.is_number_unsigned())
    return std::in_range<T>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return std::in_range<T>(v.get<std::int64_t>());
  return false;
}

// "int's range", "a non-negative whole number": the range in the error, in the reader's words.
template <class T>
std::string range_words(bool plural) {
  const std::string number = plural ? "whole numbers" : "a whole number";
  if constexpr (std::is_same_v<T, int>) return number + " in int's range";
  else if constexpr (std::is_unsigned_v<T>) return (plural ? "" : "a ") + std::string("non-negative ") + (plural ? "whole numbers" : "whole number") + " in " + std::to_string(8 * sizeof(T)) + "-bit range";
  else return number + " in " + std::to_string(8 * sizeof(T)) + "-bit range";
}

}  // namespace json_detail

template <class T>
T json_member(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw UsageError(where + ": missing '" + key + "'");
  const nlohmann::json& v = j.at(key);
  if constexpr (json_detail::is_integer_v<T>) {
    if (!json_detail::fits<T>(v)) throw UsageError(where + ": '" + key + "' must be " + json_detail::range_words<T>(false));
  } else if constexpr (json_detail::is_vector<T>::value) {
    using E = typename T::value_type;
    if constexpr (json_detail::is_integer_v<E>) {
      if (v.is_array())
        for (const auto& e : v)
          if (!json_detail::fits<E>(e))
            throw UsageError(where + ": '" + key + "' must list " + json_detail::range_words<E>(true));
    }
  }
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw UsageError(where + ": '" + key + "' has the wrong type");
  }
}

}  // namespace pictor
