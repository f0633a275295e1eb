#include "core/units.h"

#include <charconv>
#include <cmath>
#include <string>

#include "core/error.h"

namespace pictor {

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
  return value * scale;
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
