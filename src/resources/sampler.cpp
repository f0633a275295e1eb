#include "resources/sampler.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "analysis/csv.h"
#include "core/clock.h"
#include "core/csv_files.h"
#include "core/files.h"
#include "resources/counters.h"
#include "resources/gpu.h"
#include "resources/power.h"
#include "resources/proc_reader.h"

namespace pictor::resources {

namespace {

using analysis::csv_field;

template <typename T>
std::string opt(const std::optional<T>& v) {
  return v ? fmt::format("{}", *v) : std::string();
}

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

struct ResourceSampler::Watched {
  pid_t pid = 0;
  pid_t tid = 0;  // a thread of pid; 0 for the whole process
  std::string stack, role, name;
  bool descendants = false;
  std::uint64_t start_ticks = 0;  // as first seen: a reused pid is another process
  bool gone = false;
  std::unique_ptr<ProcessCounters> counters;
  bool unavailable_written = false;
};

struct ResourceSampler::State {
  SamplerOptions options;
  ProcFs proc;
  double tick_s = 0.01;
  files::RowFile resources, counters;
  std::mutex mutex;  // watched, network; held for a whole sample
  std::vector<Watched> watched;
  std::optional<NetworkSource> network;
  std::string network_unavailable;
  bool network_noted = false;  // its source or reason row written
  std::vector<std::pair<std::string, NetworkSource>> stack_networks;
  std::size_t stack_networks_noted = 0;  // those whose source row is written
  GpuProbe gpu;
  PowerProbe power;
  bool once_written = false;  // the one-off "unavailable" rows
  std::thread thread;
  std::condition_variable wake;
  bool stopping = false, stopped = false, started = false;
  SamplerStats stats;
  std::int64_t last_sample_ns = 0;
  explicit State(SamplerOptions o) : options(std::move(o)), proc(options.proc_root) {}
};

ResourceSampler::ResourceSampler(SamplerOptions options) : state_(std::make_unique<State>(std::move(options))) {
  State& s = *state_;
  const long hz = ::sysconf(_SC_CLK_TCK);
  s.tick_s = hz > 0 ? 1.0 / static_cast<double>(hz) : 0.01;
  s.resources = files::RowFile::create(s.options.out_dir + "/" + std::string(csv_files::kResources.name),
                                       csv_files::kResources.header);
  if (s.options.counters)
    s.counters = files::RowFile::create(s.options.out_dir + "/" + std::string(csv_files::kCounters.name),
                                        csv_files::kCounters.header);
  s.gpu = open_gpu(s.options.sysfs_drm);
  s.power = open_power(s.options.powercap);
}

ResourceSampler::~ResourceSampler() { stop(); }

void ResourceSampler::watch_process(pid_t pid, std::string role, std::string name, bool descendants,
                                    std::string stack) {
  Watched w;
  w.stack = stack.empty() ? state_->options.stack : std::move(stack);
  w.pid = pid;
  w.role = std::move(role);
  w.name = std::move(name);
  w.descendants = descendants;
  if (const auto r = state_->proc.process(pid)) w.start_ticks = r->stat.start_ticks;
  if (state_->options.counters)
    w.counters = std::make_unique<ProcessCounters>(ProcessCounters::open(pid, state_->proc.threads(pid)));
  std::lock_guard lock(state_->mutex);
  state_->watched.push_back(std::move(w));
}

void ResourceSampler::watch_thread(pid_t pid, pid_t tid, std::string role, std::string name, std::string stack) {
  Watched w;
  w.stack = stack.empty() ? state_->options.stack : std::move(stack);
  w.pid = pid;
  w.tid = tid;
  w.role = std::move(role);
  w.name = std::move(name);
  if (const auto r = state_->proc.thread(pid, tid)) w.start_ticks = r->stat.start_ticks;
  std::lock_guard lock(state_->mutex);
  state_->watched.push_back(std::move(w));
}

void ResourceSampler::set_network(NetworkSource source) {
  std::lock_guard lock(state_->mutex);
  state_->network = std::move(source);
  state_->network_unavailable.clear();
  state_->network_noted = false;
}

void ResourceSampler::add_stack_network(std::string stack, NetworkSource source) {
  std::lock_guard lock(state_->mutex);
  state_->stack_networks.emplace_back(std::move(stack), std::move(source));
}

void ResourceSampler::set_network_unavailable(std::string reason) {
  std::lock_guard lock(state_->mutex);
  state_->network.reset();
  state_->network_unavailable = std::move(reason);
  state_->network_noted = false;
}

void ResourceSampler::start() {
  State& s = *state_;
  if (s.started) return;
  s.started = true;
  s.thread = std::thread([this] { loop(); });
}

SamplerStats ResourceSampler::stop() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    if (s.stopped) return s.stats;
    s.stopping = true;
  }
  s.wake.notify_all();
  if (s.thread.joinable()) s.thread.join();
  s.stopped = true;
  for (files::RowFile* f : {&s.resources, &s.counters}) {
    if (!f->is_open()) continue;
    f->close();
    if (const std::string note = f->loss_note(); !note.empty()) s.stats.notes.push_back(note);
  }
  return s.stats;
}

