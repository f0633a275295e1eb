// Parsing of the command-line value forms shared by every subcommand (DESIGN 4b):
// durations with units ("500ms", "10s", "2m", bare number = seconds) and sizes "WxH".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace pictor {

struct Size {
  int width = 0;
  int height = 0;
  bool operator==(const Size&) const = default;
};

// No duration Pictor takes is longer than a year: anything longer is a typo (1e300s), and a year
// in nanoseconds still fits an int64 a hundred times over, so no later arithmetic overflows.
inline constexpr double kMaxDurationS = 366.0 * 24 * 3600;

// Returns the duration in seconds; throws UsageError naming the text on bad input (not a
// number, an unknown unit, negative, longer than kMaxDurationS).
double parse_duration_s(std::string_view text);
// The same, and the value must lie in [min_s, max_s]; the error names `what` (e.g. "--duration")
// and both bounds.
double parse_duration_s(std::string_view text, std::string_view what, double min_s, double max_s);
// A duration for messages, in the largest unit that keeps it whole where it can: "500 ms",
// "1 s", "90 s", "24 h".
std::string format_duration(double seconds);
// Parses "1280x720"; throws UsageError on bad input or non-positive sides.
Size parse_size(std::string_view text);

}  // namespace pictor
