#include "resources/proc_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

namespace pictor::resources {

namespace {

std::vector<pid_t> numeric_entries(const std::string& dir) {
  std::vector<pid_t> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    pid_t v = 0;
    const char* end = e->d_name + std::char_traits<char>::length(e->d_name);
    const auto [p, ec] = std::from_chars(e->d_name, end, v);
    if (ec == std::errc() && p == end && v > 0) out.push_back(v);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// The stat and status under ROOT/BASE, and a process's io; nullopt when the stat is unreadable
// or cut short. A thread's status holds its process's RSS and thread count: left empty.
std::optional<ProcessReading> reading(const ProcFs& proc, const std::string& base, bool thread) {
  const auto stat_text = proc.read(base + "/stat");
  if (!stat_text) return std::nullopt;
  const auto stat = parse_pid_stat(*stat_text);
  if (!stat) return std::nullopt;
  ProcessReading r;
  r.stat = *stat;
  if (const auto s = proc.read(base + "/status")) r.status = parse_pid_status(*s);
  if (thread) {
    r.status.rss_kb.reset();
    r.status.threads.reset();
  } else if (const auto s = proc.read(base + "/io")) {
    r.io = parse_pid_io(*s);
  }
  return r;
}

}  // namespace

ProcFs::ProcFs(std::string root) : root_(std::move(root)) {}

std::optional<std::string> ProcFs::read(const std::string& relative) const {
  const std::string path = root_ + "/" + relative;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  constexpr std::size_t kMax = 64 * 1024;
  std::string text(4096, '\0');
  std::size_t size = 0;
  for (;;) {
    if (size == text.size()) {
      if (text.size() >= kMax) break;
      text.resize(text.size() * 2);
    }
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      // ESRCH: the process exited between open and read.
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text.resize(size);
  return text;
}

std::optional<ProcessReading> ProcFs::process(pid_t pid) const {
  return reading(*this, std::to_string(pid), /*thread=*/false);
}

std::optional<ProcessReading> ProcFs::thread(pid_t pid, pid_t tid) const {
  return reading(*this, std::to_string(pid) + "/task/" + std::to_string(tid), /*thread=*/true);
}

std::vector<pid_t> ProcFs::threads(pid_t pid) const { return numeric_entries(root_ + "/" + std::to_string(pid) + "/task"); }

std::vector<pid_t> ProcFs::children(pid_t pid) const {
  std::vector<pid_t> out;
  bool any_file = false;
  for (pid_t tid : threads(pid)) {
    const auto text = read(std::to_string(pid) + "/task/" + std::to_string(tid) + "/children");
    if (!text) continue;
    any_file = true;
    for (int c : parse_children(*text)) out.push_back(c);
  }
  // No children file although the process is there: a kernel without CONFIG_PROC_CHILDREN.
  if (!any_file && read(std::to_string(pid) + "/stat")) return children_by_scan(pid);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<pid_t> ProcFs::children_by_scan(pid_t pid) const {
  std::vector<pid_t> out;
  for (pid_t p : numeric_entries(root_)) {
    const auto text = read(std::to_string(p) + "/stat");
    if (!text) continue;
    if (const auto s = parse_pid_stat(*text); s && s->ppid == pid) out.push_back(p);
  }
  return out;
}

std::vector<pid_t> ProcFs::descendants(pid_t pid) const {
  std::vector<pid_t> out;
  std::vector<pid_t> frontier{pid};
  // A pid loop cannot happen in a live tree, but a fixture or a reused pid must not spin forever.
  constexpr std::size_t kMaxDescendants = 4096;
  while (!frontier.empty() && out.size() < kMaxDescendants) {
    const pid_t p = frontier.front();
    frontier.erase(frontier.begin());
    for (pid_t c : children(p)) {
      if (c == pid || std::find(out.begin(), out.end(), c) != out.end()) continue;
      out.push_back(c);
      frontier.push_back(c);
    }
  }
  return out;
}

std::vector<CpuTimes> ProcFs::cpus() const {
  const auto text = read("stat");
  return text ? parse_proc_stat(*text) : std::vector<CpuTimes>{};
}

MemInfo ProcFs::memory() const {
  const auto text = read("meminfo");
  return text ? parse_meminfo(*text) : MemInfo{};
}

std::optional<LoadAvg> ProcFs::load() const {
  const auto text = read("loadavg");
  return text ? parse_loadavg(*text) : std::nullopt;
}

}  // namespace pictor::resources
