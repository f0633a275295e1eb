#include "proxyhook/proxy_state.h"

#include <errno.h>
#include <pthread.h>
#include <strings.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/clock.h"
#include "proxyhook/real.h"

namespace pictor::proxyhook {

namespace {

ClientConnection g_clients[kMaxClientFd];
EventWriter* g_writer = nullptr;  // never destroyed: proxy threads may push while it exits
int g_port = -1;
std::atomic<std::uint64_t> g_motion{0}, g_read_bytes{0}, g_untracked{0};

void log_line(const char* text) noexcept {
  // stderr of the proxy is its log file under the runner; one line, never more per cause.
  std::fprintf(stderr, "pictor-proxyhook: %s\n", text);
}

// The preload is inherited by everything the proxy starts (x11vnc runs helpers through sh):
// only the proxy itself records, when PICTOR_PROXY names a proxy we know. Debian's Xvnc is a
// link to Xtigervnc, so both the name it was started by and the executable's name count.
bool is_the_proxy(const char* proxy) {
  const bool xvnc = strcasecmp(proxy, "xvnc") == 0;
  if (!xvnc && strcasecmp(proxy, "x11vnc") != 0) return true;
  char exe[512] = {};
  if (::readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) return true;
  const char* base = std::strrchr(exe, '/');
  base = base ? base + 1 : exe;
  for (const char* name : {base, static_cast<const char*>(program_invocation_short_name)}) {
    if (strcasecmp(name, proxy) == 0) return true;
    if (xvnc && strcasecmp(name, "Xtigervnc") == 0) return true;
  }
  return false;
}

HookStatus hook_status() {
  HookStatus s;
#define PICTOR_PROXY_STATUS(name, group) \
  (real().name.load() ? s.found : s.missing).push_back(#name);
  PICTOR_PROXY_HOOK_LIST(PICTOR_PROXY_STATUS)
#undef PICTOR_PROXY_STATUS
  s.motion_events = g_motion.load(std::memory_order_relaxed);
  s.read_bytes = g_read_bytes.load(std::memory_order_relaxed);
  s.untracked_fds = g_untracked.load(std::memory_order_relaxed);
  return s;
}

// A forked child has the writer's memory but not its thread: it records nothing (x11vnc -bg would
// fork; Pictor starts proxies in the foreground).
void forget_writer_in_child() { g_writer = nullptr; }

struct InputContext {
  int fd;
  std::int64_t ns;
};

void input_sink(void* context, const RfbInput& in) {
  const auto* c = static_cast<const InputContext*>(context);
  ProxyRecord r;
  r.kind = ProxyRecordKind::input;
  r.input = in.kind;
  r.fd = c->fd;
  r.start_ns = r.end_ns = c->ns;
  r.detail = in.detail;
  r.down = in.down ? 1 : 0;
  if (in.kind == InputKind::button) {
    r.x = in.x;
    r.y = in.y;
  }
  if (g_writer) g_writer->push(r);
}

}  // namespace

EventWriter* writer() noexcept { return g_writer; }
int client_port() noexcept { return g_port; }

ClientConnection* client(int fd) noexcept {
  if (!g_writer || fd < 0 || fd >= kMaxClientFd) return nullptr;
  ClientConnection& c = g_clients[fd];
  return c.active.load(std::memory_order_acquire) ? &c : nullptr;
}

void open_client(int fd, int peer_port, int local_port) noexcept {
  if (!g_writer) return;
  if (fd < 0 || fd >= kMaxClientFd) {
    count_untracked_fd();
    return;
  }
  ClientConnection& c = g_clients[fd];
  c.parser.reset();
  c.problem_reported = false;
  c.active.store(true, std::memory_order_release);
  ProxyRecord r;
  r.kind = ProxyRecordKind::connect;
  r.fd = fd;
  r.start_ns = r.end_ns = monotonic_ns();
  r.detail = peer_port;
  r.x = local_port;
  g_writer->push(r);
}

void close_client(int fd) noexcept {
  ClientConnection* c = client(fd);
  if (!c) return;
  c->active.store(false, std::memory_order_release);
  ProxyRecord r;
  r.kind = ProxyRecordKind::close;
  r.fd = fd;
  r.start_ns = r.end_ns = monotonic_ns();
  g_writer->push(r);
}

void client_bytes(int fd, ClientConnection& c, const void* data, std::size_t n, std::int64_t read_ns) noexcept {
  count_read_bytes(n);
  InputContext ctx{fd, read_ns};
  const std::uint64_t motion_before = c.parser.motion_events();
  if (!c.parser.feed(static_cast<const std::uint8_t*>(data), n, input_sink, &ctx) && !c.problem_reported) {
    c.problem_reported = true;
    ProxyRecord r;
    r.kind = ProxyRecordKind::parse_stop;
    r.fd = fd;
    r.start_ns = r.end_ns = read_ns;
    r.detail = static_cast<std::int64_t>(c.parser.problem());
    r.x = c.parser.problem_message();
    if (g_writer) g_writer->push(r);
  }
  count_motion(c.parser.motion_events() - motion_before);
}

void count_motion(std::uint64_t n) noexcept {
  if (n) g_motion.fetch_add(n, std::memory_order_relaxed);
}
void count_read_bytes(std::uint64_t n) noexcept { g_read_bytes.fetch_add(n, std::memory_order_relaxed); }
void count_untracked_fd() noexcept { g_untracked.fetch_add(1, std::memory_order_relaxed); }

void start_recording() noexcept {
  resolve_all();
  const char* out = std::getenv("PICTOR_OUT");
  const char* proxy = std::getenv("PICTOR_PROXY");
  if (!out || !*out) return;  // preloaded outside a session: forward only
  if (!proxy) proxy = "";
  if (*proxy && !is_the_proxy(proxy)) return;
  if (const char* port = std::getenv("PICTOR_PROXY_PORT"); port && *port) {
    char* end = nullptr;
    const long p = std::strtol(port, &end, 10);
    if (*end == '\0' && p > 0 && p < 65536) {
      g_port = static_cast<int>(p);
    } else {
      log_line("PICTOR_PROXY_PORT is not a port number: every accepted TCP connection is followed");
    }
  }
  try {
    auto* w = new EventWriter(WriterSettings{out, proxy, g_port}, hook_status);
    if (!w->start()) {
      log_line(("nothing is recorded: " + w->error()).c_str());
      delete w;
      return;
    }
    g_writer = w;
    pthread_atfork(nullptr, nullptr, forget_writer_in_child);
  } catch (...) {
    log_line("cannot start the writer thread: nothing is recorded");
  }
}

void stop_recording() noexcept {
  if (!g_writer) return;
  try {
    g_writer->stop();
  } catch (...) {
  }
}

}  // namespace pictor::proxyhook
