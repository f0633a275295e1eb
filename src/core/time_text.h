// Wall-clock time as text, for the records people read (run.json, mark.json, suite.json) and for
// default directory names. The measurements themselves use the monotonic clock (clock.h).
#pragma once

#include <ctime>
#include <string>

namespace pictor {

// `format` (strftime) applied to `t` in UTC or in the local time zone; thread-safe
// (gmtime_r/localtime_r).
std::string format_time(std::time_t t, const char* format, bool utc);

// Now in ISO 8601, UTC: 2026-12-01T14:05:09Z.
std::string iso_utc_now();

// Now in the local time zone as a sortable stamp for file names: 20261201-140509.
std::string local_stamp_now();

}  // namespace pictor
