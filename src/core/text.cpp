// Quoting outside text and fitting numbers (see text.h).
#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace pictor {

std::string quote_for_error(std::string_view text, std::size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == max_bytes) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string fit_number(double value, int width, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  if (static_cast<int>(std::strlen(buffer)) <= width || !std::isfinite(value)) return buffer;
  for (int digits = width; digits >= 1; --digits) {
    std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, value);
    if (static_cast<int>(std::strlen(buffer)) <= width) return buffer;
  }
  return buffer;  // the one-digit form: wider than asked, but still one token
}

}  // namespace pictor
