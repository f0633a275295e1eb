// Parsing of the command-line value forms shared by every subcommand (DESIGN 4b):
// durations with units ("500ms", "10s", "2m", bare number = seconds) and sizes "WxH".
#pragma once
#include <cstdint>
#include <string_view>

namespace pictor {

struct Size {
  int width = 0;
  int height = 0;
  bool operator==(const Size&) const = default;
};

// Returns the duration in seconds; throws UsageError naming the text on bad input.
double parse_duration_s(std::string_view text);
// Parses "1280x720"; throws UsageError on bad input or non-positive sides.
Size parse_size(std::string_view text);

}  // namespace pictor
