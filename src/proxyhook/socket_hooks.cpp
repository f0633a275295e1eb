// Socket hooks: accept marks RFB client connections (local port == PICTOR_PROXY_PORT); reads on
// them feed the RFB parser (SP start), writes on them are timed (SS), and TCP_CORK on them is
// recorded (Xvnc corks the socket for the whole of each update it writes: the update's bracket).
// Every other fd is only forwarded. A missing real function fails the call with ENOSYS rather
// than crashing the proxy.
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <cerrno>

#include "core/clock.h"
#include "proxyhook/proxy_state.h"
#include "proxyhook/real.h"

namespace pp = pictor::proxyhook;

namespace {

int port_of(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(a).sin_port);
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(a).sin6_port);
  return -1;
}

void after_accept(int fd) {
  if (fd < 0 || !pp::writer()) return;
  sockaddr_storage local{}, peer{};
  socklen_t len = sizeof local;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return;
  const int local_port = port_of(local);
  if (local_port < 0) return;  // a Unix socket: an X client of Xvnc, not an RFB viewer
  if (pp::client_port() >= 0 && local_port != pp::client_port()) return;
  len = sizeof peer;
  const int peer_port = getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) == 0 ? port_of(peer) : -1;
  pp::open_client(fd, peer_port, local_port);
}

// The bytes a client sent, from a read that returned n > 0.
void after_read(int fd, const void* buf, ssize_t n) {
  if (n <= 0 || pp::on_writer_thread()) return;
  if (pp::ClientConnection* c = pp::client(fd)) pp::client_bytes(fd, *c, buf, static_cast<std::size_t>(n), pictor::monotonic_ns());
}

void after_readv(int fd, const iovec* iov, int count, ssize_t n) {
  if (n <= 0 || pp::on_writer_thread()) return;
  pp::ClientConnection* c = pp::client(fd);
  if (!c) return;
  const std::int64_t now = pictor::monotonic_ns();
  auto left = static_cast<std::size_t>(n);
  for (int i = 0; i < count && left > 0; ++i) {
    const std::size_t take = iov[i].iov_len < left ? iov[i].iov_len : left;
    pp::client_bytes(fd, *c, iov[i].iov_base, take, now);
    left -= take;
  }
}

void after_write(int fd, std::int64_t start, ssize_t n) {
  if (n <= 0 || pp::on_writer_thread() || !pp::client(fd)) return;
  pp::ProxyRecord r;
  r.kind = pp::ProxyRecordKind::write;
  r.fd = fd;
  r.start_ns = start;
  r.end_ns = pictor::monotonic_ns();
  r.bytes = n;
  pp::writer()->push(r);
}

// Times only calls on client fds: everything else pays one table lookup.
std::int64_t start_if_client(int fd) {
  return !pp::on_writer_thread() && pp::client(fd) ? pictor::monotonic_ns() : 0;
}

// Makes the real call, then lets `after` see its result; the caller gets the real call's errno
// whatever `after` did.
template <typename Call, typename After>
auto observed(Call&& call, After&& after) {
  const auto r = call();
  const int saved = errno;
  after(r);
  errno = saved;
  return r;
}

// A write-family call on fd, timed when fd is an RFB client's.
template <typename Call>
ssize_t timed_write(int fd, Call&& call) {
  const std::int64_t start = start_if_client(fd);
  return observed(call, [&](ssize_t r) {
    if (start) after_write(fd, start, r);
  });
}

void after_cork(int fd, std::int64_t start, int rc, const void* value, socklen_t len) {
  if (rc != 0 || !value || len < static_cast<socklen_t>(sizeof(int)) || pp::on_writer_thread() || !pp::client(fd))
    return;
  pp::ProxyRecord r;
  r.kind = pp::ProxyRecordKind::cork;
  r.fd = fd;
  r.start_ns = start;
  r.end_ns = pictor::monotonic_ns();
  int on = 0;
  __builtin_memcpy(&on, value, sizeof on);  // optval need not be aligned
  r.detail = on != 0 ? 1 : 0;
  pp::writer()->push(r);
}

}  // namespace

#define PICTOR_REAL_OR_FAIL(name, fail)  \
  auto real_fn = PICTOR_PROXY_REAL(name); \
  if (!real_fn) {                        \
    errno = ENOSYS;                      \
    return fail;                         \
  }

