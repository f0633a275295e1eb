// The system context of a mark result (STYLE: "the system context of every result"): CPU model,
// cores, memory, kernel and, with a GL context current, the renderer and version strings.
#pragma once
#include <nlohmann/json.hpp>

namespace pictor::mark {

// {cpu_model, cores, memory_bytes, kernel}; a value that cannot be read is null.
nlohmann::json machine_info();
// The 1-minute load average (/proc/loadavg), or NaN when unreadable: a busy machine's scores are
// not its capacity, so runs record it at start and end.
double load_average();
// {gl_vendor, gl_renderer, gl_version}; needs a current GL context.
nlohmann::json gl_info();

}  // namespace pictor::mark
