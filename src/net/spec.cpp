#include "net/spec.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/error.h"
#include "core/units.h"

namespace pictor::net {
namespace {

// std::stod with the whole-text check the option parser needs: "12x" is an error, not 12.
bool parse_number(const std::string& text, double& value, std::string& rest) {
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    return false;
  }
  rest = text.substr(used);
  return std::isfinite(value);
}

double parse_loss(const std::string& value) {
  double number = 0;
  std::string unit;
  if (!parse_number(value, number, unit) || (unit != "%" && !unit.empty()))
    throw UsageError("invalid net loss '" + value + "' (expected a percentage such as 0.5%)");
  const double share = unit == "%" ? number / 100.0 : number;
  if (share < 0 || share > 1)
    throw UsageError("invalid net loss '" + value + "' (must be between 0% and 100%)");
  return share;
}

double parse_rate(const std::string& value) {
  double number = 0;
  std::string unit;
  if (!parse_number(value, number, unit))
    throw UsageError("invalid net rate '" + value + "' (expected e.g. 50mbit)");
  double scale = 0;
  if (unit == "bit" || unit == "bps") scale = 1;
  else if (unit == "kbit") scale = 1e3;
  else if (unit == "mbit") scale = 1e6;
  else if (unit == "gbit") scale = 1e9;
  else
    throw UsageError("invalid net rate unit in '" + value + "' (use bit, kbit, mbit or gbit)");
  if (number <= 0)
    throw UsageError("invalid net rate '" + value + "' (must be positive)");
  return number * scale;
}

double parse_delay(const std::string& key, const std::string& value) {
  try {
    return parse_duration_s(value);
  } catch (const UsageError& e) {
    throw UsageError("invalid net " + key + ": " + e.what());
  }
}

std::string format_duration(double s) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%gms", s * 1e3);
  return buffer;
}

}  // namespace

NetSpec parse_net_spec(std::string_view text) {
  NetSpec spec;
  if (text.empty() || text == "none") return spec;
  bool seen[4] = {false, false, false, false};
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string part(text.substr(begin, comma - begin));
    begin = comma + 1;
    const auto equals = part.find('=');
    if (part.empty() || equals == std::string::npos || equals == 0 || equals + 1 == part.size())
      throw UsageError("invalid net part '" + part +
                       "' (expected key=value with keys delay, jitter, loss, rate)");
    const std::string key = part.substr(0, equals);
    const std::string value = part.substr(equals + 1);
    int index = -1;
    if (key == "delay") index = 0, spec.delay_s = parse_delay(key, value);
    else if (key == "jitter") index = 1, spec.jitter_s = parse_delay(key, value);
    else if (key == "loss") index = 2, spec.loss = parse_loss(value);
    else if (key == "rate") index = 3, spec.rate_bits_s = parse_rate(value);
    else
      throw UsageError("unknown net key '" + key + "' (use delay, jitter, loss, rate)");
    if (seen[index]) throw UsageError("net key '" + key + "' given twice");
    seen[index] = true;
  }
  return spec;
}

std::string to_string(const NetSpec& spec) {
  if (spec.is_identity()) return "none";
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : ",") + part; };
  char buffer[64];
  if (spec.delay_s > 0) add("delay=" + format_duration(spec.delay_s));
  if (spec.jitter_s > 0) add("jitter=" + format_duration(spec.jitter_s));
  if (spec.loss > 0) {
    std::snprintf(buffer, sizeof buffer, "loss=%g%%", spec.loss * 100);
    add(buffer);
  }
  if (spec.rate_bits_s > 0) {
    std::snprintf(buffer, sizeof buffer, "rate=%gkbit", spec.rate_bits_s / 1e3);
    add(buffer);
  }
  return out;
}

}  // namespace pictor::net
