#include "resources/proc_parse.h"

#include <charconv>
#include <cstdlib>

namespace pictor::resources {

namespace {

// The whitespace-separated fields of `text`.
std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The value of "Key:   123 kB" lines, for /proc/PID/status and /proc/meminfo.
std::optional<std::int64_t> keyed(std::string_view text, std::string_view key) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') continue;
    // A line cut short at its end has no line end: its number may be cut too, so it is not read.
    if (eol == text.size()) return std::nullopt;
    const auto fields = split_fields(line.substr(key.size() + 1));
    if (fields.empty()) return std::nullopt;
    return number<std::int64_t>(fields[0]);
  }
  return std::nullopt;
}

}  // namespace

std::optional<PidStat> parse_pid_stat(std::string_view text) {
  // "PID (COMM) S PPID …": COMM may contain ") (" itself, so the last ')' ends it.
  const std::size_t open = text.find('(');
  const std::size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  PidStat s;
  const auto pid = number<int>(text.substr(0, open == 0 ? 0 : open - 1));
  if (!pid) return std::nullopt;
  s.pid = *pid;
  s.comm = std::string(text.substr(open + 1, close - open - 1));
  // Fields after the comm, numbered as in proc(5) from 3 (state).
  const auto f = split_fields(text.substr(close + 1));
  constexpr std::size_t kNeeded = 24 - 2;  // up to field 24, rss
  if (f.size() < kNeeded || f[0].size() != 1) return std::nullopt;
  auto at = [&](int field) { return f[static_cast<std::size_t>(field - 3)]; };
  s.state = at(3)[0];
  const auto ppid = number<int>(at(4));
  const auto minflt = number<std::uint64_t>(at(10));
  const auto majflt = number<std::uint64_t>(at(12));
  const auto utime = number<std::uint64_t>(at(14));
  const auto stime = number<std::uint64_t>(at(15));
  const auto threads = number<std::int64_t>(at(20));
  const auto start = number<std::uint64_t>(at(22));
  const auto rss = number<std::int64_t>(at(24));
  if (!ppid || !minflt || !majflt || !utime || !stime || !threads || !start || !rss) return std::nullopt;
  s.ppid = *ppid;
  s.minor_faults = *minflt;
  s.major_faults = *majflt;
  s.utime_ticks = *utime;
  s.stime_ticks = *stime;
  s.threads = *threads;
  s.start_ticks = *start;
  s.rss_pages = *rss;
  return s;
}

PidStatus parse_pid_status(std::string_view text) {
  PidStatus s;
  s.rss_kb = keyed(text, "VmRSS");
  s.threads = keyed(text, "Threads");
  s.voluntary_switches = keyed(text, "voluntary_ctxt_switches");
  s.involuntary_switches = keyed(text, "nonvoluntary_ctxt_switches");
  return s;
}

PidIo parse_pid_io(std::string_view text) {
  PidIo io;
  auto get = [&](std::string_view key) -> std::optional<std::uint64_t> {
    const auto v = keyed(text, key);
    if (!v || *v < 0) return std::nullopt;
    return static_cast<std::uint64_t>(*v);
  };
  io.rchar = get("rchar");
  io.wchar = get("wchar");
  io.read_bytes = get("read_bytes");
  io.write_bytes = get("write_bytes");
  return io;
}

std::vector<CpuTimes> parse_proc_stat(std::string_view text) {
  std::vector<CpuTimes> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) break;  // a last line without its end may be cut short
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.substr(0, 3) != "cpu") continue;
    const auto f = split_fields(line);
    if (f.size() < 9) continue;
    CpuTimes c;
    c.name = std::string(f[0]);
    std::uint64_t* fields[] = {&c.user, &c.nice, &c.system, &c.idle, &c.iowait, &c.irq, &c.softirq, &c.steal};
    bool ok = true;
    for (std::size_t i = 0; i < 8; ++i) {
      const auto v = number<std::uint64_t>(f[i + 1]);
      ok = ok && v.has_value();
      if (v) *fields[i] = *v;
    }
    if (ok) out.push_back(std::move(c));
  }
  return out;
}

MemInfo parse_meminfo(std::string_view text) { return {keyed(text, "MemTotal"), keyed(text, "MemAvailable")}; }

std::optional<LoadAvg> parse_loadavg(std::string_view text) {
  const auto f = split_fields(text);
  if (f.size() < 4) return std::nullopt;  // the fourth field (running/total) shows the three are whole
  LoadAvg l;
  double* values[] = {&l.load1, &l.load5, &l.load15};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string s(f[i]);
    char* end = nullptr;
    *values[i] = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
  }
  return l;
}

std::vector<int> parse_children(std::string_view text) {
  std::vector<int> out;
  for (std::string_view f : split_fields(text))
    if (const auto pid = number<int>(f); pid && *pid > 0) out.push_back(*pid);
  return out;
}

}  // namespace pictor::resources
