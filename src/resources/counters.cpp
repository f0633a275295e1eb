#include "resources/counters.h"

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

namespace pictor::resources {

namespace {

// libpfm4 once per process; its own error text when it cannot start.
const std::string& pfm_ready() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    const int r = pfm_initialize();
    if (r != PFM_SUCCESS) failure = std::string("libpfm4 failed to initialise: ") + pfm_strerror(r);
  });
  return failure;
}

// libpfm4's perf_event encoding of `event` counted at the privilege levels `plm`, into `attr`
// (zeroed first): PFM_SUCCESS or libpfm4's error.
int encode_event(const char* event, int plm, perf_event_attr& attr) {
  std::memset(&attr, 0, sizeof attr);
  pfm_perf_encode_arg_t arg;
  std::memset(&arg, 0, sizeof arg);
  arg.attr = &attr;
  arg.size = sizeof arg;
  return pfm_get_os_event_encoding(event, plm, PFM_OS_PERF_EVENT, &arg);
}

const char* errno_name(int e) {
  switch (e) {
    case ENOENT: return "ENOENT";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EINVAL: return "EINVAL";
    case ENODEV: return "ENODEV";
    case EBUSY: return "EBUSY";
    case EMFILE: return "EMFILE";
    case ESRCH: return "ESRCH";
    case ENOSYS: return "ENOSYS";
    default: return "errno";
  }
}

const char* errno_meaning(int e) {
  switch (e) {
    case ENOENT: return "the kernel has no such event here: no hardware PMU (as in most VMs) or an event this CPU lacks";
    case EOPNOTSUPP: return "the PMU cannot count this event in this mode (no sampling or no per-task PMU)";
    case EACCES:
    case EPERM: return "not permitted: kernel.perf_event_paranoid or a missing CAP_PERFMON forbids it";
    case EINVAL: return "the kernel rejected the event's encoding";
    case ENODEV: return "the PMU does not exist on this CPU";
    case EBUSY: return "another user holds the PMU exclusively";
    case EMFILE: return "too many open files";
    case ESRCH: return "the process had already exited";
    case ENOSYS: return "the kernel has no perf_event_open";
    default: return "perf_event_open failed";
  }
}

}  // namespace

std::string perf_errno_text(int error) {
  return fmt::format("{} ({}: {})", errno_name(error), std::strerror(error), errno_meaning(error));
}

ProcessCounters::ProcessCounters(ProcessCounters&& o) noexcept : events_(std::move(o.events_)) { o.events_.clear(); }
ProcessCounters& ProcessCounters::operator=(ProcessCounters&& o) noexcept {
  if (this != &o) {
    close_all();
    events_ = std::move(o.events_);
    o.events_.clear();
  }
  return *this;
}
ProcessCounters::~ProcessCounters() { close_all(); }

void ProcessCounters::close_all() {
  for (Event& e : events_)
    for (int fd : e.fds) ::close(fd);
  events_.clear();
}

ProcessCounters ProcessCounters::open(pid_t pid, const std::vector<pid_t>& tids) {
  ProcessCounters c;
  const std::string& pfm_failure = pfm_ready();
  for (const CounterEvent& ev : kCounterEvents) {
    Event e;
    e.name = ev.name;
    perf_event_attr attr{};
    const int r = pfm_failure.empty() ? encode_event(ev.pfm_name, PFM_PLM0 | PFM_PLM3, attr) : PFM_ERR_NOINIT;
    if (r != PFM_SUCCESS) {
      e.unavailable = "unavailable: " + (pfm_failure.empty() ? fmt::format("libpfm4 cannot encode {}: {}", ev.pfm_name,
                                                                           pfm_strerror(r))
                                                             : pfm_failure);
      c.events_.push_back(std::move(e));
      continue;
    }
    attr.size = sizeof attr;
    attr.inherit = 1;  // threads and children created after this count into it
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    // Kernel and user space (a context switch happens in the kernel: counted in user space only it
    // is always 0); where perf_event_paranoid forbids kernel counting (2, Debian's default, for an
    // unprivileged user) the counter falls back to user space and says so.
    attr.exclude_hv = 1;
    int first_error = 0;
    for (pid_t tid : tids) {
      long fd = ::syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
      if (fd < 0 && (errno == EACCES || errno == EPERM) && !attr.exclude_kernel) {
        attr.exclude_kernel = 1;
        e.user_only = true;
        fd = ::syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
      }
      if (fd >= 0) {
        e.fds.push_back(static_cast<int>(fd));
      } else if (errno != ESRCH && first_error == 0) {
        first_error = errno;  // a thread that just exited is not the event's fault
      }
    }
    if (e.fds.empty()) {
      e.unavailable = "unavailable: " + perf_errno_text(first_error ? first_error : ESRCH);
    } else if (first_error != 0) {
      for (int fd : e.fds) ::close(fd);
      e.fds.clear();
      e.unavailable = "unavailable: " + perf_errno_text(first_error);
    }
    c.events_.push_back(std::move(e));
  }
  // Top-down level 1: which of the two reasons applies on this machine.
  Event td;
  td.name = kTopDownName;
  if (!pfm_ready().empty()) {
    td.unavailable = "unavailable: " + pfm_ready();
  } else {
    perf_event_attr attr{};
    const int r = encode_event("TOPDOWN:SLOTS", PFM_PLM3, attr);
    td.unavailable = r == PFM_SUCCESS
                         ? "unavailable: the CPU has top-down events (TOPDOWN:SLOTS) but this version does not read the "
                           "kernel's slots-led metric group"
                         : fmt::format("unavailable: libpfm4 finds no top-down event (TOPDOWN:SLOTS: {}) among this "
                                       "machine's PMUs",
                                       pfm_strerror(r));
  }
  c.events_.push_back(std::move(td));
  (void)pid;
  return c;
}

std::vector<CounterReading> ProcessCounters::read() const {
  std::vector<CounterReading> out;
  for (const Event& e : events_) {
    CounterReading r;
    r.event = e.name;
    r.unavailable = e.unavailable;
    r.user_only = e.user_only;
    if (e.unavailable.empty()) {
      double total = 0;
      bool any = false;
      for (int fd : e.fds) {
        std::uint64_t v[3] = {0, 0, 0};  // value, time enabled, time running
        if (::read(fd, v, sizeof v) != static_cast<ssize_t>(sizeof v)) continue;
        any = true;
        r.enabled_ns += v[1];
        r.running_ns += v[2];
        // Multiplexed: the kernel counted part of the time; scale as perf stat does.
        total += v[2] > 0 && v[2] < v[1] ? static_cast<double>(v[0]) * static_cast<double>(v[1]) / static_cast<double>(v[2])
                                         : static_cast<double>(v[0]);
      }
      if (any) r.value = static_cast<std::uint64_t>(total);
      else r.unavailable = "unavailable: the counter could not be read";
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace pictor::resources
