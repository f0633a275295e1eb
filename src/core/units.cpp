#include "core/units.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>

#include "core/error.h"

namespace pictor {

namespace {
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

double parse_duration_s(std::string_view text) {
  const std::string s(text);
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(s, &used);
  } catch (...) {
    throw UsageError("invalid duration '" + s + "' (expected e.g. 500ms, 10s, 2m)");
  }
  const std::string_view unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "ms") scale = 1e-3;
  else if (unit == "us") scale = 1e-6;
  else if (unit == "m" || unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  else throw UsageError("invalid duration unit in '" + s + "' (use ms, s, m or h)");
  if (!std::isfinite(value) || value < 0)
    throw UsageError("invalid duration '" + s + "' (must be a non-negative number)");
  if (value * scale > kMaxDurationS)
    throw UsageError("invalid duration '" + s + "' (more than a year, the longest duration Pictor takes)");
  return value * scale;
}

double parse_duration_s(std::string_view text, std::string_view what, double min_s, double max_s) {
  const double v = parse_duration_s(text);
  if (v < min_s || v > max_s)
    throw UsageError(std::string(what) + " must be between " + format_duration(min_s) + " and " +
                     format_duration(max_s) + " (got " + std::string(text) + ")");
  return v;
}

std::string format_duration(double seconds) {
  struct Unit {
    double scale;
    const char* name;
  };
  auto whole = [](double n) { return n >= 1 && std::fabs(n - std::round(n)) < 1e-9 * n; };
  // The largest unit that shows it as a whole number; from a second up, seconds otherwise.
  const bool long_one = seconds >= 1;
  const Unit longer[] = {{3600, "h"}, {60, "min"}, {1, "s"}};
  const Unit shorter[] = {{1e-3, "ms"}, {1e-6, "us"}};
  for (const Unit u : long_one ? std::span<const Unit>(longer) : std::span<const Unit>(shorter))
    if (whole(seconds / u.scale)) return number(std::round(seconds / u.scale)) + " " + u.name;
  return number(seconds) + " s";
}

Size parse_size(std::string_view text) {
  const auto x = text.find('x');
  Size size;
  auto parse = [&](std::string_view part, int& out) {
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && p == part.data() + part.size() && out > 0 && out <= 16384;
  };
  if (x == std::string_view::npos || !parse(text.substr(0, x), size.width) ||
      !parse(text.substr(x + 1), size.height))
    throw UsageError("invalid size '" + std::string(text) + "' (expected WxH, e.g. 1280x720)");
  return size;
}

}  // namespace pictor
