#include "core/time_text.h"

namespace pictor {

std::string format_time(std::time_t t, const char* format, bool utc) {
  std::tm tm{};
  if ((utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) == nullptr) return {};
  char buf[128];
  const std::size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

std::string iso_utc_now() { return format_time(std::time(nullptr), "%Y-%m-%dT%H:%M:%SZ", true); }

std::string local_stamp_now() { return format_time(std::time(nullptr), "%Y%m%d-%H%M%S", false); }

}  // namespace pictor