void ResourceSampler::loop() {
  State& s = *state_;
  const pid_t tid = static_cast<pid_t>(::syscall(SYS_gettid));
  watch_thread(::getpid(), tid, role::kSampler, "pictor sampler");
  const auto interval = std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(s.options.interval_s * 1e9)));
  auto next = std::chrono::steady_clock::now();
  std::unique_lock lock(s.mutex);
  for (;;) {
    const double cpu0 = thread_cpu_s();
    s.last_sample_ns = monotonic_ns();
    sample(s.last_sample_ns);
    ++s.stats.samples;
    s.stats.own_cpu_s += thread_cpu_s() - cpu0;
    if (s.stopping) break;
    // A fixed schedule; a sample that overran skips the instants it missed rather than bunching.
    next += interval;
    const auto now = std::chrono::steady_clock::now();
    if (next < now) next = now + interval;
    s.wake.wait_until(lock, next, [&] { return s.stopping; });
    // Stopping: one last sample (the loop's next turn), so the last interval is in the file.
  }
  // Its own cost to the nanosecond (its rows above count whole clock ticks of 10 ms).
  s.resources.rows() += fmt::format("{},{},sampler,,thread_cpu_s,,,,,,,,,,,{},s,\n", s.last_sample_ns,
                                    csv_field(s.options.stack), s.stats.own_cpu_s);
  s.resources.flush();
}

void ResourceSampler::sample(std::int64_t now) {
  State& s = *state_;
  const std::string t = std::to_string(now);
  std::string& rows = s.resources.rows();
  // New descendants of the processes that have them: app-child rows from now on.
  const std::size_t roots = s.watched.size();
  for (std::size_t i = 0; i < roots; ++i) {
    if (!s.watched[i].descendants || s.watched[i].gone) continue;
    const pid_t root = s.watched[i].pid;
    for (pid_t child : s.proc.descendants(root)) {
      const auto r = s.proc.process(child);
      if (!r) continue;
      const bool known = std::any_of(s.watched.begin(), s.watched.end(), [&](const Watched& w) {
        return w.pid == child && w.tid == 0 && w.start_ticks == r->stat.start_ticks;
      });
      if (known) continue;
      Watched w;
      w.stack = s.watched[i].stack;  // a child belongs to its parent's stack
      w.pid = child;
      w.role = role::kAppChild;
      w.name = r->stat.comm;
      w.start_ticks = r->stat.start_ticks;
      s.watched.push_back(std::move(w));
    }
  }
  for (Watched& w : s.watched) {
    if (w.gone) continue;
    const auto r = w.tid ? s.proc.thread(w.pid, w.tid) : s.proc.process(w.pid);
    if (!r || (w.start_ticks != 0 && r->stat.start_ticks != w.start_ticks) || r->stat.state == 'Z' ||
        r->stat.state == 'X') {
      // Exited (a zombie has no memory left and counts no more time): no more rows.
      w.gone = true;
      continue;
    }
    const PidStat& st = r->stat;
    // A thread's status has no memory or thread count of its own: those cells stay empty.
    const std::optional<std::int64_t> threads = w.tid ? std::nullopt : std::optional<std::int64_t>(st.threads);
    rows += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},,,\n", t, csv_field(w.stack), w.role, w.tid ? w.tid : w.pid,
                        csv_field(w.name.empty() ? st.comm : w.name), static_cast<double>(st.utime_ticks) * s.tick_s,
                        static_cast<double>(st.stime_ticks) * s.tick_s, opt(r->status.rss_kb), opt(threads),
                        opt(r->status.voluntary_switches), opt(r->status.involuntary_switches), st.minor_faults,
                        st.major_faults, opt(r->io.read_bytes), opt(r->io.write_bytes));
    if (w.counters && s.counters.is_open()) {
      std::string& crows = s.counters.rows();
      for (const CounterReading& c : w.counters->read()) {
        if (!c.value) {
          if (!w.unavailable_written)
            crows += fmt::format("{},{},{},{},{},{},,,,{}\n", t, csv_field(w.stack), w.role, w.pid, csv_field(w.name), c.event,
                                 csv_field(c.unavailable));
          continue;
        }
        crows += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", t, csv_field(w.stack), w.role, w.pid, csv_field(w.name), c.event,
                             *c.value, c.enabled_ns, c.running_ns,
                             c.user_only ? "user space only (perf_event_paranoid forbids kernel counting)" : "");
      }
      w.unavailable_written = true;
    }
  }
  machine_rows(now);
  s.resources.flush();
  if (s.counters.is_open()) s.counters.flush();
}

