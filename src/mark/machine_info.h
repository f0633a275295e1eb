// The system context of a mark result (STYLE: "the system context of every result") beyond the
// runner's machine_info(): the load average, and with a GL context current, the renderer and version.
#pragma once
#include <nlohmann/json.hpp>

namespace pictor::mark {

// The 1-minute load average (/proc/loadavg), or NaN when unreadable: a busy machine's scores are
// not its capacity, so runs record it at start and end.
double load_average();
// {gl_vendor, gl_renderer, gl_version}; needs a current GL context.
nlohmann::json gl_info();

}  // namespace pictor::mark