extern "C" {

__attribute__((visibility("default"))) int accept(int fd, sockaddr* addr, socklen_t* len) {
  PICTOR_REAL_OR_FAIL(accept, -1)
  return observed([&] { return real_fn(fd, addr, len); }, after_accept);
}

__attribute__((visibility("default"))) int accept4(int fd, sockaddr* addr, socklen_t* len, int flags) {
  PICTOR_REAL_OR_FAIL(accept4, -1)
  return observed([&] { return real_fn(fd, addr, len, flags); }, after_accept);
}

__attribute__((visibility("default"))) int close(int fd) {
  PICTOR_REAL_OR_FAIL(close, -1)
  // Before the real close: the fd number may be reused by another thread right after it.
  pp::close_client(fd);
  return real_fn(fd);
}

__attribute__((visibility("default"))) ssize_t read(int fd, void* buf, size_t n) {
  PICTOR_REAL_OR_FAIL(read, -1)
  return observed([&] { return real_fn(fd, buf, n); }, [&](ssize_t r) { after_read(fd, buf, r); });
}

// A peek (MSG_PEEK) is read again later: only the real read feeds the parser.
__attribute__((visibility("default"))) ssize_t recv(int fd, void* buf, size_t n, int flags) {
  PICTOR_REAL_OR_FAIL(recv, -1)
  return observed([&] { return real_fn(fd, buf, n, flags); }, [&](ssize_t r) {
    if (!(flags & MSG_PEEK)) after_read(fd, buf, r);
  });
}

__attribute__((visibility("default"))) ssize_t recvfrom(int fd, void* buf, size_t n, int flags, sockaddr* addr,
                                                        socklen_t* len) {
  PICTOR_REAL_OR_FAIL(recvfrom, -1)
  return observed([&] { return real_fn(fd, buf, n, flags, addr, len); }, [&](ssize_t r) {
    if (!(flags & MSG_PEEK)) after_read(fd, buf, r);
  });
}

__attribute__((visibility("default"))) ssize_t recvmsg(int fd, msghdr* msg, int flags) {
  PICTOR_REAL_OR_FAIL(recvmsg, -1)
  return observed([&] { return real_fn(fd, msg, flags); }, [&](ssize_t r) {
    if (!(flags & MSG_PEEK) && msg) after_readv(fd, msg->msg_iov, static_cast<int>(msg->msg_iovlen), r);
  });
}

__attribute__((visibility("default"))) ssize_t readv(int fd, const iovec* iov, int count) {
  PICTOR_REAL_OR_FAIL(readv, -1)
  return observed([&] { return real_fn(fd, iov, count); }, [&](ssize_t r) { after_readv(fd, iov, count, r); });
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void* buf, size_t n) {
  PICTOR_REAL_OR_FAIL(write, -1)
  return timed_write(fd, [&] { return real_fn(fd, buf, n); });
}

__attribute__((visibility("default"))) ssize_t send(int fd, const void* buf, size_t n, int flags) {
  PICTOR_REAL_OR_FAIL(send, -1)
  return timed_write(fd, [&] { return real_fn(fd, buf, n, flags); });
}

__attribute__((visibility("default"))) ssize_t sendto(int fd, const void* buf, size_t n, int flags,
                                                      const sockaddr* addr, socklen_t len) {
  PICTOR_REAL_OR_FAIL(sendto, -1)
  return timed_write(fd, [&] { return real_fn(fd, buf, n, flags, addr, len); });
}

__attribute__((visibility("default"))) ssize_t sendmsg(int fd, const msghdr* msg, int flags) {
  PICTOR_REAL_OR_FAIL(sendmsg, -1)
  return timed_write(fd, [&] { return real_fn(fd, msg, flags); });
}

__attribute__((visibility("default"))) ssize_t writev(int fd, const iovec* iov, int count) {
  PICTOR_REAL_OR_FAIL(writev, -1)
  return timed_write(fd, [&] { return real_fn(fd, iov, count); });
}

__attribute__((visibility("default"))) int setsockopt(int fd, int level, int name, const void* value,
                                                      socklen_t len) {
  PICTOR_REAL_OR_FAIL(setsockopt, -1)
  if (level != IPPROTO_TCP || name != TCP_CORK) return real_fn(fd, level, name, value, len);
  const std::int64_t start = start_if_client(fd);
  return observed([&] { return real_fn(fd, level, name, value, len); }, [&](int rc) {
    if (start) after_cork(fd, start, rc, value, len);
  });
}

}  // extern "C"