void ResourceSampler::machine_rows(std::int64_t now) {
  State& s = *state_;
  const std::string t = std::to_string(now);
  const std::string stack = csv_field(s.options.stack);
  std::string& rows = s.resources.rows();
  auto metric = [&](const char* role, const std::string& name, double value, const std::string& unit) {
    rows += fmt::format("{},{},{},,{},,,,,,,,,,,{},{},\n", t, stack, role, csv_field(name), value, unit);
  };
  auto unavailable = [&](const char* role, const std::string& name, const std::string& reason) {
    rows += fmt::format("{},{},{},,{},,,,,,,,,,,,,{}\n", t, stack, role, name, csv_field(reason));
  };
  // CPUs: user (with nice) and system (with irq, softirq) seconds; value = all seconds, so a
  // core's busy share over an interval is Δ(user+system) / Δvalue.
  for (const CpuTimes& c : s.proc.cpus()) {
    rows += fmt::format("{},{},cpu,,{},{},{},,,,,,,,,{},s,\n", t, stack, c.name,
                        static_cast<double>(c.user + c.nice) * s.tick_s,
                        static_cast<double>(c.system + c.irq + c.softirq) * s.tick_s,
                        static_cast<double>(c.total()) * s.tick_s);
  }
  const MemInfo m = s.proc.memory();
  if (m.total_kb) metric("memory", "total", static_cast<double>(*m.total_kb), "kB");
  if (m.total_kb && m.available_kb) metric("memory", "used", static_cast<double>(*m.total_kb - *m.available_kb), "kB");
  if (const auto l = s.proc.load()) metric("load", "load1", l->load1, "");
  if (s.network) {
    if (const auto n = s.network->read()) {
      metric("network", "up", static_cast<double>(n->up), "bytes");
      metric("network", "down", static_cast<double>(n->down), "bytes");
    }
  }
  for (const auto& [name, source] : s.stack_networks)
    if (const auto n = source.read()) {
      const std::string own = csv_field(name);
      rows += fmt::format("{},{},network,,up,,,,,,,,,,,{},bytes,\n", t, own, static_cast<double>(n->up));
      rows += fmt::format("{},{},network,,down,,,,,,,,,,,{},bytes,\n", t, own, static_cast<double>(n->down));
    }
  for (; s.stack_networks_noted < s.stack_networks.size(); ++s.stack_networks_noted) {
    const auto& [name, source] = s.stack_networks[s.stack_networks_noted];
    rows += fmt::format("{},{},network,,source,,,,,,,,,,,,,{}\n", t, csv_field(name), csv_field(source.what));
  }
  if (s.gpu.source)
    for (const Metric& g : s.gpu.source->read()) metric("gpu", g.name, g.value, g.unit);
  for (const Metric& p : s.power.read()) metric("power", p.name, p.value, p.unit);
  if (!s.network_noted && (s.network || !s.network_unavailable.empty())) {
    s.network_noted = true;
    if (s.network) rows += fmt::format("{},{},network,,source,,,,,,,,,,,,,{}\n", t, stack, csv_field(s.network->what));
    else unavailable("network", "session", s.network_unavailable);
  }
  if (!s.once_written) {
    s.once_written = true;
    if (s.gpu.source) rows += fmt::format("{},{},gpu,,source,,,,,,,,,,,,,{}\n", t, stack, csv_field(s.gpu.what));
    else unavailable("gpu", "gpu", s.gpu.unavailable);
    if (s.power.zones.empty()) unavailable("power", "power", s.power.unavailable);
  }
}

}  // namespace pictor::resources
